import { Extension, Node, type AnyExtension } from '@tiptap/core';
import { footnotePlugin } from './footnote/footnotePlugin.ts';
import { NodeSelection } from '@tiptap/pm/state';
import { EDIT_MATH_EVENT, MathView } from './math/MathView.ts';
import { mermaidPlugin } from './mermaid/mermaidPlugin.ts';
import { tagSearchPlugin } from './tag/tagSearchPlugin.ts';
import { resolverOf, wikilinkPlugin } from './wikilink/wikilinkPlugin.ts';
import { titlePickerPlugin } from './wikilink/titlePicker.ts';
import { WikilinkView } from './wikilink/WikilinkView.ts';
import './dialects.css';

const MATH_NODES = new Set(['mathInline', 'mathBlock']);

/**
 * Gives the schema's math nodes (which carry no view, as common/ has no DOM) their KaTeX view,
 * and wikilinks theirs.
 */
export function withInlineDialectViews(extensions: AnyExtension[]): AnyExtension[] {
  return extensions.map((extension) => {
    if (!(extension instanceof Node)) return extension;
    if (MATH_NODES.has(extension.name)) {
      return extension.extend({
        addNodeView:
          () =>
          ({ node, editor, getPos }) =>
            new MathView(node, editor, getPos),
      });
    }
    if (extension.name === 'wikilink') {
      return extension.extend({
        addNodeView:
          () =>
          ({ node, editor }) =>
            new WikilinkView(node, resolverOf(editor)),
      });
    }
    return extension;
  });
}

/**
 * Footnote numbers and jumps, tags that search and wikilinks that open when clicked, the titles
 * offered after `[[`, mermaid diagrams.
 */
export const InlineDialectBehaviour = Extension.create({
  name: 'inlineDialectBehaviour',
  addProseMirrorPlugins: () => [
    footnotePlugin(),
    tagSearchPlugin(),
    wikilinkPlugin(),
    titlePickerPlugin(),
    mermaidPlugin(),
  ],

  // Enter on a selected formula opens its source, as a click does.
  addKeyboardShortcuts() {
    return {
      Enter: ({ editor }) => {
        const { selection } = editor.state;
        if (!(selection instanceof NodeSelection) || !MATH_NODES.has(selection.node.type.name)) {
          return false;
        }
        editor.view.nodeDOM(selection.from)?.dispatchEvent(new Event(EDIT_MATH_EVENT));
        return true;
      },
    };
  },
});
