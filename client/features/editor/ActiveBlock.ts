import { Extension, type Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, Selection, TextSelection, type EditorState } from '@tiptap/pm/state';
import { isApplePlatform } from '../../lib/platform.ts';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/**
 * The class on the nodes at depth 1 that hold the selection's ends: in the editor, the chunks
 * (chunks/chunks.ts) that hold the blocks, which carry `content-visibility`.
 */
export const ACTIVE_BLOCK_CLASS = 'ink-active-block';

interface ActiveBlocks {
  /** Start positions of the top-level blocks holding the anchor and the head. */
  starts: number[];
  decorations: DecorationSet;
}

/** Start positions of the nodes at depth 1 (chunks) that hold the selection's anchor and head. */
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
 * Moves the caret to the start or the end of the document (with `extend`, the selection's head).
 * Done here rather than by the browser: the far end of a long document is off-screen and not
 * rendered (`content-visibility`), and Chromium then stops the caret at the edge of the skipped
 * block, so the next key landed at the start of the last paragraph instead of its end.
 */
function moveToEdge(editor: Editor, edge: 'start' | 'end', extend: boolean): boolean {
  const { state, view } = editor;
  const target = edge === 'start' ? Selection.atStart(state.doc) : Selection.atEnd(state.doc);
  const selection = extend ? TextSelection.between(state.selection.$anchor, target.$head) : target;
  view.dispatch(state.tr.setSelection(selection).scrollIntoView());
  return true;
}

/**
 * Marks the chunks that hold the selection, so that CSS can exempt them from
 * `content-visibility: auto`, and moves to the document's start and end itself. A chunk the
 * caret has just entered (one split off a moment ago) would otherwise stay unrendered until the
 * next frame, and a key typed before it landed in the wrong place. The set is rebuilt only when
 * the selection moves to another chunk; typing maps it.
 */
export const ActiveBlock = Extension.create({
  name: 'activeBlock',

  addKeyboardShortcuts() {
    const edge = (to: 'start' | 'end', extend: boolean) => () =>
      moveToEdge(this.editor, to, extend);
    const shortcuts: Record<string, () => boolean> = {
      'Mod-Home': edge('start', false),
      'Mod-End': edge('end', false),
      'Mod-Shift-Home': edge('start', true),
      'Mod-Shift-End': edge('end', true),
    };
    // On Apple platforms ⌘↑ and ⌘↓ are the document's start and end (elsewhere Ctrl+↑/↓ move
    // by paragraph, which the browser does well enough).
    if (isApplePlatform()) {
      Object.assign(shortcuts, {
        'Mod-ArrowUp': edge('start', false),
        'Mod-ArrowDown': edge('end', false),
        'Mod-Shift-ArrowUp': edge('start', true),
        'Mod-Shift-ArrowDown': edge('end', true),
      });
    }
    return shortcuts;
  },

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
