import * as Y from 'yjs';

/**
 * The `deleteFilter` of this writer's Y.UndoManager: an undo step that made a block, or the text
 * inside an empty block, would delete that Y type whole, and with it whatever another writer has
 * typed into it since (Y.UndoManager deletes the types a step inserted, not only its characters).
 * Such a type is kept; this writer's own characters in it are still deleted one by one, as they
 * are in the step too. So undo never takes back someone else's typing (docs/PRODUCT.md "Keeping
 * work safe"), whatever Y.UndoManager's 500 ms merge put into the step.
 */
export function keepOthersWork(doc: Y.Doc): (item: Y.Item) => boolean {
  return (item) =>
    !(item.content instanceof Y.ContentType && holdsOthersWork(item.content.type, doc.clientID));
}

/** Whether `type`, at any depth, holds live content another client inserted. */
function holdsOthersWork(type: Y.AbstractType<unknown>, me: number): boolean {
  for (let item = type._start; item; item = item.right) {
    if (item.deleted) continue;
    if (item.id.client !== me && item.countable) return true;
    if (item.content instanceof Y.ContentType && holdsOthersWork(item.content.type, me)) {
      return true;
    }
  }
  return false;
}
