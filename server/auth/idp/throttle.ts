import { createHash } from 'node:crypto';
import type { RateRule } from '../../db/rateLimits.ts';

/* The embedded provider's rules, counted by server/db/rateLimits.ts; every key starts with `idp:`. */

const FIFTEEN_MINUTES = 15 * 60;

/** Failed sign-ins for one e-mail; hashed so the table holds no addresses. */
export const loginByEmail = (email: string): RateRule => ({
  key: `idp:login:email:${createHash('sha256').update(email.toLowerCase()).digest('base64url')}`,
  limit: 10,
  windowSeconds: FIFTEEN_MINUTES,
});

/** Failed sign-ins from one client address, whatever the e-mail. */
export const loginByIp = (ip: string): RateRule => ({
  key: `idp:login:ip:${ip}`,
  limit: 100,
  windowSeconds: FIFTEEN_MINUTES,
});

/** Accounts created per client address per hour unless configured otherwise. */
export const DEFAULT_SIGNUPS_PER_HOUR = 20;

/** Create-account attempts from one client address. */
export const signupByIp = (ip: string, limit = DEFAULT_SIGNUPS_PER_HOUR): RateRule => ({
  key: `idp:signup:ip:${ip}`,
  limit,
  windowSeconds: 60 * 60,
});
