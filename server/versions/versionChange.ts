import * as Y from 'yjs';

/** What a version changed since the one before, read from the Yjs update between the two. */
export interface VersionChange {
  /** Characters written since, not deleted again. */
  added: number;
  /** Characters (and other items, one each) of the version before that are gone. */
  removed: number;
  /** The Yjs clients whose writing is in the update: their accounts are its authors. */
  clients: number[];
  /** Items deleted in the whole state: the next version's `deletedBefore`. */
  deletedTotal: number;
}

/**
 * The change `update` makes to a state whose vector was `since` (null: to an empty document). A
 * measure of size, not a diff: text typed and removed again between the two counts for nothing,
 * and removals are counted from the delete set, which names who wrote what went, not who removed
 * it (the keeper names everyone whose updates it accepted as authors too, versionKeeper.ts).
 */
export function changeOf(
  update: Uint8Array,
  since: { stateVector: Uint8Array; deletedTotal: number } | null,
): VersionChange {
  const { structs, ds } = Y.decodeUpdate(update);
  const before = since ? Y.decodeStateVector(since.stateVector) : new Map<number, number>();
  const clients = new Set<number>();
  let added = 0;
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    clients.add(struct.id.client);
    if (struct.content instanceof Y.ContentString && !Y.isDeleted(ds, struct.id)) {
      added += struct.length;
    }
  }
  // An update carries the state's whole delete set: what went since is what it holds beyond the
  // version before's, less what was written since and went again.
  let deletedTotal = 0;
  let deletedNew = 0;
  for (const [client, ranges] of ds.clients) {
    const known = before.get(client) ?? 0;
    for (const { clock, len } of ranges) {
      deletedTotal += len;
      deletedNew += Math.max(0, clock + len - Math.max(clock, known));
    }
  }
  const removed = Math.max(0, deletedTotal - (since?.deletedTotal ?? 0) - deletedNew);
  return { added, removed, clients: [...clients], deletedTotal };
}
