import { useEffect } from 'react';
import { onSignOutElsewhere } from '../features/auth/sessionApi.ts';
import { stopAllLiveSaves } from '../features/live/persistence/liveSaves.ts';

/** Where a tab goes once the session has ended in another tab (a page of the server's). */
const SIGNED_OUT_PAGE = '/auth/signed-out';

/**
 * When another tab signs out, this one stops saving, forgets this device's copies as that tab
 * did (an edit it was keeping may have landed after that tab cleared them), and shows that the
 * session has ended: the next person at a shared computer finds neither the text nor the editor.
 */
export function useSignOutElsewhere(): void {
  useEffect(
    () =>
      onSignOutElsewhere(() => {
        stopAllLiveSaves();
        // Loaded when needed: the device database (idb) is no part of opening a document.
        void import('../features/live/persistence/forgetDevice.ts')
          .then(({ forgetDevice }) => forgetDevice())
          .catch(() => undefined)
          .then(() => window.location.assign(SIGNED_OUT_PAGE));
      }),
    [],
  );
}
