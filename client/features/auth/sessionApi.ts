import type { MeResponse } from '../../../common/api/session.ts';
import { api } from '../../lib/api.ts';

/** Who is signed in; the API client sends the browser to sign in on 401. */
export function getMe(): Promise<MeResponse> {
  return api.get('/api/me', (s) => s.meResponseSchema);
}

/**
 * Ends the session on the server, runs `beforeLeaving` (clearing this device), then goes where
 * the server says, so that the identity provider's session ends too.
 */
export async function signOut(beforeLeaving?: () => Promise<void>): Promise<void> {
  const { redirectTo } = await api.post(
    '/api/session/logout',
    undefined,
    (s) => s.logoutResponseSchema,
  );
  // Signed out on the server whatever happens here: the page leaves either way.
  await beforeLeaving?.().catch(() => undefined);
  window.location.assign(redirectTo);
}
