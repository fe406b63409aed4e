import { Plugin, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { SuggestionTarget } from './aiTarget.ts';
import { aiSuggestionKey } from './suggestionKey.ts';

/** The suggestion on show: its target, kept mapped through every edit, and its element. */
export interface ShownSuggestion {
  /** Distinguishes suggestions, so a new one gets a new widget. */
  id: number;
  /** The target, as positions of the current document. */
  target: SuggestionTarget;
  /** The suggestion box, rendered and updated by its session outside of transactions. */
  dom: HTMLElement;
  /** Called with the Escape key while the suggestion shows; true when it handled the key. */
  onEscape: () => boolean;
}

type Meta = { show: ShownSuggestion } | { clear: number };

/** Shows `suggestion` in the transaction's document, in place of any other. */
export function showSuggestion(tr: Transaction, suggestion: ShownSuggestion): Transaction {
  return tr.setMeta(aiSuggestionKey, { show: suggestion } satisfies Meta);
}

/** Removes the suggestion `id` (and only it: a newer one stays). */
export function clearSuggestion(tr: Transaction, id: number): Transaction {
  return tr.setMeta(aiSuggestionKey, { clear: id } satisfies Meta);
}

/** The suggestion on show in `state`. */
export function shownSuggestion(state: EditorState): ShownSuggestion | null {
  return aiSuggestionKey.getState(state) ?? null;
}

function mapTarget(target: SuggestionTarget, tr: Transaction): SuggestionTarget {
  // The range shrinks rather than swallowing text typed at its edges.
  const from = tr.mapping.map(target.from, 1);
  const to = Math.max(from, tr.mapping.map(target.to, -1));
  return { ...target, from, to, insertAt: tr.mapping.map(target.insertAt, -1) };
}

/**
 * Shows the suggestion as a widget decoration below its target (the document itself never holds
 * it, so other writers, Markdown export and undo history do not see it) and tints the target text.
 * Part of the editor from the start: registering it on first use reconfigured the editor's
 * state, which re-created every plugin's state and redrew a long document as the answer began.
 */
export function aiSuggestionPlugin(): Plugin<ShownSuggestion | null> {
  return new Plugin<ShownSuggestion | null>({
    key: aiSuggestionKey,
    state: {
      init: () => null,
      apply(tr, value) {
        const meta = tr.getMeta(aiSuggestionKey) as Meta | undefined;
        if (meta && 'show' in meta) return meta.show;
        if (meta && value && meta.clear === value.id) return null;
        if (!value || !tr.docChanged) return value;
        return { ...value, target: mapTarget(value.target, tr) };
      },
    },
    props: {
      decorations(state) {
        const shown = aiSuggestionKey.getState(state);
        if (!shown) return DecorationSet.empty;
        const { target, dom, id } = shown;
        const decorations = [
          Decoration.widget(target.insertAt, () => dom, {
            // The same key keeps the same element across transactions: no flicker, no re-render.
            key: `ai-suggestion-${id}`,
            side: 1,
            ignoreSelection: true,
            stopEvent: () => true,
          }),
        ];
        if (target.replaceable && target.to > target.from) {
          decorations.push(Decoration.inline(target.from, target.to, { class: 'ink-ai-target' }));
        }
        return DecorationSet.create(state.doc, decorations);
      },
      handleKeyDown(view, event) {
        if (event.key !== 'Escape') return false;
        return aiSuggestionKey.getState(view.state)?.onEscape() ?? false;
      },
    },
  });
}
