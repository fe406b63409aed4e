import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import type * as Y from 'yjs';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';
import { offsetInBlock, relativeInBlock } from './positions.ts';

/*
 * This writer's selection across someone else's change. The change reaches the editor as the
 * difference between each changed block before and after, which cannot tell on which side of
 * this writer's caret a letter went when it is the same letter as its neighbour; and ProseMirror
 * maps a caret to after what is inserted at it. Both would put the next letter typed among the
 * other writer's. So each end of the selection is kept, before the change, as a Yjs relative
 * position with the character beside it, and read back after it: a caret stays after the last
 * letter before it (what others insert at it goes after it, never between this writer's
 * letters), and a range keeps what is inserted at either edge out of it.
 */

interface KeptEnd {
  /** In the document before the change. */
  pos: number;
  /** -1: what is inserted at `pos` goes after it; 1: before it. */
  assoc: -1 | 1;
  /** The top-level block it is in, and where in it: null between blocks. */
  block: Y.XmlElement | null;
  relative: Y.RelativePosition | null;
}

/** The selection of a document, kept in the shared document (see {@link keepSelection}). */
export interface KeptSelection {
  doc: ProseMirrorNode;
  anchor: KeptEnd;
  head: KeptEnd;
}

/**
 * The text selection of `state`, kept in the shared document before a change arrives; `elementOf`
 * gives the top-level element of a block. Null for other selections (a node, all, table cells),
 * which ProseMirror's mapping keeps well enough.
 */
export function keepSelection(
  binding: ChunkedYBinding,
  state: EditorState,
  elementOf: ($pos: ResolvedPos) => Y.XmlElement | null,
): KeptSelection | null {
  const { selection, doc } = state;
  if (!(selection instanceof TextSelection)) return null;
  const end = (pos: number, assoc: -1 | 1): KeptEnd => {
    const $pos = doc.resolve(pos);
    const block = $pos.depth >= 2 ? elementOf($pos) : null;
    const relative = block ? relativeInBlock(binding, block, pos - $pos.start(2), assoc) : null;
    return { pos, assoc, block, relative };
  };
  const { anchor, head } = selection;
  if (anchor === head) {
    const caret = end(head, -1);
    return { doc, anchor: caret, head: caret };
  }
  return {
    doc,
    anchor: end(anchor, anchor < head ? 1 : -1),
    head: end(head, head < anchor ? 1 : -1),
  };
}

/**
 * Sets the selection of `tr` (the change as the editor applies it) from `kept`: read from the
 * shared document in the blocks the change rewrote (`rewritten`: element to its position in
 * `tr.doc`), mapped elsewhere, where nothing was inserted at it.
 */
export function restoreSelection(
  binding: ChunkedYBinding,
  tr: Transaction,
  kept: KeptSelection,
  rewritten: ReadonlyMap<unknown, number>,
): void {
  if (tr.before !== kept.doc) return;
  const place = (end: KeptEnd): number => {
    const mapped = tr.mapping.map(end.pos, end.assoc);
    const at = end.block ? rewritten.get(end.block) : undefined;
    if (at === undefined || !end.relative) return mapped;
    const found = offsetInBlock(binding, end.relative);
    const node = tr.doc.nodeAt(at);
    if (!found || found.block !== end.block || !node || found.offset > node.content.size) {
      return mapped;
    }
    return at + 1 + found.offset;
  };
  const anchor = place(kept.anchor);
  const head = kept.head === kept.anchor ? anchor : place(kept.head);
  const selection = TextSelection.between(tr.doc.resolve(anchor), tr.doc.resolve(head));
  if (!selection.eq(tr.selection)) tr.setSelection(selection);
}
