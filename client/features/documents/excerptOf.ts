import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/** Characters of text a list row shows under its title, as the server cuts them. */
const EXCERPT_CHARS = 160;
/** Document positions read for an excerpt: plenty for 160 characters of most documents. */
const READ_POSITIONS = 4000;

/**
 * The excerpt the server will derive from `doc`, computed here to update the open document's
 * row after a save without fetching the list: the first 160 characters of its text, blocks
 * separated and whitespace collapsed. Reads only the start of the document.
 */
export function excerptOf(doc: ProseMirrorNode): string {
  const end = Math.min(doc.content.size, READ_POSITIONS);
  // A leaf with text of its own (a #tag, math) gives it, as on the server.
  const leaf = (node: ProseMirrorNode) => node.type.spec.leafText?.(node) ?? ' ';
  const text = doc.textBetween(0, end, '\n', leaf).replace(/\s+/g, ' ');
  // Cut by code points, as PostgreSQL's left() counts characters.
  return Array.from(text).slice(0, EXCERPT_CHARS).join('').trim();
}

/**
 * Whether `a` and `b` hold the very same nodes where {@link excerptOf} reads, so that its
 * excerpt is the same: after a keystroke further down, a comparison of one or two nodes instead
 * of reading the text again (ProseMirror keeps the nodes a change did not touch).
 */
export function sameExcerpt(a: ProseMirrorNode, b: ProseMirrorNode): boolean {
  let offset = 0;
  for (let index = 0; offset < READ_POSITIONS; index++) {
    if (index >= a.childCount || index >= b.childCount) return a.childCount === b.childCount;
    const child = a.child(index);
    if (child !== b.child(index)) return false;
    offset += child.nodeSize;
  }
  return true;
}
