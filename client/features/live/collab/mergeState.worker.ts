import type { Base64 } from '../../../lib/base64.ts';
import { stateFromUpdates } from './stateFromUpdates.ts';

/** The DOM library types `self` as a window, whose postMessage differs. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Uint8Array[]>) => void) | null;
  postMessage(message: Base64): void;
};

// A large import's state takes the page about 100 ms to encode in one task (more on a slow
// machine): here, typing into the document it was just made from never waits for it.
scope.onmessage = ({ data }) => {
  scope.postMessage(stateFromUpdates(data));
};
