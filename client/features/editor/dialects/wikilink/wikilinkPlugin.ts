import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { NodeSelection, Plugin, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import {
  headingOf,
  wikilinkParts,
} from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import { titleKey } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { matchRoute } from '../../../../app/router.ts';
import { LinkResolver } from './LinkResolver.ts';
import { onHeadingRequest, requestOpen, takePendingHeading } from './openRequest.ts';
import { resolveLinks } from './wikilinksApi.ts';

const resolvers = new WeakMap<Editor, LinkResolver>();

/** The resolver of `editor`'s wikilinks, made on first use: one per opened document. */
export function resolverOf(editor: Editor): LinkResolver {
  let resolver = resolvers.get(editor);
  if (!resolver) {
    resolver = new LinkResolver(resolveLinks);
    resolvers.set(editor, resolver);
  }
  return resolver;
}

/** The position of the first heading whose text is `heading` (regardless of case), or null. */
function headingPosition(doc: ProseMirrorNode, heading: string): number | null {
  const key = titleKey(heading);
  let found: number | null = null;
  doc.descendants((node, pos) => {
    if (found !== null) return false;
    if (node.type.name === 'heading' && titleKey(node.textContent) === key) found = pos;
    return node.isBlock && !node.isTextblock;
  });
  return found;
}

/** Puts the caret in `heading` and brings it into view; false when there is no such heading. */
function showHeading(view: EditorView, heading: string): boolean {
  const pos = headingPosition(view.state.doc, heading);
  if (pos === null) return false;
  const selection = TextSelection.near(view.state.doc.resolve(pos + 1));
  view.dispatch(view.state.tr.setSelection(selection).scrollIntoView());
  view.focus();
  return true;
}

/** Opens what a wikilink points at: a heading here, or (through the page) another document. */
function open(view: EditorView, node: ProseMirrorNode): void {
  const parts = wikilinkParts(node.attrs);
  const heading = headingOf(parts.fragment);
  if (parts.target.trim() === '' && heading !== null) showHeading(view, heading);
  else requestOpen(parts);
}

/**
 * A click on a wikilink (or Enter on a selected one) opens its target; a document opened by a
 * link with a heading scrolls to it once its content is in.
 */
export const wikilinkPlugin = () =>
  new Plugin({
    props: {
      handleClickOn(view, _pos, node) {
        if (node.type.name !== 'wikilink') return false;
        // An embed showing its image is selected by a click, as an image is.
        if (node.attrs.src) return false;
        open(view, node);
        return true;
      },
      handleKeyDown(view, event) {
        const { selection } = view.state;
        if (event.key !== 'Enter' || !(selection instanceof NodeSelection)) return false;
        if (selection.node.type.name !== 'wikilink') return false;
        open(view, selection.node);
        return true;
      },
    },
    view(view) {
      const route = matchRoute(window.location.pathname);
      // The read-only editor that shows the saved copy while the shared document connects leaves
      // the heading to the editor that follows it (see live/persistence/useLiveDocument.ts).
      const heading =
        route.name === 'document' && view.editable ? takePendingHeading(route.id) : null;
      let waiting = heading;
      const tryShow = () => {
        if (waiting !== null && showHeading(view, waiting)) waiting = null;
      };
      // The document is opened into the editor after the view exists.
      setTimeout(tryShow, 0);
      const stop = onHeadingRequest((wanted) => showHeading(view, wanted));
      return {
        update: (_view, previous) => {
          if (waiting !== null && previous.doc !== view.state.doc) tryShow();
        },
        destroy: stop,
      };
    },
  });
