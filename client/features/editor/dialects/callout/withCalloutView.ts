import { Node, type AnyExtension } from '@tiptap/core';
import { CALLOUT } from '../../../../../common/editor/dialects/callout/Callout.ts';
import { CalloutView } from './CalloutView.ts';

/** Attaches the callout's node view to the schema's `callout` (common/ has no DOM). */
export function withCalloutView(extensions: AnyExtension[]): AnyExtension[] {
  return extensions.map((extension) =>
    extension instanceof Node && extension.name === CALLOUT
      ? extension.extend({
          addNodeView:
            () =>
            ({ node, view, getPos }) =>
              new CalloutView(node, view, getPos),
        })
      : extension,
  );
}
