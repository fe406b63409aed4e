import type { Attribute } from '@tiptap/core';

/**
 * How a Markdown file wrote a node or mark, where Markdown has several ways to say the same thing
 * (`*` or `_`, `***` or `---`): kept so that a file imported and exported without edits comes
 * back with the same bytes (docs/PRODUCT.md, "Markdown"). Each value is checked against its
 * pattern wherever a document comes in (safeAttrs.ts) and again where it is written.
 */
export const SYNTAX_PATTERNS = {
  bold: /^(?:\*\*|__)$/,
  italic: /^[*_]$/,
  /** A backslash, or the run of blanks before the line's end. */
  hardBreak: /^(?:\\| {2,16})$/,
  /** The opening fence of a code block, and the blanks between it and the info string. */
  codeBlock: /^(?:`{3,32}|~{3,32})[ \t]{0,8}$/,
  /** The whole line of a thematic break, as written. */
  horizontalRule: /^(?:(?:\*[ \t]*){3,32}|(?:-[ \t]*){3,32}|(?:_[ \t]*){3,32})$/,
  /** The character after an ordered list's numbers. */
  orderedList: /^[.)]$/,
  /** The underline of a setext heading (levels 1 and 2). */
  heading: /^(?:={1,64}|-{1,64})$/,
  /** How a link was written: with a reference (three forms) or as an autolink `<url>`. */
  link: /^(?:full|collapsed|shortcut|autolink)$/,
  /** How an image was written: with a reference, in one of three forms. */
  image: /^(?:full|collapsed|shortcut)$/,
  inlineImage: /^(?:full|collapsed|shortcut)$/,
} as const;

/** The node and mark types that remember their syntax in a `syntax` attribute. */
export type SyntaxType = keyof typeof SYNTAX_PATTERNS;

/** True when `value` is a syntax that `type` may remember. */
export function isSyntax(type: SyntaxType, value: unknown): value is string {
  return typeof value === 'string' && SYNTAX_PATTERNS[type].test(value);
}

/**
 * A link reference's label as written (`[text][label]`): at most 999 characters, no unescaped
 * bracket and not only blanks, as CommonMark requires.
 */
export function isReferenceLabel(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 999 &&
    /^(?:[^\\[\]]|\\[\s\S])+$/.test(value) &&
    value.trim() !== ''
  );
}

/**
 * The blocks that remember following the block before them on the next line, with no blank line
 * between (`### Added` then `- item`), in a `joined` attribute.
 */
export const JOINABLE_TYPES = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'taskList',
  'blockquote',
  'codeBlock',
];

/** The `joined` attribute: true, or null (the default) for a blank line before the block. */
export const joinedAttribute: Attribute = {
  default: null,
  // A block made by splitting one in the editor was never written on the line below it.
  keepOnSplit: false,
  parseHTML: (element) => (element.hasAttribute('data-md-joined') ? true : null),
  renderHTML: (attributes) => (attributes.joined === true ? { 'data-md-joined': '' } : {}),
};

/** True for the number an ordered list's item was written with (`3.`), at most nine digits. */
export function isItemNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9;
}

/** True for the blanks a list's markers may be written with beyond its container's: 1 to 3. */
export function isListIndent(value: unknown): value is number {
  return value === 1 || value === 2 || value === 3;
}

/** True for a GFM delimiter row (`|:---|--:|`) and nothing else. */
export function isDelimiterRow(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 4000 &&
    /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/.test(value)
  );
}

/** True for one line of text, as a table row's source is kept. */
export function isRowLine(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 100_000 && !/[\n\r]/.test(value);
}

/**
 * The `syntax` attribute of `type`, kept in the editor's HTML as `data-md-syntax` so that a copy
 * inside the editor keeps it too; a value outside the type's pattern reads as null (the default).
 */
export function syntaxAttribute(type: SyntaxType): Attribute {
  return {
    default: null,
    parseHTML: (element) => {
      const value = element.getAttribute('data-md-syntax');
      return isSyntax(type, value) ? value : null;
    },
    renderHTML: (attributes) =>
      isSyntax(type, attributes.syntax) ? { 'data-md-syntax': attributes.syntax } : {},
  };
}

/** An attribute holding a line of a table as written, in `data-md-<key>` when `valid` accepts it. */
export function lineAttribute(key: string, valid: (value: unknown) => value is string): Attribute {
  const name = `data-md-${key}`;
  return {
    default: null,
    parseHTML: (element) => {
      const value = element.getAttribute(name);
      return valid(value) ? value : null;
    },
    renderHTML: (attributes) => (valid(attributes[key]) ? { [name]: attributes[key] } : {}),
  };
}
