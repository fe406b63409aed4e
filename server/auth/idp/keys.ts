import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';

/** The secrets the embedded provider keeps in `server_secrets`, so a restart signs nobody out. */
export interface IdpSecrets {
  /** The `inkwell` client's secret. */
  clientSecret: string;
  /** Keygrip keys that sign the provider's cookies, newest first. */
  cookieKeys: string[];
  /** Private signing keys (RS256) for ID tokens. */
  signingKeys: JWK[];
}

/** The algorithms `generateSigningKey` makes keys for. */
export type SigningAlgorithm = 'RS256' | 'ES256';

const rsaKeySchema = z.object({
  kty: z.literal('RSA'),
  kid: z.string().min(1),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  n: z.string(),
  e: z.string(),
  d: z.string(),
  p: z.string(),
  q: z.string(),
  dp: z.string(),
  dq: z.string(),
  qi: z.string(),
});

const jwksSchema = z.object({ keys: z.array(rsaKeySchema).min(1) });
const cookieKeysSchema = z.array(z.string().min(32)).min(1);
const clientSecretSchema = z.string().min(32);

/** Loads the embedded provider's secrets, generating and storing each one the first time. */
export async function loadIdpSecrets(db: Queryable): Promise<IdpSecrets> {
  const clientSecret = await loadOrCreateSecret(db, 'idp_client_secret', clientSecretSchema, () =>
    randomToken(),
  );
  const cookieKeys = await loadOrCreateSecret(db, 'idp_cookie_keys', cookieKeysSchema, () => [
    randomToken(),
  ]);
  const jwks = await loadOrCreateSecret(db, 'idp_jwks', jwksSchema, () => ({
    keys: [rsaKeySchema.parse(generateSigningKey('RS256'))],
  }));
  return { clientSecret, cookieKeys, signingKeys: jwks.keys };
}

/**
 * Reads secret `name`, creating it with `create` when missing. Instances starting together agree
 * on one value: the first insert wins and everyone reads it back.
 */
export async function loadOrCreateSecret<T>(
  db: Queryable,
  name: string,
  schema: z.ZodType<T>,
  create: () => T,
): Promise<T> {
  const existing = await readSecret(db, name);
  if (existing !== undefined) return schema.parse(existing);
  await db.query(
    'INSERT INTO server_secrets (name, value) VALUES ($1, $2::jsonb) ON CONFLICT (name) DO NOTHING',
    [name, JSON.stringify(create())],
  );
  return schema.parse(await readSecret(db, name));
}

async function readSecret(db: Queryable, name: string): Promise<unknown> {
  const { rows } = await db.query<{ value: unknown }>(
    'SELECT value FROM server_secrets WHERE name = $1',
    [name],
  );
  return rows[0]?.value;
}

/** A private signing JWK with `kid` (its RFC 7638 thumbprint), `alg` and `use` set. */
export function generateSigningKey(alg: SigningAlgorithm): JWK {
  const { privateKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: thumbprint(jwk), alg, use: 'sig' };
}

/** RFC 7638: SHA-256 over the required public members in lexicographic order. */
function thumbprint(jwk: {
  kty?: string;
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
}): string {
  const members =
    jwk.kty === 'RSA'
      ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
      : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
