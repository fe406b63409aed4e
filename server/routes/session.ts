import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import type { LogoutResponse, MeResponse } from '../../common/api/session.ts';
import { deleteSession } from '../auth/sessions.ts';
import { cookieOptions, sessionCookieName } from '../middleware/session.ts';
import type { AppEnv, Services } from '../services.ts';

/** `/api/me` and `/api/session/logout`; mounted behind `requireSession` and the CSRF check. */
export function sessionRoutes(services: Services): Hono<AppEnv> {
  const { relyingParty, db, publicUrl } = services;
  const app = new Hono<AppEnv>();

  app.get('/api/me', (c) => {
    const body: MeResponse = {
      user: c.get('session').user,
      provider: { kind: relyingParty.provider.kind, issuer: relyingParty.provider.issuer },
    };
    return c.json(body);
  });

  app.post('/api/session/logout', async (c) => {
    const session = c.get('session');
    await deleteSession(db, session.idHash);
    services.sessionCache?.forget(session.idHash);
    // Its live sockets close now, here and (through Redis) on every other instance.
    services.collab?.sessionEnded(session.idHash);
    deleteCookie(c, sessionCookieName(publicUrl), cookieOptions(publicUrl));
    services.logger.info('Signed out.', { userId: session.user.id });
    const body: LogoutResponse = { redirectTo: await relyingParty.signOutUrl(session.idToken) };
    return c.json(body);
  });

  return app;
}
