import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The class on the top-level blocks that hold the selection's ends. */
export const ACTIVE_BLOCK_CLASS = 'ink-active-block';

interface ActiveBlocks {
  /** Start positions of the top-level blocks holding the anchor and the head. */
  starts: number[];
  decorations: DecorationSet;
}

/** Start positions of the top-level blocks that hold the selection's anchor and head. */
function activeStarts(state: EditorState): number[] {
  const starts = new Set<number>();
  for (const $pos of [state.selection.$anchor, state.selection.$head]) {
    if ($pos.depth > 0) starts.add($pos.before(1));
    else if ($pos.nodeAfter) starts.add($pos.pos);
  }
  return [...starts].sort((a, b) => a - b);
}

function decorate(doc: ProseMirrorNode, starts: number[]): DecorationSet {
  const decorations = starts.flatMap((start) => {
    const node = doc.nodeAt(start);
    return node
      ? [Decoration.node(start, start + node.nodeSize, { class: ACTIVE_BLOCK_CLASS })]
      : [];
  });
  return DecorationSet.create(doc, decorations);
}

const key = new PluginKey<ActiveBlocks>('inkwellActiveBlock');

/**
 * Marks the top-level blocks that hold the selection, so that CSS can exempt them from
 * `content-visibility: auto`. A block the caret has just entered (a new line after Enter) would
 * otherwise stay unrendered until the next frame, and a key typed before it landed in the wrong
 * place. The set is rebuilt only when the selection moves to another block; typing maps it.
 */
export const ActiveBlock = Extension.create({
  name: 'activeBlock',

  addProseMirrorPlugins() {
    return [
      new Plugin<ActiveBlocks>({
        key,
        state: {
          init: (_config, state) => {
            const starts = activeStarts(state);
            return { starts, decorations: decorate(state.doc, starts) };
          },
          apply: (tr, previous, _old, state) => {
            if (!tr.docChanged && !tr.selectionSet) return previous;
            const starts = activeStarts(state);
            const moved = previous.starts.map((start) => tr.mapping.map(start));
            const same =
              starts.length === moved.length && starts.every((start, i) => start === moved[i]);
            const mapped = same ? previous.decorations.map(tr.mapping, tr.doc) : null;
            // Mapping drops the decoration of a block that was replaced (select all, delete):
            // then it is built again, or the new block would be skipped for a frame.
            const decorations =
              mapped && mapped.find().length === starts.length
                ? mapped
                : decorate(state.doc, starts);
            return { starts, decorations };
          },
        },
        props: {
          decorations: (state) => key.getState(state)?.decorations,
        },
      }),
    ];
  },
});
