import type { Editor } from '@tiptap/core';
import type { Plugin } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import { SlashCommandPluginKey } from './slashKey.ts';
import type { SlashItem } from './slashItems.ts';
import { renderSlashMenu } from './slashMenuView.ts';

// Loaded by SlashCommand.ts on the first `/` (or the first press in the editor): the suggestion
// plugin, floating-ui beneath it, the menu and its items stay out of the editor's first download.

/** The slash menu's suggestion plugin, run by the stand-in of SlashCommand.ts. */
export function createSlashSuggestion(editor: Editor): Plugin {
  return Suggestion<SlashItem, SlashItem>({
    editor,
    pluginKey: SlashCommandPluginKey,
    char: '/',
    allow: ({ editor: e, state, range }) =>
      e.isEditable && !state.doc.resolve(range.from).parent.type.spec.code,
    command: ({ editor: e, range, props }) => props.run({ editor: e, range }),
    render: renderSlashMenu,
  });
}
