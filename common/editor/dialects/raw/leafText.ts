import type { Node as PMNode } from '@tiptap/pm/model';

/**
 * Schema fields that give a leaf node its Markdown source as text: ProseMirror's `leafText` (the
 * server's plain text for search and excerpts) for the node named `name` only, as Tiptap calls
 * `extendNodeSchema` of every extension for every node.
 */
export function sourceAsLeafText(name: string, source: (node: PMNode) => string) {
  return (extension: { name: string }) => (extension.name === name ? { leafText: source } : {});
}
