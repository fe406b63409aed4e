import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { forEachBlock } from '../../editor/chunks/chunks.ts';
import type { Change, ChangeRange } from './compareDocuments.ts';

interface ComparisonState {
  current: number;
  decorations: DecorationSet;
}

/** The plugin's key; a transaction with this meta (a change's index) makes it the current one. */
export const comparisonKey = new PluginKey<ComparisonState>('inkwellComparison');

/**
 * Draws a comparison's changes (compareDocuments.ts) on the read-only editor that shows the
 * compared document: added text and blocks green, removed ones struck through in red, formatted
 * and moved ones underlined, and the change stepped to outlined.
 */
export function ComparisonView(changes: readonly Change[]) {
  return Extension.create({
    name: 'inkwellComparison',
    addProseMirrorPlugins() {
      return [
        new Plugin<ComparisonState>({
          key: comparisonKey,
          state: {
            init: (_, state) => ({
              current: -1,
              decorations: decorationsOf(state.doc, changes, -1),
            }),
            apply(tr, value, _old, state) {
              const current = tr.getMeta(comparisonKey) as number | undefined;
              if (current === undefined && !tr.docChanged) return value;
              const next = current ?? value.current;
              return { current: next, decorations: decorationsOf(state.doc, changes, next) };
            },
          },
          props: {
            decorations: (state) => comparisonKey.getState(state)?.decorations,
          },
        }),
      ];
    },
  });
}

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
