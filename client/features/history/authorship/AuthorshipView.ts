import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { AuthorshipResponse } from '../../../../common/api/versions.ts';
import { forEachBlock } from '../../editor/chunks/chunks.ts';

/** Colours of the author palette in history.css; the next author after the last takes the first. */
export const AUTHOR_COLOURS = 8;

/** The class that colours text by author `index` of a response (-1: a writer nobody recorded). */
export const authorClass = (index: number) =>
  `ink-author ink-author--${index < 0 ? 'unknown' : index % AUTHOR_COLOURS}`;

const authorshipKey = new PluginKey<DecorationSet>('inkwellAuthorship');

/**
 * Colours each run of a document's text by the person who wrote it (the server's record,
 * common/api/versions.ts `authorshipResponseSchema`), on the read-only editor that shows it.
 */
export function AuthorshipView(authorship: Pick<AuthorshipResponse, 'authors' | 'runs'>) {
  return Extension.create({
    name: 'inkwellAuthorship',
    addProseMirrorPlugins() {
      return [
        new Plugin<DecorationSet>({
          key: authorshipKey,
          state: {
            init: (_, state) => decorationsOf(state.doc, authorship),
            apply: (tr, value, _old, state) =>
              tr.docChanged ? decorationsOf(state.doc, authorship) : value,
          },
          props: { decorations: (state) => authorshipKey.getState(state) },
        }),
      ];
    },
  });
}

function decorationsOf(
  doc: ProseMirrorNode,
  { authors, runs }: Pick<AuthorshipResponse, 'authors' | 'runs'>,
): DecorationSet {
  const starts: number[] = [];
  forEachBlock(doc, (block, pos, index) => (starts[index] = pos));
  const decorations: Decoration[] = [];
  for (const [block, from, to, author] of runs) {
    const start = starts[block];
    if (start === undefined) continue;
    // Runs count from just inside their block; one past the document (a run the server placed
    // on content this copy lacks) is left out rather than drawn somewhere else.
    const end = Math.min(start + 1 + to, doc.content.size);
    if (start + 1 + from >= end) continue;
    const name = author < 0 ? 'Unknown' : (authors[author]?.name ?? 'Unknown');
    decorations.push(
      Decoration.inline(start + 1 + from, end, {
        class: authorClass(author),
        title: `Written by ${name}`,
      }),
    );
  }
  return DecorationSet.create(doc, decorations);
}
