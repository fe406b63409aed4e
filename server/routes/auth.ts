import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as oidc from 'openid-client';
import { messagePage } from '../auth/pages.ts';
import { safeReturnTo } from '../auth/returnTo.ts';
import { createSession, hashToken, upsertUser } from '../auth/sessions.ts';
import { cookieOptions, requestSession, setSessionCookie } from '../middleware/session.ts';
import type { Services } from '../services.ts';

/** Ties the provider's answer to the browser that started the sign-in (login CSRF). */
const LOGIN_COOKIE = 'inkwell_login';
/** How long a sign-in may take from the click to the callback. */
const LOGIN_FLOW_SECONDS = 15 * 60;

/**
 * The server side of sign-in (docs/PRODUCT.md "Sign-in"): `/auth/login` starts the
 * authorization-code flow, `/auth/callback` finishes it and opens a session, `/auth/signed-out` is
 * where sign-out lands.
 */
export function authRoutes(services: Services): Hono {
  const { db, relyingParty, logger, publicUrl } = services;
  const app = new Hono();

  app.get('/auth/login', async (c) => {
    const returnTo = safeReturnTo(c.req.query('returnTo'), publicUrl);
    if (await requestSession(c, services)) return c.redirect(returnTo);
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    let target: URL;
    try {
      target = await relyingParty.authorizationUrl(checks);
    } catch (error) {
      logger.error('The identity provider cannot be reached.', error);
      return problem(
        c,
        503,
        'Sign-in is unavailable',
        'The sign-in service cannot be reached right now. Try again in a moment.',
        `/auth/login?returnTo=${encodeURIComponent(returnTo)}`,
      );
    }
    await db.query(
      'INSERT INTO login_flows (state_hash, code_verifier, nonce, return_to) VALUES ($1, $2, $3, $4)',
      [hashToken(checks.state), checks.codeVerifier, checks.nonce, returnTo],
    );
    setCookie(c, LOGIN_COOKIE, checks.state, cookieOptions(publicUrl, '/auth', LOGIN_FLOW_SECONDS));
    c.header('Cache-Control', 'no-store');
    return c.redirect(target.href);
  });

  app.get('/auth/callback', async (c) => {
    c.header('Cache-Control', 'no-store');
    const state = c.req.query('state');
    const cookieState = getCookie(c, LOGIN_COOKIE);
    deleteCookie(c, LOGIN_COOKIE, cookieOptions(publicUrl, '/auth'));
    const providerError = c.req.query('error');
    if (providerError) {
      logger.info('The identity provider returned an error.', {
        error: providerError.slice(0, 100),
      });
      return restart(c, 'The identity provider did not sign you in. You can try again.');
    }
    if (!state || !cookieState || state !== cookieState) {
      return restart(c, 'This sign-in link does not belong to this browser, or it has expired.');
    }
    // Taking the row deletes it, so the same state (and with it the same code) works once only.
    const { rows } = await db.query<{
      code_verifier: string;
      nonce: string;
      return_to: string;
      fresh: boolean;
    }>(
      `DELETE FROM login_flows WHERE state_hash = $1
        RETURNING code_verifier, nonce, return_to, created_at > now() - make_interval(secs => $2) AS fresh`,
      [hashToken(state), LOGIN_FLOW_SECONDS],
    );
    const flow = rows[0];
    if (!flow?.fresh) return restart(c, 'This sign-in link has expired or was already used.');

    const url = new URL(c.req.url);
    const callbackUrl = new URL(`${publicUrl}${url.pathname}${url.search}`);
    let identity;
    try {
      identity = await relyingParty.finishSignIn(callbackUrl, {
        state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      });
    } catch (error) {
      logger.warn('A sign-in failed its checks.', {
        reason: error instanceof Error ? error.message : String(error),
      });
      return restart(c, 'The answer from the identity provider could not be verified.');
    }
    const user = await upsertUser(db, identity);
    const token = await createSession(db, {
      userId: user.id,
      days: services.config.sessionDays,
      userAgent: c.req.header('User-Agent'),
      idToken: identity.idToken,
    });
    setSessionCookie(c, services, token);
    logger.info('Signed in.', { userId: user.id });
    // Checked again: a row stored by an older version may hold what is no longer accepted.
    return c.redirect(safeReturnTo(flow.return_to, publicUrl));
  });

  app.get('/auth/signed-out', (c) =>
    c.html(
      messagePage(
        'You are signed out',
        'Your documents are safe on the server. Sign in again to keep writing.',
        { label: 'Sign in', href: '/auth/login' },
      ),
    ),
  );

  return app;
}

function restart(c: Context, message: string): Response {
  return problem(c, 400, 'Sign-in did not finish', message, '/auth/login');
}

function problem(
  c: Context,
  status: 400 | 503,
  title: string,
  message: string,
  href: string,
): Response {
  return c.html(messagePage(title, message, { label: 'Try again', href }), status);
}
