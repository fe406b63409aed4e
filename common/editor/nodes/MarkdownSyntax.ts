import { Extension } from '@tiptap/core';
import {
  blanksAttribute,
  INDENTED_TYPES,
  isDelimiterRow,
  isEnd,
  isGap,
  isHeaderSpace,
  isLazyPrefix,
  isListPrefix,
  isMarkerSpace,
  isTrailing,
  SPACED_TYPES,
  isItemNumber,
  isListIndent,
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
      {
        // The number an ordered list's item was written with, which Markdown reads only on the
        // first item (`3.`, `2.`, `1.` counts down in the file, not on the page).
        types: ['listItem'],
        attributes: {
          number: {
            default: null,
            keepOnSplit: false,
            parseHTML: (element: HTMLElement) => {
              const value = Number(element.getAttribute('data-md-number') ?? NaN);
              return isItemNumber(value) ? value : null;
            },
            renderHTML: (attributes: Record<string, unknown>) =>
              isItemNumber(attributes.number) ? { 'data-md-number': attributes.number } : {},
          },
        },
      },
      {
        types: SPACED_TYPES,
        attributes: { gap: blanksAttribute('gap', isGap), end: blanksAttribute('end', isEnd) },
      },
      {
        types: ['paragraph', 'heading', 'callout'],
        attributes: { trailing: blanksAttribute('trailing', isTrailing) },
      },
      {
        types: ['blockquote', 'callout'],
        attributes: { blank: blanksAttribute('blank', isTrailing, true) },
      },
      { types: ['callout'], attributes: { space: blanksAttribute('space', isHeaderSpace, true) } },
      { types: ['heading'], attributes: { space: blanksAttribute('space', isMarkerSpace, true) } },
      {
        types: ['softBreak', 'hardBreak'],
        attributes: { lazy: blanksAttribute('lazy', isLazyPrefix) },
      },
      {
        // A new item made by Enter is written as the one it was split from.
        types: ['listItem', 'taskItem'],
        attributes: {
          space: blanksAttribute('space', isMarkerSpace, true),
          prefix: blanksAttribute('prefix', isListPrefix, true),
        },
      },
      {
        types: INDENTED_TYPES,
        attributes: {
          indent: {
            default: null,
            keepOnSplit: false,
            parseHTML: (element: HTMLElement) => {
              const value = Number(element.getAttribute('data-md-indent') ?? NaN);
              return isListIndent(value) ? value : null;
            },
            renderHTML: (attributes: Record<string, unknown>) =>
              isListIndent(attributes.indent) ? { 'data-md-indent': attributes.indent } : {},
          },
        },
      },
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
