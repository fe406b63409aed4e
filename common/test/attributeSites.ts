import type { JSONContent } from '@tiptap/core';
import type { DocumentContent } from '../api/documents.ts';
import { ATTRIBUTE_TYPES } from '../editor/attributeTypes.ts';
import { parseMarkdown } from '../editor/markdown/index.ts';
import { vaultNotes } from '../editor/markdown/test/vaultNotes.ts';

/** One attribute of one node or mark type, in a valid document that holds that type. */
export interface AttributeSite {
  /** The node or mark type. */
  type: string;
  /** The attribute. */
  attribute: string;
  /** The valid document. */
  document: DocumentContent;
  /** A copy of the document with the attribute of its first node or mark of the type set. */
  set: (value: unknown) => DocumentContent;
}

/** The kinds the test vault holds none of: a video, and coloured and underlined text. */
const EXTRA: DocumentContent = {
  type: 'doc',
  content: [
    { type: 'youtube', attrs: { src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' } },
    {
      type: 'paragraph',
      content: [
        {
          type: 'text',
          text: 'red',
          marks: [{ type: 'textStyle', attrs: { color: '#ff0000' } }, { type: 'underline' }],
        },
      ],
    },
  ],
};

/** Values of every JSON kind, led by a list holding a script URL, which once passed the link rule. */
export const ANY_VALUES: readonly unknown[] = [
  ['javascript:alert(1)'],
  { href: 'javascript:alert(1)' },
  7,
  'seven',
  true,
  null,
];

/** The values of {@link ANY_VALUES} that `site`'s attribute does not take. */
export function wrongValues(site: Pick<AttributeSite, 'type' | 'attribute'>): unknown[] {
  const type = ATTRIBUTE_TYPES[site.type]?.[site.attribute];
  if (!type) throw new Error(`${site.type}.${site.attribute} has no type`);
  return ANY_VALUES.filter((value) => !type.accepts(value));
}

/** The first node or mark of `type` in `node`, depth first. */
function find(json: object, type: string): { attrs?: Record<string, unknown> } | null {
  const node = json as JSONContent;
  if (node.type === type) return node;
  for (const mark of node.marks ?? []) if (mark.type === type) return mark;
  for (const child of node.content ?? []) {
    const found = find(child, type);
    if (found) return found;
  }
  return null;
}

/**
 * Every attribute of every node and mark type of the schema (attributeTypes.ts), each in the
 * smallest note of the test vault that holds its type.
 */
export function attributeSites(): AttributeSite[] {
  const documents = [
    ...vaultNotes().map((note) => parseMarkdown(note.text).toJSON() as DocumentContent),
    EXTRA,
  ].sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length);
  const sites: AttributeSite[] = [];
  for (const [type, attributes] of Object.entries(ATTRIBUTE_TYPES)) {
    const names = Object.keys(attributes);
    if (names.length === 0) continue;
    const document = documents.find((doc) => find(doc, type) !== null);
    if (!document) throw new Error(`No test document holds a ${type}.`);
    for (const attribute of names) {
      const set = (value: unknown) => {
        const copy = structuredClone(document);
        const found = find(copy, type)!;
        found.attrs = { ...found.attrs, [attribute]: value };
        return copy;
      };
      sites.push({ type, attribute, document, set });
    }
  }
  return sites;
}
