import { Node, type AnyExtension } from '@tiptap/core';
import { FRONT_MATTER } from '../../../../../common/editor/dialects/frontMatter/FrontMatter.ts';
import { FrontMatterKeymap } from './FrontMatterKeymap.ts';
import { FrontMatterView } from './FrontMatterView.ts';

/**
 * Attaches the Properties panel to the schema's `frontMatter` (common/ has no DOM), and the
 * keymap that keeps Backspace from deleting it.
 */
export function withFrontMatterView(extensions: AnyExtension[]): AnyExtension[] {
  const withView = extensions.map((extension) =>
    extension instanceof Node && extension.name === FRONT_MATTER
      ? extension.extend({
          addNodeView:
            () =>
            ({ node, view, getPos }) =>
              new FrontMatterView(node, view, getPos),
        })
      : extension,
  );
  return [...withView, FrontMatterKeymap];
}
