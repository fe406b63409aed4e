import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { findSession, sessionKey, type ActiveSession } from '../auth/sessions.ts';
import { AuthenticationError } from '../errors.ts';
import type { AppEnv, Services } from '../services.ts';

/**
 * Over https the cookie takes the `__Host-` prefix: Secure, whole site, no Domain (docs/PRODUCT.md
 * "Sign-in").
 */
export function sessionCookieName(publicUrl: string): string {
  return isHttps(publicUrl) ? '__Host-inkwell_session' : 'inkwell_session';
}

/** HttpOnly, SameSite=Lax, and Secure over https; `maxAge` in seconds when the cookie should persist. */
export function cookieOptions(publicUrl: string, path = '/', maxAge?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(publicUrl),
    path,
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

function isHttps(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

/** The session behind the request's cookie, or null. */
export async function sessionOf(
  services: Services,
  cookieHeader: (name: string) => string | undefined,
): Promise<ActiveSession | null> {
  const token = cookieHeader(sessionCookieName(services.publicUrl));
  if (!token) return null;
  const cache = services.sessionCache;
  if (!cache) return findSession(services.db, token, services.config.sessionDays);
  const key = sessionKey(token);
  if (!key) return null;
  const known = cache.get(key);
  if (known) return known;
  const session = await findSession(services.db, token, services.config.sessionDays);
  if (session) cache.set(session);
  return session;
}

/** Sets the session cookie to `token` for the whole of `SESSION_DAYS`. */
export function setSessionCookie(c: Context, services: Services, token: string): void {
  const { publicUrl, config } = services;
  const maxAge = config.sessionDays * 24 * 60 * 60;
  setCookie(c, sessionCookieName(publicUrl), token, cookieOptions(publicUrl, '/', maxAge));
}

/**
 * The session behind the request's cookie, or null. When the lookup pushed the session's expiry
 * back, the cookie is sent again with a new Max-Age, so that browser and server agree on when it
 * ends; that happens only as often as the expiry slides, never on every request.
 */
export async function requestSession(
  c: Context,
  services: Services,
): Promise<ActiveSession | null> {
  const session = await sessionOf(services, (name) => getCookie(c, name));
  if (session?.renewed) renewSessionCookie(c, services);
  return session;
}

/** Sends the request's own session cookie back with a fresh Max-Age. */
export function renewSessionCookie(c: Context, services: Services): void {
  const token = getCookie(c, sessionCookieName(services.publicUrl));
  if (token) setSessionCookie(c, services, token);
}

/** An API route as `METHOD /path`, exactly as the route is declared, e.g. `POST /api/ai/generate`. */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /api/${string}`;

/**
 * 401 `unauthenticated` unless the request carries a live session, which handlers then read.
 * Routes in `exempt` are let through unchecked: they are public, or authenticate themselves.
 * Only exact static paths match, so nothing else is let through by a near miss.
 */
export function requireSession(
  services: Services,
  exempt: readonly RouteKey[] = [],
): MiddlewareHandler<AppEnv> {
  const skipped = new Set<string>(exempt);
  return async (c, next) => {
    if (skipped.has(`${c.req.method} ${c.req.path}`)) return next();
    const session = await requestSession(c, services);
    if (!session) throw AuthenticationError();
    c.set('session', session);
    await next();
  };
}
