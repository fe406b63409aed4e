import { createPublicKey, createSign, createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../../db/pglite.ts';
import { generateSigningKey, loadIdpSecrets } from './keys.ts';

let db: PgliteDatabase;

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
});

afterAll(async () => {
  await db.close();
});

describe('the embedded provider secrets', () => {
  it('are generated once and read back unchanged, even by instances starting together', async () => {
    const [first, second] = await Promise.all([loadIdpSecrets(db), loadIdpSecrets(db)]);
    const third = await loadIdpSecrets(db);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(first.clientSecret.length).toBeGreaterThanOrEqual(43);
    const { rows } = await db.query<{ name: string }>(
      'SELECT name FROM server_secrets ORDER BY name',
    );
    expect(rows.map((row) => row.name)).toEqual([
      'idp_client_secret',
      'idp_cookie_keys',
      'idp_jwks',
    ]);
  });

  it('refuse a stored value that is not what they expect rather than use it', async () => {
    await db.query(
      `UPDATE server_secrets SET value = '"short"'::jsonb WHERE name = 'idp_client_secret'`,
    );
    await expect(loadIdpSecrets(db)).rejects.toThrow();
  });
});

describe('signing keys', () => {
  it.each(['RS256', 'ES256'] as const)('makes a private %s key that signs and verifies', (alg) => {
    const jwk = generateSigningKey(alg);
    expect(jwk).toMatchObject({ alg, use: 'sig' });
    expect(jwk.kid).toMatch(/^[\w-]{43}$/);
    expect(jwk.d).toBeTruthy();
    const { kty, crv, x, y, n, e } = jwk;
    const publicJwk = { kty, crv, x, y, n, e };
    const signature = createSign('sha256')
      .update('data')
      .sign({ key: { ...jwk }, format: 'jwk' });
    const verifier = createVerify('sha256').update('data');
    expect(
      verifier.verify(createPublicKey({ key: { ...publicJwk }, format: 'jwk' }), signature),
    ).toBe(true);
  });
});
