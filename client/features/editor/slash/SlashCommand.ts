import { Extension, type Editor } from '@tiptap/core';
import { Plugin, type EditorState, type PluginView } from '@tiptap/pm/state';
import { SlashCommandPluginKey } from './slashKey.ts';

export { SlashCommandPluginKey } from './slashKey.ts';

/** Keys the menu answers: while its code loads after a `/` they are held, not typed. */
const MENU_KEYS = new Set(['ArrowUp', 'ArrowDown', 'Enter', 'Tab']);

/** Whether the transaction just typed a `/` before the cursor. */
function typedSlash(state: EditorState): boolean {
  const { from, empty } = state.selection;
  return empty && from > 0 && state.doc.textBetween(from - 1, from, '\n', '\n') === '/';
}

/**
 * A stand-in for the suggestion plugin under the same key, so that the editor starts with its
 * final set of plugins (adding one later would recreate every plugin view): it loads the real
 * plugin on the first press in the editor or the first `/`, and from then on hands it its state,
 * view, keys and decorations. Until then it has no state, which the suggestion plugin's view
 * reads as "nothing to show".
 */
function lazySlashPlugin(editor: Editor): Plugin {
  let real: Plugin | null = null;
  let loading: Promise<void> | null = null;
  let slashTyped = false;
  let inner: PluginView | null = null;
  let current = { alive: false };

  const load = () => {
    loading ??= import('./slashSuggestion.ts').then(
      ({ createSlashSuggestion }) => {
        real = createSlashSuggestion(editor);
        if (editor.isDestroyed) return;
        const { view } = editor;
        // The first transaction gives the plugin its initial state, the second lets it find a
        // `/` typed in the meantime and open the menu, as it would have on that keystroke.
        view.dispatch(view.state.tr.setMeta(SlashCommandPluginKey, { loaded: true }));
        view.dispatch(view.state.tr.setMeta(SlashCommandPluginKey, { loaded: true }));
      },
      () => {
        // Offline or a new deploy: try again at the next `/`.
        loading = null;
      },
    );
  };

  return new Plugin({
    key: SlashCommandPluginKey,
    state: {
      init: () => null,
      apply(tr, value: unknown, oldState, newState): unknown {
        if (!real?.spec.state) {
          if (tr.docChanged && typedSlash(newState)) {
            slashTyped = true;
            load();
          }
          return null;
        }
        if (value === null)
          return real.spec.state.init.call(real, { schema: newState.schema }, newState);
        return real.spec.state.apply.call(real, tr, value, oldState, newState);
      },
    },
    // One view of the real plugin for the editor's life: ProseMirror recreates plugin views when
    // plugins are added (the bubble menus, on the first selection), which would close an open
    // slash menu. It is destroyed only when no new view follows at once: the editor went away.
    view: () => {
      const self = { alive: true };
      current = self;
      return {
        update(view, prevState) {
          if (!real?.spec.view) return;
          inner ??= real.spec.view(view);
          inner.update?.(view, prevState);
        },
        destroy() {
          self.alive = false;
          queueMicrotask(() => {
            if (current.alive) return;
            inner?.destroy?.();
            inner = null;
          });
        },
      };
    },
    props: {
      handleKeyDown(view, event) {
        if (real) return real.props.handleKeyDown?.call(real, view, event) ?? false;
        load();
        return slashTyped && MENU_KEYS.has(event.key);
      },
      decorations(state) {
        return real?.props.decorations?.call(real, state);
      },
      handleDOMEvents: {
        pointerdown: () => {
          load();
          return false;
        },
      },
    },
  });
}

/**
 * Typing `/` at the start of a line or after a space opens a filterable menu of every block:
 * text, headings, lists, quote, code (with a language), table, divider, image and YouTube video.
 */
export const SlashCommand = Extension.create({
  name: 'slashCommand',

  addProseMirrorPlugins() {
    return [lazySlashPlugin(this.editor)];
  },
});
