import { Extension, type Editor } from '@tiptap/core';
import type { AiCommandRequest } from './aiTarget.ts';
import { aiSuggestionPlugin } from './suggestionPlugin.ts';

// This module and the small suggestion plugin are in the editor's first download: everything else
// of the assistant loads on first use through the dynamic imports below.

/** Where focus goes when the AI menu opens. */
export type AiMenuFocus = 'ask' | 'commands';

/** Opens the AI menu (commands and the "Ask AI" field) at the selection. */
export function openAiMenu(editor: Editor, focus: AiMenuFocus = 'ask'): void {
  // A failed chunk load (offline) leaves the menu shut; the next press tries again.
  import('./openAiMenuLayer.tsx').then(
    (module) => module.openAiMenuLayer(editor, focus),
    () => undefined,
  );
}

/** Runs an AI command at once, e.g. "Continue writing" from the slash menu. */
export function startAiCommand(editor: Editor, command: AiCommandRequest): void {
  import('./runAiCommand.ts').then(
    (module) => module.runAiCommand(editor, command),
    () => undefined,
  );
}

/** Binds Mod+J to the AI menu, and shows the assistant's suggestions beside their text. */
export const AiAssistant = Extension.create({
  name: 'aiAssistant',

  addProseMirrorPlugins() {
    return [aiSuggestionPlugin()];
  },

  addKeyboardShortcuts() {
    return {
      'Mod-j': () => {
        if (!this.editor.isEditable) return false;
        openAiMenu(this.editor);
        return true;
      },
    };
  },
});
