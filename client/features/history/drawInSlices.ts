import type { Editor } from '@tiptap/core';
import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { blocksOf, chunkBlocks } from '../editor/chunks/chunks.ts';
import { rebuildInSchema } from '../editor/rebuildInSchema.ts';

/** Chunks (of about 64 blocks) drawn at once: the first screens of any document. */
const FIRST_CHUNKS = 2;
/** Milliseconds of a frame given to drawing more chunks, leaving the rest to the page. */
const FRAME_BUDGET_MS = 8;

/** A document being drawn. */
export interface Drawing {
  /** Draws what is left now (to show a change in a part not drawn yet). */
  finish(): void;
  /** Stops drawing (the view is going away). */
  cancel(): void;
}

/**
 * Shows `doc` (shared schema) in the read-only `editor` a part at a time: the first chunks at
 * once, the rest a few chunks a frame, each frame's drawing kept within a budget, so that no
 * frame of the page waits for a long document to be drawn whole (a 1.2 MB document drawn at once
 * held the page for about 400 ms). `onDrawn` is called once all of it is in the page. Like
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
  let frame = 0;
  const done = () => {
    frame = 0;
    onDrawn();
  };
  const step = () => {
    if (editor.isDestroyed) return;
    const started = performance.now();
    while (drawn < chunks.childCount && performance.now() - started < FRAME_BUDGET_MS) {
      dispatch(drawn, drawn + 1, false);
      drawn += 1;
    }
    if (drawn < chunks.childCount) frame = requestAnimationFrame(step);
    else done();
  };
  if (drawn < chunks.childCount) frame = requestAnimationFrame(step);
  else queueMicrotask(onDrawn);
  return {
    finish() {
      if (drawn >= chunks.childCount || editor.isDestroyed) return;
      cancelAnimationFrame(frame);
      dispatch(drawn, chunks.childCount, false);
      drawn = chunks.childCount;
      done();
    },
    cancel() {
      cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
