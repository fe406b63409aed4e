import type { MarkdownIt } from 'markdown-it';
import type { Node as PMNode } from '@tiptap/pm/model';
import { createMarkdownIt } from './markdownIt.ts';

/** Where a link reference definition points. */
export interface Definition {
  href: string;
  title: string;
}

let md: MarkdownIt | undefined;

/**
 * The definitions that a block of link reference definitions holds, by normalised label; null
 * when its Markdown is anything else as well, so that it cannot be written back verbatim. Each
 * URL has passed the link rule, or markdown-it would not have read it as a definition.
 */
export function readDefinitions(markdown: string): Map<string, Definition> | null {
  md ??= createMarkdownIt();
  const env: { references?: Record<string, Definition> } = {};
  const tokens = md.parse(markdown, env);
  if (tokens.length > 0 || !env.references) return null;
  return new Map(Object.entries(env.references));
}

/** Every definition of a document, the first of a label winning as in CommonMark. */
export function documentDefinitions(doc: PMNode): Map<string, Definition> {
  const all = new Map<string, Definition>();
  doc.descendants((node) => {
    if (node.type.name !== 'linkDefinitions') return !node.isTextblock;
    for (const [label, definition] of readDefinitions(String(node.attrs.markdown)) ?? []) {
      if (!all.has(label)) all.set(label, definition);
    }
    return false;
  });
  return all;
}

/** A reference label as CommonMark compares them (case folded, runs of blanks as one space). */
export function normaliseLabel(label: string): string {
  md ??= createMarkdownIt();
  return md.utils.normalizeReference(label);
}
