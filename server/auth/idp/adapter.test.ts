import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterFactory } from 'oidc-provider';
import { migrate } from '../../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../../db/pglite.ts';
import { createLogger } from '../../logger.ts';
import { createPostgresAdapter } from './adapter.ts';

let db: PgliteDatabase;
let adapterFor: AdapterFactory;

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
  adapterFor = createPostgresAdapter(db, createLogger('silent'));
});

afterAll(async () => {
  await db.close();
});

async function expireNow(model: string, id: string) {
  await db.query(
    `UPDATE idp_models SET expires_at = now() - interval '1 second' WHERE model = $1 AND id = $2`,
    [model, id],
  );
}

describe('the PostgreSQL adapter', () => {
  it('finds what it stored, by id, and keeps models apart', async () => {
    const payload = { accountId: 'a1', scope: 'openid email', nested: { deep: ['x', 1] } };
    await adapterFor('AccessToken').upsert('t1', payload, 60);
    expect(await adapterFor('AccessToken').find('t1')).toEqual(payload);
    expect(await adapterFor('RefreshToken').find('t1')).toBeUndefined();
    expect(await adapterFor('AccessToken').find('missing')).toBeUndefined();
  });

  it('replaces the payload on a second upsert of the same id', async () => {
    const sessions = adapterFor('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'first' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'second' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'second' });
  });

  it('sets expires_at from expiresIn and leaves it empty without one', async () => {
    const grants = adapterFor('Grant');
    await grants.upsert('g-ttl', { accountId: 'a' }, 3600);
    await grants.upsert('g-forever', { accountId: 'a' });
    const { rows } = await db.query<{ id: string; seconds: number | null }>(
      `SELECT id, EXTRACT(EPOCH FROM expires_at - now())::integer AS seconds
       FROM idp_models WHERE model = 'Grant' AND id LIKE 'g-%' ORDER BY id`,
    );
    expect(rows[0]).toEqual({ id: 'g-forever', seconds: null });
    expect(rows[1]!.seconds).toBeGreaterThan(3590);
    expect(rows[1]!.seconds).toBeLessThanOrEqual(3600);
  });

  it('does not find expired rows by id, uid or user code', async () => {
    const codes = adapterFor('DeviceCode');
    await codes.upsert('d1', { uid: 'du1', userCode: 'ABCD-EFGH' }, 60);
    expect(await codes.findByUid('du1')).toMatchObject({ userCode: 'ABCD-EFGH' });
    expect(await codes.findByUserCode('ABCD-EFGH')).toMatchObject({ uid: 'du1' });
    await expireNow('DeviceCode', 'd1');
    expect(await codes.find('d1')).toBeUndefined();
    expect(await codes.findByUid('du1')).toBeUndefined();
    expect(await codes.findByUserCode('ABCD-EFGH')).toBeUndefined();
  });

  it('finds a session by its uid', async () => {
    await adapterFor('Session').upsert('s-by-uid', { uid: 'uid-42', accountId: 'acc' }, 60);
    expect(await adapterFor('Session').findByUid('uid-42')).toEqual({
      uid: 'uid-42',
      accountId: 'acc',
    });
    expect(await adapterFor('Session').findByUid('uid-43')).toBeUndefined();
  });

  it('marks a consumed row with the time of consumption in payload.consumed', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    expect((await codes.find('c1'))?.consumed).toBeUndefined();
    const before = Math.floor(Date.now() / 1000);
    await codes.consume('c1');
    const consumed = (await codes.find('c1'))?.consumed as unknown;
    expect(typeof consumed).toBe('number');
    expect(Math.abs((consumed as number) - before)).toBeLessThanOrEqual(2);
  });

  it('deletes one row on destroy', async () => {
    const interactions = adapterFor('Interaction');
    await interactions.upsert('i1', { uid: 'i1' }, 60);
    await interactions.upsert('i2', { uid: 'i2' }, 60);
    await interactions.destroy('i1');
    expect(await interactions.find('i1')).toBeUndefined();
    expect(await interactions.find('i2')).toBeDefined();
  });

  it('revokes every row of its model that belongs to a grant, and only those', async () => {
    const tokens = adapterFor('AccessToken');
    await tokens.upsert('at-1', { grantId: 'revoked' }, 60);
    await tokens.upsert('at-2', { grantId: 'revoked' }, 60);
    await tokens.upsert('at-3', { grantId: 'kept' }, 60);
    await adapterFor('AuthorizationCode').upsert('ac-1', { grantId: 'revoked' }, 60);
    await tokens.revokeByGrantId('revoked');
    expect(await tokens.find('at-1')).toBeUndefined();
    expect(await tokens.find('at-2')).toBeUndefined();
    expect(await tokens.find('at-3')).toBeDefined();
    expect(await adapterFor('AuthorizationCode').find('ac-1')).toBeDefined();
  });

  it('deletes expired rows when it writes', async () => {
    await db.query(
      `INSERT INTO idp_models (model, id, payload, expires_at)
       VALUES ('Session', 'stale', '{}'::jsonb, now() - interval '1 hour')`,
    );
    const fresh = createPostgresAdapter(db, createLogger('silent'));
    await fresh('Session').upsert('new', { uid: 'n' }, 60);
    const { rows } = await db.query(`SELECT 1 FROM idp_models WHERE id = 'stale'`);
    expect(rows).toHaveLength(0);
  });

  it('keeps payload text that needs JSON escaping intact', async () => {
    const payload = { params: { state: `quote " backslash \\ newline \n emoji 🖋 <tag>` } };
    await adapterFor('Interaction').upsert('escape', payload, 60);
    expect(await adapterFor('Interaction').find('escape')).toEqual(payload);
  });
});
