import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { forEachBlock } from '../../editor/chunks/chunks.ts';
import type { Change, ChangeRange } from './compareDocuments.ts';

interface ComparisonState {
  changes: readonly Change[];
  current: number;
  decorations: DecorationSet;
}

/** What a transaction sets with {@link comparisonKey}'s meta: the changes drawn, the current. */
export interface ComparisonMeta {
  /** The changes of the document the transaction shows; none for a document not compared. */
  changes?: readonly Change[];
  /** The change stepped to; -1 for none. */
  current?: number;
}

/** The plugin's key; a transaction with a {@link ComparisonMeta} meta changes what is drawn. */
export const comparisonKey = new PluginKey<ComparisonState>('inkwellComparison');

const NO_CHANGES: readonly Change[] = [];

/**
 * Draws a comparison's changes (compareDocuments.ts) on the read-only editor that shows the
 * compared document: added text and blocks green, removed ones struck through in red, formatted
 * and moved ones underlined, and the change stepped to outlined. The changes come with the
 * transaction that draws the compared document, so the same editor shows a version and then
 * its comparison, redrawing only what differs (drawInSlices.ts).
 */
export const ComparisonView = Extension.create({
  name: 'inkwellComparison',
  addProseMirrorPlugins() {
    return [
      new Plugin<ComparisonState>({
        key: comparisonKey,
        state: {
          init: () => ({ changes: NO_CHANGES, current: -1, decorations: DecorationSet.empty }),
          apply(tr, value, _old, state) {
            const meta = tr.getMeta(comparisonKey) as ComparisonMeta | undefined;
            if (!meta && (!tr.docChanged || value.changes.length === 0)) return value;
            const changes = meta?.changes ?? value.changes;
            const current = meta?.current ?? (meta?.changes ? -1 : value.current);
            const decorations =
              changes.length === 0
                ? DecorationSet.empty
                : decorationsOf(state.doc, changes, current);
            return { changes, current, decorations };
          },
        },
        props: {
          decorations: (state) => comparisonKey.getState(state)?.decorations,
        },
      }),
    ];
  },
});

/** Where a change's first range starts in `doc`, to scroll to; null when it lies outside. */
export function changeStart(doc: ProseMirrorNode, change: Change): number | null {
  const starts = blockStarts(doc);
  const range = change.ranges[0];
  const start = range ? starts[range.block] : undefined;
  return range === undefined || start === undefined
    ? null
    : Math.min(start + range.from, doc.content.size);
}

function blockStarts(doc: ProseMirrorNode): number[] {
  const starts: number[] = [];
  forEachBlock(doc, (_block, pos, index) => (starts[index] = pos));
  return starts;
}

function decorationsOf(
  doc: ProseMirrorNode,
  changes: readonly Change[],
  current: number,
): DecorationSet {
  const starts = blockStarts(doc);
  const decorations: Decoration[] = [];
  changes.forEach((change, index) => {
    for (const range of change.ranges) {
      const decoration = decorationOf(doc, starts, range, index === current);
      if (decoration) decorations.push(decoration);
    }
  });
  return DecorationSet.create(doc, decorations);
}

function decorationOf(
  doc: ProseMirrorNode,
  starts: readonly number[],
  range: ChangeRange,
  current: boolean,
): Decoration | null {
  const start = starts[range.block];
  if (start === undefined) return null;
  const from = start + range.from;
  const to = Math.min(start + range.to, doc.content.size);
  if (from >= to) return null;
  const className = `ink-diff ink-diff--${range.kind}${current ? ' ink-diff--current' : ''}`;
  // A node range that is not exactly one node (the document changed under it) is drawn as text.
  if (range.node && doc.nodeAt(from)?.nodeSize === to - from) {
    return Decoration.node(from, to, { class: className });
  }
  return Decoration.inline(from, to, { class: className });
}
