import { PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { ShownSuggestion } from './suggestionPlugin.ts';

/**
 * The key of the suggestion plugin; its state is the suggestion on show, if any. In a module of
 * its own so the bubble menu, in the first download, can ask without loading the assistant.
 */
export const aiSuggestionKey = new PluginKey<ShownSuggestion | null>('aiSuggestion');

/** Whether an AI suggestion is on show in `state`. */
export function isSuggestionShown(state: EditorState): boolean {
  return Boolean(aiSuggestionKey.getState(state));
}

/** Whether `tr` puts a new suggestion on show. */
export function showsSuggestion(tr: Transaction): boolean {
  const meta: unknown = tr.getMeta(aiSuggestionKey);
  return typeof meta === 'object' && meta !== null && 'show' in meta;
}
