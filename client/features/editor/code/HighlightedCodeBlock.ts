import { CodeBlock } from '../../../../common/editor/nodes/CodeBlock.ts';
import { CodeBlockView } from './CodeBlockView.ts';
import { codeHighlightPlugin } from './highlightPlugin.ts';

/**
 * The schema's code block with syntax highlighting and a language picker; same name and
 * attributes, so documents and Markdown are unchanged.
 */
export const HighlightedCodeBlock = CodeBlock.extend({
  addProseMirrorPlugins() {
    return [...(this.parent?.() ?? []), codeHighlightPlugin(this.type)];
  },

  addNodeView() {
    return ({ node, view, getPos }) => new CodeBlockView(node, view, getPos);
  },
});
