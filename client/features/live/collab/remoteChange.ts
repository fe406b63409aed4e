import type { Transaction } from '@tiptap/pm/state';

/*
 * Which editor transactions come from the shared document. Its own module, without Yjs, so that
 * the editor's plugins that must tell them apart (depthLimit.ts) need not load the binding.
 */

/** Meta of an editor transaction that brings changes from the shared document (someone else's, or an undo). */
export const REMOTE_CHANGE = 'inkwellCollabRemote';

/** Whether `tr` came from the shared document rather than from this writer's typing. */
export function isRemoteChange(tr: Pick<Transaction, 'getMeta'>): boolean {
  return tr.getMeta(REMOTE_CHANGE) === true;
}
