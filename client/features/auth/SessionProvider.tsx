import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../lib/api.ts';
import { getMe } from './sessionApi.ts';
import { SessionContext, type SessionState } from './sessionContext.ts';

/**
 * Asks the server who is signed in, once. The server already sends signed-out page loads to
 * sign in; a session that ends later is caught by the API client's 401 handling.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    getMe().then(
      (me) => {
        if (live) setState({ status: 'ready', me });
      },
      (error: unknown) => {
        // 401: the browser is already on its way to sign in.
        if (!live || (error instanceof ApiError && error.status === 401)) return;
        setState({ status: 'error', message: "Couldn't load your account." });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}
