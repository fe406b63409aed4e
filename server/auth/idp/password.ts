import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** 32 MiB and some tens of milliseconds per hash: costly to guess at scale, cheap for one sign-in. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Ceilings on stored parameters, so a tampered row cannot make one verification take minutes. */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;

/** Hashes `password` with scrypt and a random salt as `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, COST);
  return [
    'scrypt',
    COST.N,
    COST.r,
    COST.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

/** True when `password` matches `stored` (from `hashPassword`); false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.hash.length, parsed.cost);
  return timingSafeEqual(actual, parsed.hash);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification without an account, so a sign-in for an unknown e-mail
 * takes as long as a wrong password and does not reveal which addresses have accounts.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(SALT_BYTES).toString('base64url'));
  await verifyPassword(password, await dummyHash);
  return false;
}

interface ParsedHash {
  cost: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N) return undefined;
  if (!Number.isInteger(r) || r < 1 || r > MAX_R) return undefined;
  if (!Number.isInteger(p) || p < 1 || p > MAX_P) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < SALT_BYTES || hash.length < 16) return undefined;
  return { cost: { N, r, p }, salt, hash };
}

function derive(
  password: string,
  salt: Buffer,
  length: number,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly N=2^15, r=8, so lift it.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
