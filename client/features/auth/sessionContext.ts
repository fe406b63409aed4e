import { createContext, useContext } from 'react';
import type { MeResponse } from '../../../common/api/session.ts';

/** The signed-in account as the app knows it. */
export type SessionState =
  | { status: 'loading' }
  | { status: 'ready'; me: MeResponse }
  | { status: 'error'; message: string };

/** The session, provided by {@link SessionProvider}. */
export const SessionContext = createContext<SessionState>({ status: 'loading' });

/** The signed-in account. */
export function useSession(): SessionState {
  return useContext(SessionContext);
}
