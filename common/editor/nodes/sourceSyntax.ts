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
  /**
   * A backslash, or the run of blanks before the line's end; then, after a newline, the blanks
   * that the next line starts with beyond its container's.
   */
  hardBreak: /^(?:\\| {2,16})(?:\n[ \t]{1,256})?$/,
  /**
   * A line break inside a paragraph: the one blank before it (two would make a hard break), a
   * newline, and the blanks that the next line starts with beyond its container's.
   */
  softBreak: /^ ?\n[ \t]{0,256}$/,
  /** The opening fence of a code block, and the blanks between it and the info string. */
  codeBlock: /^(?:`{3,32}|~{3,32})[ \t]{0,8}$/,
  /** The whole line of a thematic break, as written, with the blanks at its end. */
  horizontalRule: /^(?:(?:\*[ \t]*){3,32}|(?:-[ \t]*){3,32}|(?:_[ \t]*){3,32})$/,
  /** The character after an ordered list's numbers. */
  orderedList: /^[.)]$/,
  /** The underline of a setext heading (levels 1 and 2), and the blanks after it. */
  heading: /^(?:={1,64}|-{1,64})[ \t]{0,16}$/,
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
 * The blocks that remember how they were parted from the block before them: on the next line,
 * with no blank line between (`### Added` then `- item`), in a `joined` attribute; by other blank
 * lines than one empty line, in `gap`; and, as the last block of a quote or of the document, the
 * lines after them, in `end`. Every block a container holds, and the items of a list.
 */
export const JOINABLE_TYPES = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'taskList',
  'blockquote',
  'callout',
  'codeBlock',
  'listItem',
  'taskItem',
  'horizontalRule',
  'linkDefinitions',
  'image',
  'youtube',
  'htmlBlock',
  'table',
  'mathBlock',
  'commentBlock',
  'footnoteDefinition',
];

/** The blocks with a `gap` and an `end` attribute: the same as {@link JOINABLE_TYPES}. */
export const SPACED_TYPES = JOINABLE_TYPES;

/** The blocks that remember the blanks before their first line (`indent`), as lists do. */
export const INDENTED_TYPES = [
  'bulletList',
  'orderedList',
  'taskList',
  'paragraph',
  'heading',
  'codeBlock',
  'blockquote',
  'callout',
  'horizontalRule',
];

/**
 * The blank lines before a block, as the text between the end of the line before and the start
 * of the block's first line: one or more lines, each holding only the blanks written on it after
 * its quotes' `>` (a list's indent on a blank line is blanks too). One empty line, the usual
 * form, is null but after a callout's header (where none is usual); no blank line at all is
 * `joined`.
 */
export function isGap(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 4000 && /^\n(?:[ \t]*\n)+$/.test(value);
}

/**
 * What follows the last line of the last block of a quote (its blank `>` lines) or of the
 * document (the newline that ends the file, blank lines after it, or nothing), each line as in
 * {@link isGap}. Null is the usual form: nothing in a quote, one newline at the end of a file.
 */
export function isEnd(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 4000 && /^(?:\n[ \t]*)*$/.test(value);
}

/**
 * The blanks at the end of a paragraph's or heading's last line, or of a callout's header; and
 * the blanks on every blank line of a quote (`blank`, the space of `> `). Markdown ignores them.
 */
export function isTrailing(value: unknown): value is string {
  return typeof value === 'string' && /^[ \t]{1,256}$/.test(value);
}

/**
 * The blanks after a list item's marker when they are not the usual one space (`-   item`, or
 * `- ` on an empty item), or after an ATX heading's `#`s (`##  Title`).
 */
export function isMarkerSpace(value: unknown): value is string {
  return typeof value === 'string' && /^[ \t]{1,16}$/.test(value);
}

/**
 * How a line that continues a paragraph lazily starts, on the break before it: the blanks and
 * `>` it was written with, fewer than its containers give their lines (`^block-id` under a
 * quote, as Obsidian writes it).
 */
export function isLazyPrefix(value: unknown): value is string {
  return typeof value === 'string' && /^[ \t>]{0,64}$/.test(value);
}

/** The blanks between a callout's `[!type]` and its title, when not the usual one space. */
export function isHeaderSpace(value: unknown): value is string {
  return typeof value === 'string' && /^[ \t]?$/.test(value);
}

/**
 * How a list item starts the lines below its marker when the file used a tab there (`\t- sub`
 * under `- item`, Obsidian's default): the blanks as written, read from the item's first column.
 */
export function isListPrefix(value: unknown): value is string {
  return typeof value === 'string' && /^[ \t]{0,15}\t[ \t]{0,15}$/.test(value);
}

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

/**
 * True for the blanks a block (a list's markers) may be written with beyond its container's: 1
 * to 3 columns.
 */
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

/**
 * An attribute holding how a file wrote some blanks, in `data-md-<key>` when `valid` accepts it;
 * not carried to the second half of a split block, which no file wrote.
 */
export function blanksAttribute(
  key: string,
  valid: (value: unknown) => value is string,
  keepOnSplit = false,
): Attribute {
  return { ...lineAttribute(key, valid), keepOnSplit };
}
