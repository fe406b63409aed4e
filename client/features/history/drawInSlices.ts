import type { Editor } from '@tiptap/core';
import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { blocksOf, chunkBlocks } from '../editor/chunks/chunks.ts';
import { rebuildInSchema } from '../editor/rebuildInSchema.ts';

/** Chunks (of about 64 blocks) drawn at once: the first screens of any document. */
const FIRST_CHUNKS = 2;
/**
 * Milliseconds of drawing one task aims at: under the 50 ms of a long task, so a click waits at
 * most about this long. Each drawing has a cost of its own besides its chunks (the editor's
 * plugins look at the new document), so a chunk a task took three times as long in all.
 */
const SLICE_MS = 24;

/** A document being drawn. */
export interface Drawing {
  /** Draws what is left now (to show a change in a part not drawn yet). */
  finish(): void;
  /** Stops drawing (the view is going away). */
  cancel(): void;
}

/**
 * Shows `doc` (shared schema) in the read-only `editor` a part at a time: the first chunks at
 * once, the rest in tasks of a few chunks each, each about {@link SLICE_MS}, so that the page
 * never waits for a long document to be drawn whole (a 1.2 MB document drawn at once held the
 * page for about 400 ms). `onDrawn` is called once all of it is in the page. Like
 * `openIn`: no undo step, no `update`.
 */
export function drawInSlices(editor: Editor, doc: ProseMirrorNode, onDrawn: () => void): Drawing {
  const chunks = chunkBlocks(editor.schema, blocksOf(rebuildInSchema(doc, editor.schema)));
  const part = (from: number, to: number) => {
    const nodes: ProseMirrorNode[] = [];
    for (let i = from; i < to; i++) nodes.push(chunks.child(i));
    return Fragment.fromArray(nodes);
  };
  const dispatch = (from: number, to: number, first: boolean) => {
    const { state, view } = editor;
    const tr = first
      ? state.tr.replaceWith(0, state.doc.content.size, part(from, to))
      : state.tr.insert(state.doc.content.size, part(from, to));
    if (first) tr.setSelection(TextSelection.atStart(tr.doc));
    view.dispatch(tr.setMeta('addToHistory', false).setMeta('preventUpdate', true));
  };
  let drawn = Math.min(FIRST_CHUNKS, chunks.childCount);
  dispatch(0, drawn, true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => {
    timer = undefined;
    onDrawn();
  };
  /** Chunks the next task draws, sized from what the last one cost. */
  let perTask = 1;
  const step = () => {
    if (editor.isDestroyed) return;
    const started = performance.now();
    const to = Math.min(chunks.childCount, drawn + perTask);
    dispatch(drawn, to, false);
    const took = Math.max(performance.now() - started, 1);
    perTask = Math.max(1, Math.min(perTask * 2, Math.floor(((to - drawn) * SLICE_MS) / took)));
    drawn = to;
    if (drawn < chunks.childCount) timer = setTimeout(step);
    else done();
  };
  if (drawn < chunks.childCount) timer = setTimeout(step);
  else queueMicrotask(onDrawn);
  return {
    finish() {
      if (drawn >= chunks.childCount || editor.isDestroyed) return;
      clearTimeout(timer);
      dispatch(drawn, chunks.childCount, false);
      drawn = chunks.childCount;
      done();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
