import * as Y from 'yjs';
import { base64Of, type Base64 } from '../../../lib/base64.ts';

/**
 * The state of a Y.Doc, in base64 as a create request carries it, from every update the
 * document emitted since it was made empty: Yjs merges them into one update that holds the same
 * as `Y.encodeStateAsUpdate` of the document would (newDocumentState.ts).
 */
export function stateFromUpdates(updates: readonly Uint8Array[]): Base64 {
  return base64Of(Y.mergeUpdates([...updates]));
}
