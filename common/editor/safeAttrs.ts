import { isFileUrl } from '../api/fileUrl.ts';
import { carriesMarkup } from './html/markup.ts';
import { isSafeColor, isSafeSize } from './html/style.ts';
import {
  INDENTED_TYPES,
  isDelimiterRow,
  isEnd,
  isGap,
  isHeaderSpace,
  isLazyPrefix,
  isItemNumber,
  isListIndent,
  isListPrefix,
  isMarkerSpace,
  isTrailing,
  isReferenceLabel,
  isRowLine,
  isSyntax,
  SPACED_TYPES,
  type SyntaxType,
} from './nodes/sourceSyntax.ts';

type Check = (value: unknown) => boolean;

const color: Check = (value) => typeof value === 'string' && isSafeColor(value);
const size: Check = (value) =>
  (typeof value === 'string' || typeof value === 'number') && isSafeSize(String(value));
/** Text that ends up in an attribute of the export: no markup a reader could take for a tag. */
const text: Check = (value) => typeof value === 'string' && !carriesMarkup(value);
const oneOf =
  (...values: string[]): Check =>
  (value) =>
    typeof value === 'string' && values.includes(value);
const textAlign = oneOf('left', 'center', 'right', 'justify');
const cellAlign = oneOf('left', 'center', 'right');
/** How the Markdown file wrote the node or mark (nodes/sourceSyntax.ts). */
const syntax =
  (type: SyntaxType): Check =>
  (value) =>
    isSyntax(type, value);
const reference: Check = isReferenceLabel;
const string: Check = (value) => typeof value === 'string';
const joined: Check = (value) => value === true;

/**
 * Attributes that reach a style or an attribute of the rendered page or the export, per node or
 * mark type, with the values they may hold; any other value is replaced by null (the default).
 * The same limits as the parse rules of pasted HTML (nodes/styleAttributes.ts).
 */
const OWN_RULES: Record<string, Record<string, Check>> = {
  textStyle: { color },
  highlight: { color },
  link: { title: text, syntax: syntax('link'), reference },
  bold: { syntax: syntax('bold') },
  italic: { syntax: syntax('italic') },
  paragraph: { textAlign, joined, trailing: isTrailing },
  heading: {
    textAlign,
    syntax: syntax('heading'),
    joined,
    trailing: isTrailing,
    space: isMarkerSpace,
  },
  hardBreak: { syntax: syntax('hardBreak'), lazy: isLazyPrefix },
  softBreak: { syntax: syntax('softBreak'), lazy: isLazyPrefix },
  codeBlock: { syntax: syntax('codeBlock'), joined },
  horizontalRule: { syntax: syntax('horizontalRule') },
  orderedList: { syntax: syntax('orderedList'), joined },
  // Written verbatim only while it reads as definitions alone (serializeMarkdown.ts).
  linkDefinitions: { markdown: string },
  image: { width: size, height: size, title: text, alt: text, syntax: syntax('image'), reference },
  inlineImage: {
    width: size,
    height: size,
    title: text,
    alt: text,
    syntax: syntax('inlineImage'),
    reference,
  },
  youtube: { width: size, height: size },
  // Only an uploaded file's address: an embed shows what the writer's own vault held.
  wikilink: { src: isFileUrl },
  bulletList: { joined },
  taskList: { joined },
  blockquote: { joined, blank: isTrailing },
  callout: { joined, blank: isTrailing, trailing: isTrailing, space: isHeaderSpace },
  table: { delimiter: isDelimiterRow },
  tableRow: { markdown: isRowLine },
  listItem: { number: isItemNumber, joined, space: isMarkerSpace, prefix: isListPrefix },
  taskItem: { joined, space: isMarkerSpace, prefix: isListPrefix },
  tableCell: { align: cellAlign },
  tableHeader: { align: cellAlign },
};

/** Every rule of a type: its own, and the blank lines and indent a file may give any block. */
const RULES: Record<string, Record<string, Check>> = { ...OWN_RULES };
for (const type of SPACED_TYPES) RULES[type] = { ...RULES[type], joined, gap: isGap, end: isEnd };
for (const type of INDENTED_TYPES) RULES[type] = { ...RULES[type], indent: isListIndent };

/**
 * `attrs` of a node or mark of type `type` with unsafe values set to null; the same object when
 * all are safe, which is the usual case.
 */
export function safeAttrs(type: string, attrs: Record<string, unknown>): Record<string, unknown> {
  const rules = Object.hasOwn(RULES, type) ? RULES[type] : undefined;
  if (!rules) return attrs;
  let copy: Record<string, unknown> | undefined;
  for (const [name, check] of Object.entries(rules)) {
    const value = attrs[name];
    if (value === null || value === undefined || check(value)) continue;
    copy ??= { ...attrs };
    copy[name] = null;
  }
  return copy ?? attrs;
}
