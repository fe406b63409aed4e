import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import { simpleDiffString, simpleDiffStringWithCursor } from 'lib0/diff';
import * as Y from 'yjs';

/*
 * y-tiptap's writer finds what changed in a text by its longest common start, then end: a letter
 * typed in front of the same letter (an "o" typed just before another writer's "one") is taken
 * for one typed after it. The text reads the same, but in the shared document this writer's
 * letter now sits among the other writer's, whose next letters then land on either side of it.
 * Here the change is written where the writer's caret says it was, before y-tiptap's writer
 * (which then finds the text equal and leaves it, or only sets its marks).
 */

/**
 * Writes the change of the text that holds `offset` (from the start of `node`'s content; the
 * left edge of this writer's edit) into `y`, the element `node` is written to, at that offset.
 * Does nothing unless the block's structure down to that text is the same on both sides.
 */
export function writeTextAtCaret(y: Y.XmlElement, node: ProseMirrorNode, offset: number): void {
  let element = y;
  let parent = node;
  let at = offset;
  // Down to the textblock that holds the offset, through elements that match one for one.
  while (!parent.inlineContent) {
    if (element.length !== parent.childCount) return;
    let start = 0;
    let index = 0;
    for (; index < parent.childCount; index++) {
      const end = start + parent.child(index).nodeSize;
      if (at > start && at < end) break;
      start = end;
    }
    const child = index < parent.childCount ? parent.child(index) : null;
    const next = child ? element.get(index) : null;
    if (!child || !(next instanceof Y.XmlElement) || next.nodeName !== child.type.name) return;
    element = next;
    parent = child;
    at -= start + 1;
  }
  // The textblock's children as y-tiptap writes them: each run of text nodes one Y.XmlText.
  const runs: { index: number; start: number; text: string }[] = [];
  let count = 0;
  let start = 0;
  let afterText = false;
  parent.forEach((child) => {
    const last = runs[runs.length - 1];
    if (child.isText && afterText && last) last.text += child.text ?? '';
    else {
      if (child.isText) runs.push({ index: count, start, text: child.text ?? '' });
      count++;
    }
    afterText = child.isText;
    start += child.nodeSize;
  });
  if (element.length !== count) return;
  const run = runs.find((r) => at >= r.start && at <= r.start + r.text.length);
  const text = run ? element.get(run.index) : null;
  if (!run || !(text instanceof Y.XmlText)) return;
  let before = '';
  for (const { insert } of text.toDelta() as { insert: unknown }[]) {
    // Anything but text in it: not a text y-tiptap wrote, left to y-tiptap.
    if (typeof insert !== 'string') return;
    before += insert;
  }
  const plain = simpleDiffString(before, run.text);
  const atCaret = simpleDiffStringWithCursor(before, run.text, at - run.start);
  if (plain.index === atCaret.index) return;
  text.delete(atCaret.index, atCaret.remove);
  // Marked as the text before it is; y-tiptap's writer then sets the marks the editor gave it.
  text.insert(atCaret.index, atCaret.insert);
}

/**
 * Where a local edit began: the left edge of the selection before or after it (a letter typed
 * begins where the caret was, Backspace where it is now), as a top-level block and an offset in
 * its content; null outside blocks.
 */
export function editStart(
  state: EditorState,
  previous: EditorState | undefined,
): { block: ProseMirrorNode; offset: number } | null {
  const from = Math.min(state.selection.from, previous?.selection.from ?? state.selection.from);
  const $from = state.doc.resolve(Math.min(from, state.doc.content.size));
  return $from.depth >= 2 ? { block: $from.node(2), offset: from - $from.start(2) } : null;
}
