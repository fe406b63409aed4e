import { useState } from 'react';
import type { SharingState } from '../../../common/api/sharing.ts';
import { shareErrorText } from './shareErrors.ts';

/**
 * One part of the share dialog making a change: `run` sends it through `change` (which shows the
 * new state), `busy` while it is under way, and `error`, the sentence of the last failure, said
 * inside the part. `run` answers whether the change was made.
 */
export function useSharingChange(
  change: (request: () => Promise<SharingState>) => Promise<unknown>,
) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (request: () => Promise<SharingState>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await change(request);
      return true;
    } catch (failure) {
      setError(shareErrorText(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
