import type { MeResponse } from '../../../common/api/session.ts';
import { api } from '../../lib/api.ts';
import { meResponseCheck } from '../../lib/startChecks.ts';

/** Who is signed in; the API client sends the browser to sign in on 401. */
export function getMe(): Promise<MeResponse> {
  return api.get('/api/me', meResponseCheck);
}

/** Where this browser's tabs tell each other that the session has ended. */
const SESSION_CHANNEL = 'inkwell-session';
const SIGNED_OUT = 'signed-out';
/** Set in the tab that signs out: its own listener hears the message too, and must not act on it. */
let signingOut = false;

/**
 * Ends the session on the server, tells this browser's other tabs, runs `beforeLeaving`
 * (clearing this device), then goes where the server says, so that the identity provider's
 * session ends too.
 */
export async function signOut(beforeLeaving?: () => Promise<void>): Promise<void> {
  const { redirectTo } = await api.post(
    '/api/session/logout',
    undefined,
    (s) => s.logoutResponseSchema,
  );
  signingOut = true;
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.postMessage(SIGNED_OUT);
    channel.close();
  }
  // Signed out on the server whatever happens here: the page leaves either way.
  await beforeLeaving?.().catch(() => undefined);
  window.location.assign(redirectTo);
}

/**
 * Calls `handler` when another tab of this browser signs out; returns what stops listening.
 * Without it, a tab left open on a document would keep writing drafts of it to this device
 * until its next request met the ended session.
 */
export function onSignOutElsewhere(handler: () => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (event.data === SIGNED_OUT && !signingOut) handler();
  };
  return () => channel.close();
}
