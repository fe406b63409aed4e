import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { blockDepth } from './chunks.ts';

export interface BlockPlaceholderOptions {
  /** The text shown in an empty top-level line holding the cursor ('' for none). */
  placeholder: (props: { node: ProseMirrorNode }) => string;
}

/**
 * The placeholder of the empty top-level line holding the cursor (`is-empty` and
 * `data-placeholder`, as Tiptap's Placeholder with `showOnlyCurrent`, which looks for the line at
 * depth 1 and so would find a chunk). Reads only the cursor's path: nothing per block.
 */
export const BlockPlaceholder = Extension.create<BlockPlaceholderOptions>({
  name: 'blockPlaceholder',

  addOptions() {
    return { placeholder: () => '' };
  },

  addProseMirrorPlugins() {
    const { editor, options } = this;
    return [
      new Plugin({
        key: new PluginKey('inkwellBlockPlaceholder'),
        props: {
          decorations: ({ doc, selection }) => {
            if (!editor.isEditable) return null;
            const { $anchor } = selection;
            const depth = blockDepth($anchor);
            if (depth === 0) return null;
            const node = $anchor.node(depth);
            if (!node.isTextblock || node.content.size > 0) return null;
            const text = options.placeholder({ node });
            if (!text) return null;
            const start = $anchor.before(depth);
            return DecorationSet.create(doc, [
              Decoration.node(start, start + node.nodeSize, {
                class: 'is-empty',
                'data-placeholder': text,
              }),
            ]);
          },
        },
      }),
    ];
  },
});
