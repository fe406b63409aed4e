import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/** Where the footnotes of a document are and how they are numbered. */
export interface FootnoteIndex {
  /** Each label's number, by order of first reference (1, 2, …). */
  numbers: Map<string, number>;
  /** Positions of the references, in document order. */
  refs: Array<{ pos: number; label: string }>;
  /** Position of each label's (first) definition. */
  definitions: Map<string, number>;
  /** Inline footnotes (`^[text]`), numbered in the same sequence. */
  inline: Array<{ pos: number; number: number }>;
}

/** Numbers the footnotes of `doc` by order of first reference, as readers of Markdown expect. */
export function indexFootnotes(doc: ProseMirrorNode): FootnoteIndex {
  const index: FootnoteIndex = { numbers: new Map(), refs: [], definitions: new Map(), inline: [] };
  let next = 1;
  doc.descendants((node, pos) => {
    if (node.type.name === 'footnoteRef') {
      const label = String(node.attrs.label);
      index.refs.push({ pos, label });
      if (!index.numbers.has(label)) index.numbers.set(label, next++);
      return false;
    }
    if (node.type.name === 'inlineFootnote') {
      index.inline.push({ pos, number: next++ });
      return false;
    }
    if (node.type.name === 'footnoteDefinition') {
      const label = String(node.attrs.label);
      if (!index.definitions.has(label)) index.definitions.set(label, pos);
    }
    // Only blocks and lines hold footnotes: text and other leaves need no visit.
    return !node.isLeaf;
  });
  return index;
}
