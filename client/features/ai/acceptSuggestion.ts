import { Slice, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { closeHistory } from '@tiptap/pm/history';
import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { AcceptMode, SuggestionTarget } from './aiTarget.ts';

/**
 * The one transaction that puts an answer (a parsed document) into the text: over the target's
 * range, or as blocks below it. Its own history event, so a single Undo takes it back.
 */
export function acceptTransaction(
  state: EditorState,
  answer: ProseMirrorNode,
  target: SuggestionTarget,
  mode: AcceptMode,
): Transaction {
  const tr = state.tr;
  const replace = mode === 'replace' && target.replaceable;
  const from = replace ? target.from : target.insertAt;
  const to = replace ? target.to : target.insertAt;
  const $from = state.doc.resolve(from);
  const inline =
    replace &&
    answer.childCount === 1 &&
    answer.firstChild?.type.name === 'paragraph' &&
    $from.parent.isTextblock &&
    $from.sameParent(state.doc.resolve(to));
  // One paragraph replacing words joins their line; anything else goes in as whole blocks.
  const slice = inline ? Slice.maxOpen(answer.content) : new Slice(answer.content, 0, 0);
  tr.replaceRange(from, to, slice);
  const end = tr.mapping.map(to, 1);
  tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(end, tr.doc.content.size)), -1));
  return closeHistory(tr).scrollIntoView();
}
