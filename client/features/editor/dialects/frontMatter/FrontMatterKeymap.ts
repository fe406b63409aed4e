import { Extension } from '@tiptap/core';
import { FRONT_MATTER } from '../../../../../common/editor/dialects/frontMatter/FrontMatter.ts';

/**
 * Backspace at the start of the first block would delete the front matter above it whole (it
 * is an atom): the panel's own buttons remove properties instead. Runs before the default
 * Backspace, hence the priority.
 */
export const FrontMatterKeymap = Extension.create({
  name: 'frontMatterKeymap',
  priority: 1000,

  addKeyboardShortcuts() {
    return {
      Backspace: ({ editor }) => {
        const { selection, doc } = editor.state;
        const { $from } = selection;
        if (!selection.empty || !$from.parent.isTextblock || $from.parentOffset !== 0) return false;
        return doc.resolve($from.before()).nodeBefore?.type.name === FRONT_MATTER;
      },
    };
  },
});
