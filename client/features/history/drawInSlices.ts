import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection, type Transaction } from '@tiptap/pm/state';
import { blocksOf, CHUNK, inChunks, MAX_CHUNK } from '../editor/chunks/chunks.ts';
import { rebuildInSchema } from '../editor/rebuildInSchema.ts';

/** Chunks (of about 64 blocks) drawn at once: the first screens of any document. */
const FIRST_CHUNKS = 2;
/**
 * Milliseconds of drawing one task aims at: under the 50 ms of a long task, so a click waits at
 * most about this long. Each drawing has a cost of its own besides its chunks (the editor's
 * plugins look at the new document), so a chunk a task took three times as long in all.
 */
const SLICE_MS = 24;

/** A document being drawn, or drawn. */
export interface Drawing {
  /** Draws what is left now (to show a change in a part not drawn yet). */
  finish(): void;
  /** Stops drawing (the view is going away). */
  cancel(): void;
  /**
   * Shows `doc` instead, as {@link drawInSlices} does. Once all of the document before is drawn,
   * in place: only the chunks whose blocks are not the ones drawn there are drawn again, so a
   * comparison of a long version with the one before redraws the few blocks that changed.
   */
  show(doc: ProseMirrorNode, onDrawn: () => void, prepare?: (tr: Transaction) => void): void;
}

/**
 * Shows `doc` (shared schema) in the read-only `editor` a part at a time: the first chunks at
 * once, the rest in tasks of a few chunks each, each about {@link SLICE_MS}, so that the page
 * never waits for a long document to be drawn whole (a 1.2 MB document drawn at once held the
 * page for about 400 ms). Each block is rebuilt in the editor's schema only as it is drawn
 * (rebuilding all first took a task of its own of about 100 ms), and once: a block drawn again
 * is the node drawn before, which the view keeps as it is. `onDrawn` is called once all of it is
 * in the page; `prepare` adds to the first transaction (the changes a comparison draws). Like
 * `openIn`: no undo step, no `update`.
 */
export function drawInSlices(
  editor: Editor,
  doc: ProseMirrorNode,
  onDrawn: () => void,
  prepare?: (tr: Transaction) => void,
): Drawing {
  const chunkType = editor.schema.nodes[CHUNK];
  if (!chunkType) throw new RangeError('The schema has no chunk node.');
  /** Each shared-schema block drawn, as the editor has it. */
  const built = new WeakMap<ProseMirrorNode, ProseMirrorNode>();
  const inEditor = (block: ProseMirrorNode) => {
    let own = built.get(block);
    if (!own) {
      own = rebuildInSchema(block, editor.schema);
      built.set(block, own);
    }
    return own;
  };
  const chunkOf = (blocks: readonly ProseMirrorNode[]) =>
    chunkType.create(null, blocks.map(inEditor));

  /** The blocks of each chunk of the document shown, drawn or still to draw. */
  let chunks: ProseMirrorNode[][] = [];
  let drawn = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = onDrawn;
  /** Chunks the next task draws, sized from what the last one cost. */
  let perTask = 1;

  const dispatch = (tr: Transaction) =>
    editor.view.dispatch(tr.setMeta('addToHistory', false).setMeta('preventUpdate', true));
  const append = (to: number) => {
    const { state } = editor;
    dispatch(state.tr.insert(state.doc.content.size, chunks.slice(drawn, to).map(chunkOf)));
    drawn = to;
  };
  const finished = () => {
    timer = undefined;
    done();
  };
  const step = () => {
    if (editor.isDestroyed) return;
    const started = performance.now();
    const from = drawn;
    append(Math.min(chunks.length, drawn + perTask));
    const took = Math.max(performance.now() - started, 1);
    perTask = Math.max(1, Math.min(perTask * 2, Math.floor(((drawn - from) * SLICE_MS) / took)));
    if (drawn < chunks.length) timer = setTimeout(step);
    else finished();
  };

  /** Draws `doc` anew: its first chunks now, the rest in tasks. */
  const drawAnew = (next: ProseMirrorNode, prepareFirst?: (tr: Transaction) => void) => {
    chunks = inChunks(blocksOf(next));
    drawn = Math.min(FIRST_CHUNKS, chunks.length);
    perTask = 1;
    const { state } = editor;
    const tr = state.tr.replaceWith(0, state.doc.content.size, chunks.slice(0, drawn).map(chunkOf));
    tr.setSelection(TextSelection.atStart(tr.doc));
    prepareFirst?.(tr);
    dispatch(tr);
    if (drawn < chunks.length) timer = setTimeout(step);
    else queueMicrotask(finished);
  };

  /**
   * Shows `next` over the whole document drawn: each block drawn already stays in its chunk,
   * the other blocks go with the one before them, and only the chunks whose blocks differ are
   * replaced.
   */
  const redraw = (next: ProseMirrorNode, prepareThis?: (tr: Transaction) => void) => {
    const home = new Map<ProseMirrorNode, number>();
    chunks.forEach((blocks, index) =>
      blocks.forEach((block) => home.has(block) || home.set(block, index)),
    );
    const regrouped: ProseMirrorNode[][] = chunks.map(() => []);
    let at = 0;
    for (const block of blocksOf(next)) {
      const index = home.get(block);
      if (index !== undefined && index > at) at = index;
      regrouped[at]!.push(block);
    }
    const { state } = editor;
    const tr = state.tr;
    const starts: number[] = [];
    state.doc.forEach((_chunk, offset) => starts.push(offset));
    const replaced: ProseMirrorNode[][][] = [];
    // From the last chunk back, so the positions of those before still hold.
    for (let index = chunks.length - 1; index >= 0; index--) {
      const blocks = regrouped[index]!;
      const same =
        blocks.length === chunks[index]!.length &&
        blocks.every((block, i) => block === chunks[index]![i]);
      if (same) {
        replaced[index] = [blocks];
        continue;
      }
      // A chunk that took many new blocks is split as one being opened would be.
      const split =
        blocks.length > MAX_CHUNK ? inChunks(blocks) : blocks.length > 0 ? [blocks] : [];
      replaced[index] = split;
      const from = starts[index]!;
      tr.replaceWith(from, from + state.doc.child(index).nodeSize, split.map(chunkOf));
    }
    chunks = replaced.flat();
    drawn = chunks.length;
    if (tr.docChanged) tr.setSelection(TextSelection.atStart(tr.doc));
    prepareThis?.(tr);
    dispatch(tr);
    queueMicrotask(finished);
  };

  drawAnew(doc, prepare);
  return {
    finish() {
      if (drawn >= chunks.length || editor.isDestroyed) return;
      clearTimeout(timer);
      append(chunks.length);
      finished();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
    show(next, onNextDrawn, prepareNext) {
      if (editor.isDestroyed) return;
      clearTimeout(timer);
      timer = undefined;
      done = onNextDrawn;
      if (drawn < chunks.length) drawAnew(next, prepareNext);
      else redraw(next, prepareNext);
    },
  };
}
