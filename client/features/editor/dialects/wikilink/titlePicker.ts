import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import type { PickerView } from './titlePickerView.ts';

/** `[[` and what has been typed after it, up to the cursor: a title being looked for. */
const TYPED = /\[\[([^[\]\n|#^]{0,100})$/;

/** Where the picker is open: the `[[…` typed so far. */
export interface Query {
  from: number;
  to: number;
  text: string;
}

interface PickerState {
  query: Query | null;
  /** The start of a `[[` the writer closed the picker at (Escape): it stays closed there. */
  dismissed: number | null;
}

/** The picker's state, read by its list (titlePickerView.ts) too. */
export const key = new PluginKey<PickerState>('wikilinkTitlePicker');

function queryAt(state: EditorState): Query | null {
  const { $from, empty } = state.selection;
  if (!empty || !$from.parent.isTextblock || $from.parent.type.spec.code) return null;
  const before = $from.parent.textBetween(
    Math.max(0, $from.parentOffset - 110),
    $from.parentOffset,
    undefined,
    '\ufffc',
  );
  const match = TYPED.exec(before);
  if (!match) return null;
  return { from: $from.pos - match[0].length, to: $from.pos, text: match[1] ?? '' };
}

/**
 * Typing `[[` offers the writer's document titles as they type; Enter or Tab (or a click) makes
 * the link, Escape closes the list, and `]]` typed in full makes the link as written.
 */
export function titlePickerPlugin(): Plugin<PickerState> {
  let picker: PickerView | null = null;
  return new Plugin<PickerState>({
    key,
    state: {
      init: () => ({ query: null, dismissed: null }),
      apply(tr, value, _old, state) {
        const dismissed =
          tr.getMeta(key) === 'dismiss' ? (value.query?.from ?? null) : value.dismissed;
        const query = queryAt(state);
        if (!query || query.from === dismissed)
          return { query: null, dismissed: query ? dismissed : null };
        return { query, dismissed };
      },
    },
    view(view) {
      let loading = false;
      let destroyed = false;
      return {
        update: () => {
          if (picker) return picker.update();
          if (loading || !key.getState(view.state)?.query) return;
          // The list's code loads at the first `[[`: most writing never opens it.
          loading = true;
          import('./titlePickerView.ts').then(
            ({ PickerView }) => {
              if (destroyed) return;
              picker = new PickerView(view);
              picker.update();
            },
            () => (loading = false),
          );
        },
        destroy: () => {
          destroyed = true;
          picker?.destroy();
          picker = null;
        },
      };
    },
    props: {
      handleKeyDown(view, event) {
        if (!picker?.open) return false;
        switch (event.key) {
          case 'ArrowDown':
            picker.move(1);
            return true;
          case 'ArrowUp':
            picker.move(-1);
            return true;
          case 'Enter':
          case 'Tab':
            picker.choose();
            return true;
          case 'Escape':
            view.dispatch(view.state.tr.setMeta(key, 'dismiss'));
            return true;
          default:
            return false;
        }
      },
    },
  });
}
