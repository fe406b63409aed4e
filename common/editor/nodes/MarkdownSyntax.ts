import { Extension } from '@tiptap/core';
import {
  isDelimiterRow,
  isReferenceLabel,
  isRowLine,
  JOINABLE_TYPES,
  joinedAttribute,
  lineAttribute,
  syntaxAttribute,
  SYNTAX_PATTERNS,
  type SyntaxType,
} from './sourceSyntax.ts';

/**
 * Adds to the nodes and marks of StarterKit and Inkwell the attributes that remember how a
 * Markdown file wrote them (sourceSyntax.ts). Null, the default, is the export's usual form, so a
 * mark set from the toolbar is written as before (`**` for bold).
 */
export const MarkdownSyntax = Extension.create({
  name: 'markdownSyntax',

  addGlobalAttributes() {
    const types = Object.keys(SYNTAX_PATTERNS) as SyntaxType[];
    return [
      ...types.map((type) => ({ types: [type], attributes: { syntax: syntaxAttribute(type) } })),
      { types: JOINABLE_TYPES, attributes: { joined: joinedAttribute } },
      { types: ['table'], attributes: { delimiter: lineAttribute('delimiter', isDelimiterRow) } },
      { types: ['tableRow'], attributes: { markdown: lineAttribute('markdown', isRowLine) } },
      {
        types: ['link', 'image', 'inlineImage'],
        attributes: {
          reference: {
            default: null,
            parseHTML: (element: HTMLElement) => {
              const value = element.getAttribute('data-md-reference');
              return isReferenceLabel(value) ? value : null;
            },
            renderHTML: (attributes: Record<string, unknown>) =>
              isReferenceLabel(attributes.reference)
                ? { 'data-md-reference': attributes.reference }
                : {},
          },
        },
      },
    ];
  },
});
