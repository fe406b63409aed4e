/**
 * The type of every attribute of every node and mark of the schema (extensions.ts), in one table:
 * the schema itself says only which attributes exist and their defaults, and ProseMirror takes
 * any value for them, so a link whose `href` is a list of strings would load, render and reach
 * the Markdown export. Every path that lets a document in checks these types (docs/PRODUCT.md
 * "Content"); attributeTypes.test.ts keeps the table and the schema in step.
 */

import { INDENTED_TYPES, JOINABLE_TYPES, SPACED_TYPES } from './nodes/sourceSyntax.ts';

/** What an attribute may hold. */
export interface AttributeType {
  /** The values it takes, as the refusal names them ("a string or null"). */
  readonly expects: string;
  /** Whether `value` is one of them. */
  readonly accepts: (value: unknown) => boolean;
  /** Whether a string is among them: a number or boolean may then be read as one (repair). */
  readonly takesString: boolean;
}

function type(expects: string, accepts: (value: unknown) => boolean, takesString = false) {
  return { expects, accepts, takesString } satisfies AttributeType;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isWhole = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

const string = type('a string', isString, true);
const stringOrNull = type('a string or null', (v) => v === null || isString(v), true);
const boolean = type('true or false', (v) => typeof v === 'boolean');
const booleanOrNull = type('true, false or null', (v) => v === null || typeof v === 'boolean');
const numberOrNull = type('a number or null', (v) => v === null || Number.isFinite(v));
/** A size as pasted HTML (`"300"`), the media menu (300) or YouTube's embed (`"100%"`) gives it. */
const size = type(
  'a number, a string or null',
  (v) => v === null || isString(v) || Number.isFinite(v),
  true,
);
const wholeFromZero = type('a whole number from 0', (v) => isWhole(v, 0));
/**
 * A cell's span, within HTML's own bounds (colspan ≤ 1,000, rowspan ≤ 65,534): the table's
 * layout walks each spanned column, so a span of a billion would hold the page and the server.
 */
const colspan = type('a whole number from 1 to 1000', (v) => isWhole(v, 1, 1000));
const rowspan = type('a whole number from 1 to 65534', (v) => isWhole(v, 1, 65_534));
const headingLevel = type('a whole number from 1 to 6', (v) => isWhole(v, 1, 6));
const fold = type("'', '-' or '+'", (v) => v === '' || v === '-' || v === '+');
/** Column widths as the table editor keeps them: a number per column, null where unknown. */
const columnWidths = type(
  'a list of numbers and nulls, or null',
  (v) =>
    v === null ||
    (Array.isArray(v) && v.every((width) => width === null || Number.isFinite(width))),
);

const joined = booleanOrNull;
const syntax = stringOrNull;
const listAttributes = { joined, indent: numberOrNull, tight: boolean };
const imageAttributes = {
  syntax,
  reference: stringOrNull,
  src: stringOrNull,
  alt: stringOrNull,
  title: stringOrNull,
  width: size,
  height: size,
};
const cellAttributes = {
  colspan,
  rowspan,
  colwidth: columnWidths,
  align: stringOrNull,
};

/** Per node or mark type, the types of the attributes of its own definition. */
const OWN_TYPES: Readonly<Record<string, Readonly<Record<string, AttributeType>>>> = {
  // Nodes
  doc: {},
  text: {},
  paragraph: { joined, textAlign: stringOrNull },
  blockquote: { joined },
  hardBreak: { syntax },
  heading: { syntax, joined, textAlign: stringOrNull, level: headingLevel },
  horizontalRule: { syntax },
  listItem: { number: numberOrNull },
  linkDefinitions: { markdown: string },
  frontMatter: { open: string, yaml: string, close: string, spaced: boolean },
  callout: { type: string, fold, title: string },
  softBreak: { syntax },
  bulletList: listAttributes,
  orderedList: { ...listAttributes, syntax, start: wholeFromZero, type: stringOrNull },
  taskList: listAttributes,
  taskItem: { checked: boolean },
  codeBlock: { syntax, joined, language: stringOrNull },
  image: imageAttributes,
  inlineImage: imageAttributes,
  youtube: { src: stringOrNull, start: wholeFromZero, width: size, height: size },
  table: { delimiter: stringOrNull },
  tableRow: { markdown: stringOrNull },
  tableHeader: cellAttributes,
  tableCell: cellAttributes,
  htmlBlock: { html: string },
  htmlInline: { html: string },
  mathInline: { tex: string, display: boolean },
  mathBlock: { tex: string },
  footnoteRef: { label: string },
  footnoteDefinition: { label: string, tight: boolean },
  inlineFootnote: { text: string },
  commentInline: { text: string },
  commentBlock: { text: string },
  tag: { name: string },
  wikilink: {
    target: string,
    fragment: string,
    alias: stringOrNull,
    embed: boolean,
    src: stringOrNull,
  },
  // Marks
  link: {
    syntax,
    reference: stringOrNull,
    href: stringOrNull,
    target: stringOrNull,
    rel: stringOrNull,
    class: stringOrNull,
    title: stringOrNull,
  },
  textStyle: { color: stringOrNull },
  bold: { syntax },
  italic: { syntax },
  strike: {},
  underline: {},
  code: {},
  highlight: { color: stringOrNull, syntax },
  escaped: {},
};

/**
 * The layout a Markdown file had, kept on the blocks it belongs to (nodes/MarkdownSyntax.ts, by
 * the same lists of types): blank lines and blanks as the text they were, an indent as a number.
 */
const LAYOUT_TYPES: ReadonlyArray<[readonly string[], Record<string, AttributeType>]> = [
  [JOINABLE_TYPES, { joined }],
  [SPACED_TYPES, { gap: stringOrNull, end: stringOrNull }],
  [['paragraph', 'heading', 'callout'], { trailing: stringOrNull }],
  [['blockquote', 'callout'], { blank: stringOrNull }],
  [['callout', 'heading', 'listItem', 'taskItem'], { space: stringOrNull }],
  [['softBreak', 'hardBreak'], { lazy: stringOrNull }],
  [['listItem', 'taskItem'], { prefix: stringOrNull }],
  [INDENTED_TYPES, { indent: numberOrNull }],
];

/**
 * Per node or mark type, the type of each of its attributes. Values a type allows may still be
 * refused or cleaned by the rules about what they say (safeAttrs.ts, url.ts): this is only their
 * kind.
 */
export const ATTRIBUTE_TYPES: Readonly<Record<string, Readonly<Record<string, AttributeType>>>> =
  Object.fromEntries(
    Object.entries(OWN_TYPES).map(([name, types]) => {
      const layout = LAYOUT_TYPES.filter(([names]) => names.includes(name)).map(([, t]) => t);
      return [name, Object.assign({}, types, ...layout) as Record<string, AttributeType>];
    }),
  );

/** The attribute types of node or mark type `name`; undefined for a type the schema lacks. */
function typesOf(name: string): Readonly<Record<string, AttributeType>> | undefined {
  return Object.hasOwn(ATTRIBUTE_TYPES, name) ? ATTRIBUTE_TYPES[name] : undefined;
}

/** `value` named for a refusal: what it is, not what it holds. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/**
 * Why the attributes of a node or mark of type `name` do not have their types, or null when they
 * do. An attribute left out (undefined) takes its default; one the type does not have is not
 * looked at (the schema drops it), nor is a type the schema lacks (the schema check refuses it).
 */
export function attributeTypeProblem(name: string, attrs: unknown): string | null {
  const types = typesOf(name);
  if (!types || typeof attrs !== 'object' || attrs === null) return null;
  const values = attrs as Record<string, unknown>;
  // A loop over keys, not Object.entries: this runs for every node of every save.
  for (const key in types) {
    const value = values[key];
    const expected = types[key]!;
    if (value === undefined || expected.accepts(value)) continue;
    return `${name}.${key} must be ${expected.expects}, not ${kindOf(value)}.`;
  }
  return null;
}

/**
 * The attributes of a node or mark of type `name` as the schema has them: those it does not have
 * dropped, and, with `repair`, a value of the wrong type read as its type where that loses
 * nothing (the number 2024 as the title "2024", as pasted HTML gives it) and otherwise left out,
 * so that the default applies. Without `repair` a wrong value stays, for the caller to refuse.
 * The same object when nothing changes, which is the usual case.
 */
export function schemaAttributes(
  name: string,
  attrs: Record<string, unknown>,
  repair: boolean,
): Record<string, unknown> {
  const types = typesOf(name);
  if (!types) return attrs;
  // Copied on the first change, without closures: this runs for every node of every save.
  let copy: Record<string, unknown> | undefined;
  for (const key in attrs) {
    const expected = Object.hasOwn(types, key) ? types[key] : undefined;
    const value = attrs[key];
    if (expected && (!repair || value === undefined || expected.accepts(value))) {
      if (copy) copy[key] = value;
      continue;
    }
    if (!copy) {
      copy = {};
      // Every key before this one was kept as it is.
      for (const earlier in attrs) {
        if (earlier === key) break;
        copy[earlier] = attrs[earlier];
      }
    }
    if (expected?.takesString && (typeof value === 'number' || typeof value === 'boolean')) {
      copy[key] = String(value);
    }
  }
  return copy ?? attrs;
}
