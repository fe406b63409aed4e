import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';

interface ModelRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

const SWEEP_BATCH = 500;
const SWEEP_EVERY_MS = 60_000;

/**
 * oidc-provider's storage (sessions, grants, codes, tokens, interactions) in `idp_models`, one row
 * per model instance. Expired rows are never found; a bounded batch of them is deleted on writes.
 */
export function createPostgresAdapter(db: Queryable, logger: Logger): AdapterFactory {
  let lastSweep = Number.NEGATIVE_INFINITY;
  const sweep = async () => {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    try {
      await db.query(
        `DELETE FROM idp_models WHERE (model, id) IN (
           SELECT model, id FROM idp_models WHERE expires_at <= now() LIMIT ${SWEEP_BATCH})`,
      );
    } catch (error) {
      // The write that triggered the sweep matters more than the clean-up.
      logger.warn('idp: could not delete expired provider rows', { error: String(error) });
    }
  };
  return (model) => new PostgresAdapter(model, db, sweep);
}

class PostgresAdapter implements Adapter {
  private readonly model: string;
  private readonly db: Queryable;
  private readonly sweep: () => Promise<void>;

  constructor(model: string, db: Queryable, sweep: () => Promise<void>) {
    this.model = model;
    this.db = db;
    this.sweep = sweep;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.sweep();
    // `consumed` lives in its column only, so `consume` never rewrites the payload.
    const { consumed, ...rest } = payload;
    const consumedAt = typeof consumed === 'number' ? new Date(consumed * 1000) : null;
    await this.db.query(
      `INSERT INTO idp_models (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, now() + make_interval(secs => $7), $8)
       ON CONFLICT (model, id) DO UPDATE SET
         payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
         uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at, consumed_at = EXCLUDED.consumed_at`,
      [
        this.model,
        id,
        JSON.stringify(rest),
        rest.grantId ?? null,
        rest.userCode ?? null,
        rest.uid ?? null,
        expiresIn ?? null,
        consumedAt,
      ],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.db.query('UPDATE idp_models SET consumed_at = now() WHERE model = $1 AND id = $2', [
      this.model,
      id,
    ]);
  }

  async destroy(id: string): Promise<void> {
    await this.db.query('DELETE FROM idp_models WHERE model = $1 AND id = $2', [this.model, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.query('DELETE FROM idp_models WHERE model = $1 AND grant_id = $2', [
      this.model,
      grantId,
    ]);
  }

  private async findWhere(
    column: 'id' | 'uid' | 'user_code',
    value: string,
  ): Promise<AdapterPayload | undefined> {
    const { rows } = await this.db.query<ModelRow>(
      `SELECT payload, consumed_at FROM idp_models
       WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())
       LIMIT 1`,
      [this.model, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (!row.consumed_at) return row.payload;
    return { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
  }
}
