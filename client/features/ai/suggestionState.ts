/** Where one answer of the assistant stands. */
export type VariantStatus = 'streaming' | 'done' | 'stopped' | 'error';

/** One answer; Retry adds another and keeps the earlier ones to flip back to. */
export interface Variant {
  /** The Markdown received so far. */
  markdown: string;
  /** Streaming until done, stopped by the writer, or failed. */
  status: VariantStatus;
  /** The sentence to show when the status is `error`. */
  error: string | null;
  /** True when the output cap cut the answer short. */
  truncated: boolean;
}

/** Every answer of one suggestion and the one on show. */
export interface SuggestionState {
  /** Oldest first; only the last one can be streaming. */
  variants: readonly Variant[];
  /** The index of the variant on show. */
  index: number;
}

/** What can happen to a suggestion. Stream events apply to the last variant. */
export type SuggestionAction =
  | { type: 'delta'; text: string }
  | { type: 'done'; truncated: boolean }
  | { type: 'error'; message: string }
  /** The answer on show cannot go into the document (it nests too deeply): why. */
  | { type: 'refuse'; message: string }
  | { type: 'stop' }
  | { type: 'retry' }
  | { type: 'show'; index: number };

const streaming = (): Variant => ({
  markdown: '',
  status: 'streaming',
  error: null,
  truncated: false,
});

/** A suggestion whose first answer is starting to stream. */
export function initialSuggestion(): SuggestionState {
  return { variants: [streaming()], index: 0 };
}

/** The variant on show. */
export function shownVariant(state: SuggestionState): Variant {
  const variant = state.variants[state.index];
  if (!variant) throw new Error(`No variant ${state.index} of ${state.variants.length}`);
  return variant;
}

/** True while an answer is still coming in. */
export function isStreaming(state: SuggestionState): boolean {
  return state.variants.at(-1)?.status === 'streaming';
}

/** True when the variant on show may go into the document: complete (or stopped) and not empty. */
export function canAccept(state: SuggestionState): boolean {
  const variant = shownVariant(state);
  return (
    (variant.status === 'done' || variant.status === 'stopped') && variant.markdown.trim() !== ''
  );
}

function updateLast(
  state: SuggestionState,
  change: (variant: Variant) => Variant,
): SuggestionState {
  const last = state.variants.at(-1);
  // Events of an answer that was stopped, or that already ended, change nothing.
  if (!last || last.status !== 'streaming') return state;
  return { ...state, variants: [...state.variants.slice(0, -1), change(last)] };
}

/** The state after `action`; actions that do not apply (Retry while streaming) change nothing. */
export function suggestionReducer(
  state: SuggestionState,
  action: SuggestionAction,
): SuggestionState {
  switch (action.type) {
    case 'delta':
      return updateLast(state, (v) => ({ ...v, markdown: v.markdown + action.text }));
    case 'done':
      return updateLast(state, (v) => ({ ...v, status: 'done', truncated: action.truncated }));
    case 'error':
      return updateLast(state, (v) => ({ ...v, status: 'error', error: action.message }));
    case 'refuse': {
      if (!canAccept(state)) return state;
      const variants = [...state.variants];
      variants[state.index] = { ...shownVariant(state), status: 'error', error: action.message };
      return { ...state, variants };
    }
    case 'stop':
      return updateLast(state, (v) => ({ ...v, status: 'stopped' }));
    case 'retry': {
      if (isStreaming(state)) return state;
      const variants = [...state.variants, streaming()];
      return { variants, index: variants.length - 1 };
    }
    case 'show':
      if (isStreaming(state) || action.index < 0 || action.index >= state.variants.length) {
        return state;
      }
      return { ...state, index: action.index };
  }
}
