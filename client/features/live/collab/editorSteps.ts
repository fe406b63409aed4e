import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Selection, type Transaction } from '@tiptap/pm/state';
import { chunkBlocks } from '../../editor/chunks/chunks.ts';
import { blockStart } from './blockIndex.ts';

/*
 * The editor steps that bring a change of the shared document into the chunked editor
 * document: blocks by index, kept in chunks that are never empty.
 */

/**
 * After an undo or redo, the caret at the end of what changed, as the editor's own undo leaves it,
 * wherever the writer had moved since. (The diff skips untouched chunks by identity.)
 */
export function caretAfterChange(before: ProseMirrorNode, tr: Transaction): void {
  const start = before.content.findDiffStart(tr.doc.content);
  if (start === null) return;
  const end = before.content.findDiffEnd(tr.doc.content);
  const at = Math.min(Math.max(start, end?.b ?? start), tr.doc.content.size);
  tr.setSelection(Selection.near(tr.doc.resolve(at), -1));
}

/** Deletes blocks `index` to `index + count`, whole chunks when they empty one. */
export function deleteBlocks(tr: Transaction, index: number, count: number): void {
  const { doc } = tr;
  const from = blockStart(doc, index);
  const lastStart = blockStart(doc, index + count - 1);
  const last = doc.nodeAt(lastStart);
  if (!last) return;
  const to = lastStart + last.nodeSize;
  const $from = doc.resolve(from);
  const $to = doc.resolve(to);
  // A chunk may not be empty: when the range covers its first to last block, the chunks go.
  if ($from.parentOffset === 0 && $to.parentOffset === $to.parent.content.size) {
    tr.delete(from - 1, to + 1);
  } else {
    tr.delete(from, to);
  }
}

/** Inserts `nodes` before block `index` (at the end for the block count). */
export function insertBlocks(
  tr: Transaction,
  index: number,
  nodes: readonly ProseMirrorNode[],
): void {
  const schema = tr.doc.type.schema;
  if (tr.doc.childCount === 0) {
    const blocks = nodes.length > 0 ? nodes : [schema.nodes.paragraph!.create()];
    tr.insert(0, chunkBlocks(schema, blocks));
    return;
  }
  if (nodes.length === 0) return;
  tr.insert(blockStart(tr.doc, index), Fragment.fromArray(nodes));
}

/**
 * Replaces the block at `pos` by `next`, touching only the range where they differ when they are
 * the same kind of block (as ProseMirror's own reading of a DOM change does), so that the caret
 * and decorations in the rest of the block stay where they were.
 */
export function replaceBlock(
  tr: Transaction,
  pos: number,
  old: ProseMirrorNode,
  next: ProseMirrorNode,
): void {
  if (old.type === next.type && old.sameMarkup(next)) {
    const start = old.content.findDiffStart(next.content);
    if (start === null) return;
    const end = old.content.findDiffEnd(next.content);
    if (end) {
      let { a: endA, b: endB } = end;
      const overlap = start - Math.min(endA, endB);
      if (overlap > 0) {
        endA += overlap;
        endB += overlap;
      }
      tr.replace(pos + 1 + start, pos + 1 + endA, next.slice(start, endB));
      if (tr.doc.nodeAt(pos)?.eq(next)) return;
    }
  }
  const current = tr.doc.nodeAt(pos);
  tr.replaceWith(pos, pos + (current ?? old).nodeSize, next);
}
