import type { AnyExtension } from '@tiptap/core';
import { Node } from '@tiptap/core';
import { HtmlBlockView } from './HtmlBlockView.ts';
import { HtmlInlineView } from './HtmlInlineView.ts';

/**
 * Attaches the rendered node views to the schema's `htmlBlock` and `htmlInline` (which carry no
 * view, as common/ has no DOM), leaving every other extension as it is.
 */
export function withHtmlNodeViews(extensions: AnyExtension[]): AnyExtension[] {
  return extensions.map((extension) => {
    if (!(extension instanceof Node)) return extension;
    if (extension.name === 'htmlBlock') {
      return extension.extend({
        addNodeView:
          () =>
          ({ node }) =>
            new HtmlBlockView(node),
      });
    }
    if (extension.name === 'htmlInline') {
      return extension.extend({
        addNodeView:
          () =>
          ({ node }) =>
            new HtmlInlineView(node),
      });
    }
    return extension;
  });
}
