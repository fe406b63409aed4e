import { Extension, type CommandProps } from '@tiptap/core';

/** What a keyboard shortcut asks of the mounted bubble menu. */
export type MenuRequest = 'link' | 'focus';

/** Answers a request after the shortcut's transaction; true when it acted on it, so later handlers are not asked. */
export type MenuRequestHandler = (request: MenuRequest) => boolean;

/** Storage of {@link MenuShortcuts}. */
export interface MenuShortcutsStorage {
  /** The handlers of the mounted menus, asked in order. */
  handlers: Set<MenuRequestHandler>;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    menuShortcuts: {
      /** Opens the link popover on the selection or the link under the cursor (Mod+K). */
      openLinkEditor: () => ReturnType;
      /** Moves focus from the text into the bubble menu's toolbar (Alt+F10). */
      focusBubbleMenu: () => ReturnType;
    };
  }

  interface Storage {
    menuShortcuts: MenuShortcutsStorage;
  }
}

/** Binds Mod+K (link popover) and Alt+F10 (focus the toolbar) to the bubble menu. */
export const MenuShortcuts = Extension.create<Record<string, never>, MenuShortcutsStorage>({
  name: 'menuShortcuts',

  addStorage() {
    return { handlers: new Set() };
  },

  addCommands() {
    const request =
      (kind: MenuRequest) =>
      ({ editor, dispatch }: CommandProps) => {
        const { handlers } = this.storage;
        if (!editor.isEditable || handlers.size === 0) return false;
        // Handlers dispatch transactions of their own (selecting the link, showing the menu):
        // run them once this command's transaction is applied, or it would undo their changes.
        if (dispatch) queueMicrotask(() => [...handlers].some((handler) => handler(kind)));
        return true;
      };
    return {
      openLinkEditor: () => request('link'),
      focusBubbleMenu: () => request('focus'),
    };
  },

  addKeyboardShortcuts() {
    return {
      'Mod-k': () => this.editor.commands.openLinkEditor(),
      'Alt-F10': () => this.editor.commands.focusBubbleMenu(),
    };
  },
});
