import type { ResolvedPos } from '@tiptap/pm/model';
import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import type * as Y from 'yjs';
import { offsetInBlock, relativeInBlock } from './positions.ts';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';

/*
 * What someone else types at this writer's caret goes after the caret (keptSelection.ts), so that
 * neither writer's letters land among the other's. A split there (Enter) is the exception: it
 * would take the other writer's sentence into this writer's new paragraph, where this writer's
 * next words would go in front of it, and leave the other writer's caret behind (Yjs cannot move
 * text to another paragraph, only write it again there). So the text others inserted at the caret
 * since this writer placed it is noted, and a split at the caret is made after it instead: two
 * writers each starting a paragraph at the end of the document get one each. Done on the split's
 * result rather than on the key, so that a menu that takes Enter (the slash menu, the link title
 * picker) still gets it, and every kind of split (a paragraph, a list item, a heading) is the same.
 */

/** Where the text after this writer's caret began when the caret was placed. */
export class ArrivedText {
  /** The character after the caret when it was placed (or the end of its text), in Yjs. */
  private after: { block: Y.XmlElement; relative: Y.RelativePosition } | null = null;

  constructor(
    private readonly binding: ChunkedYBinding,
    private readonly elementOf: ($pos: ResolvedPos) => Y.XmlElement | null,
  ) {}

  /** The writer placed the caret (or a selection): what follows it is not arrived text. */
  placed(state: EditorState): void {
    this.after = null;
    const { selection } = state;
    if (!selection.empty) return;
    const $head = selection.$head;
    const block = $head.depth >= 2 && $head.parent.inlineContent ? this.elementOf($head) : null;
    if (!block) return;
    this.after = {
      block,
      relative: relativeInBlock(this.binding, block, $head.pos - $head.start(2), 1),
    };
  }

  /** The writer edited: the caret is placed anew unless it is still before the noted character. */
  edited(state: EditorState): void {
    if (this.end(state) === null) this.placed(state);
  }

  /**
   * When `transactions` (this writer's, from `before`, whose document the shared one holds) split
   * the caret's text at the caret and so moved text others typed there into the new block: the
   * transaction that moves it back to the end of the block before, which is then the same as a
   * split after it. The caret stays at the start of the new block.
   */
  splitAfterArrived(
    before: EditorState,
    transactions: readonly Transaction[],
    state: EditorState,
  ): Transaction | null {
    const { selection } = state;
    // A caret at the start of a block, after an edit: before anything else, which costs more.
    if (!selection.empty || selection.$head.parentOffset !== 0) return null;
    if (!transactions.some((tr) => tr.docChanged)) return null;
    const end = this.end(before);
    const at = before.selection.head;
    if (end === null || end <= at) return null;
    const mapping = new Mapping();
    for (const tr of transactions) mapping.appendMapping(tr.mapping);
    const blockEnd = mapping.map(at, -1);
    const start = selection.head;
    if (mapping.map(at, 1) !== start || blockEnd === start) return null;
    const moved = before.doc.slice(at, end).content;
    const size = moved.size;
    if (start + size > selection.$head.end()) return null;
    if (!state.doc.slice(start, start + size).content.eq(moved)) return null;
    const tr = state.tr.delete(start, start + size).insert(blockEnd, moved);
    return tr.setSelection(TextSelection.create(tr.doc, tr.mapping.map(start, 1)));
  }

  /** The noted character's position when it is at or after the caret in the caret's text. */
  private end(state: EditorState): number | null {
    const { selection } = state;
    const after = this.after;
    if (!after || !selection.empty) return null;
    const $head = selection.$head;
    if ($head.depth < 2 || this.elementOf($head) !== after.block) return null;
    const found = offsetInBlock(this.binding, after.relative);
    if (!found || found.block !== after.block) return null;
    const pos = $head.start(2) + found.offset;
    if (pos < $head.pos || pos > $head.end()) return null;
    return pos;
  }
}
