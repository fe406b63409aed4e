import type { Mark, Node as PMNode } from '@tiptap/pm/model';
import { interruptsParagraph, isNormalisedUrl } from './markdownIt.ts';
import {
  codeSpan,
  escapeText,
  type EscapeContext,
  isBlank,
  isPunct,
  leftFlanking,
  linkDestination,
  linkTitle,
  rightFlanking,
} from './escape.ts';
import {
  ALIGN_CLOSE,
  alignOpen,
  colorTag,
  highlightTag,
  imageTag,
  isSafeColor,
  linkTag,
  videoTag,
} from './htmlForms.ts';
import { serializeCallout } from '../dialects/callout/serializeCallout.ts';
import { withFrontMatter } from '../dialects/frontMatter/serializeFrontMatter.ts';
import {
  highlightDelimiter,
  joinsPrevious,
  writeDialectBlock,
  writeDialectInline,
} from '../dialects/inlineDialects.ts';
import {
  INDENTED_TYPES,
  isEnd,
  isGap,
  isItemNumber,
  isLazyPrefix,
  isListIndent,
  isListPrefix,
  isMarkerSpace,
  isReferenceLabel,
  isSyntax,
  isTrailing,
} from '../nodes/sourceSyntax.ts';
import { isEscapable } from '../nodes/Escaped.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { writtenDelimiter, writtenRow } from './tableSource.ts';
import { BlankLines, continuationLines, prefixExtra, withoutMarks } from './writeLayout.ts';
import {
  documentDefinitions,
  normaliseLabel,
  readDefinitions,
  type Definition,
} from './linkDefinitions.ts';

/** The link reference definitions of the document being written, by normalised label. */
let definitions = new Map<string, Definition>();
/** The blank lines holding blanks of the document being written. */
let blank = new BlankLines(false);

/** Where blocks are written. */
interface Place {
  /** The column their lines start at in the file, or null where it is not known (in a quote). */
  column: number | null;
  /** The blanks a block without an `indent` of its own is written with (see list). */
  indent: number;
}

/** Blocks at the top of the document. */
const TOP: Place = { column: 0, indent: 0 };
/** Blocks inside a quote or a dialect's container, where no tab is written. */
const INSIDE: Place = { column: null, indent: 0 };

/**
 * Writes a document as Markdown with Inkwell's settings (`-` bullets, tight lists where the
 * document has them), and with the layout its file had (blank lines, blanks, tabs; see
 * sourceLayout.ts). What Markdown cannot say is written as HTML that `parseMarkdown` reads back
 * into the same nodes and marks. Linear in the size of the document: every block is built as its
 * own string and joined once.
 */
export function serializeMarkdown(doc: PMNode): string {
  const outer = definitions;
  const outerBlank = blank;
  definitions = documentDefinitions(doc);
  try {
    blank = new BlankLines(true);
    const written = blank.placeBlanks(writeDocument(doc));
    if (written !== null) return written;
    blank = new BlankLines(false);
    return writeDocument(doc);
  } finally {
    definitions = outer;
    blank = outerBlank;
  }
}

/**
 * The whole document: front matter, blocks, and the blank lines its file had before them (the
 * `gap` of the first block after the front matter, or of the first block) and after them.
 */
function writeDocument(doc: PMNode): string {
  const end = doc.lastChild?.attrs.end as unknown;
  const first = doc.firstChild?.type.name === 'frontMatter' ? doc.maybeChild(1) : doc.firstChild;
  const gap = first?.attrs.gap as unknown;
  const start = isGap(gap) ? blank.gap(gap).slice(1) : null;
  return withFrontMatter(doc, blocks(doc, false, TOP), isEnd(end) ? end : '\n', start);
}

/**
 * Prefixes every line: `first` on the first, `rest` on the others (trimmed on blank lines, or
 * `blank` there).
 */
function indent(text: string, first: string, rest: string, blank = rest.trimEnd()): string {
  const lines = text.split('\n');
  const restTrim = blank;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prefix = i === 0 ? first : rest;
    lines[i] = line === '' ? (i === 0 ? first.trimEnd() : restTrim) : prefix + line;
  }
  return lines.join('\n');
}

function alignOf(node: PMNode): string | null {
  const align = node.attrs.textAlign as unknown;
  return (node.type.name === 'paragraph' || node.type.name === 'heading') &&
    typeof align === 'string' &&
    /^(left|center|right|justify)$/.test(align)
    ? align
    : null;
}

/**
 * Writes the block children of `parent`, separated by a blank line (or a newline when tight), or
 * by the blank lines their file had (`gap`); a quote's blank lines after its last block (`end`).
 */
function blocks(parent: PMNode, tight: boolean, place: Place = INSIDE): string {
  const parts: string[] = [];
  /** For each part, what separates it from the one before. */
  const before: string[] = [];
  const sep = tight ? '\n' : '\n\n';
  let previous: PMNode | null = null;
  let group: string[] | null = null;
  let groupAlign: string | null = null;
  const flush = () => {
    if (group) {
      parts.push(`${alignOpen(groupAlign!)}\n\n${group.join('\n\n')}\n\n${ALIGN_CLOSE}`);
      before.push(sep);
    }
    group = null;
    groupAlign = null;
  };
  // An item's first block is written on its marker's line, after the marker's blanks.
  const item = parent.type.name === 'listItem' || parent.type.name === 'taskItem';
  // Each list of one kind right after another is written with the other marker than the one
  // before it, or Markdown joins them (`-`, `*`, `-`…; `.`, `)`, `.`…).
  let alternate = false;
  parent.forEach((child, _offset, index) => {
    alternate = LISTS.has(child.type.name) && sameListKind(previous, child) && !alternate;
    const lead = item && index === 0 ? 0 : leadOf(child, place);
    let text = block(child, alternate, tight, place, lead);
    const gap = child.attrs.gap as unknown;
    // Two quotes (callouts too) in a row read back as one unless a blank line parts them.
    if (tight && text !== '' && isQuote(previous) && isQuote(child) && !isGap(gap)) {
      text = `\n${text}`;
    }
    const joins = joinsPrevious(child, previous);
    const nextLine =
      child.attrs.joined === true &&
      (canJoin(previous, child) || readsApart(previous, child, parts[parts.length - 1], text));
    previous = child;
    if (text === '') return;
    const align = alignOf(child);
    if (align !== groupAlign) flush();
    if (joins && parts.length > 0) {
      parts[parts.length - 1] += `\n${text}`;
    } else if (align) {
      group ??= [];
      groupAlign = align;
      group.push(text);
    } else {
      parts.push(text);
      // The first block's blank lines are its container's to write (writeDocument, callouts).
      if (parts.length === 1) before.push('');
      else before.push(nextLine ? '\n' : isGap(gap) ? blank.gap(gap) : sep);
    }
  });
  flush();
  let out = parts[0] ?? '';
  for (let k = 1; k < parts.length; k++) out += before[k]! + parts[k]!;
  const end = parent.lastChild?.attrs.end as unknown;
  if (QUOTES.has(parent.type.name) && isEnd(end)) out += blank.end(end);
  return out;
}

/** Whether two lists in a row would read as one list if written with the same marker. */
function sameListKind(previous: PMNode | null, node: PMNode): boolean {
  if (previous?.type !== node.type) return false;
  return (
    node.type.name !== 'orderedList' ||
    (previous.attrs.syntax === ')') === (node.attrs.syntax === ')')
  );
}

/** The blanks `node` is written with before its first line (its `indent`, or the place's). */
function leadOf(node: PMNode, place: Place): number {
  if (!INDENTED_TYPES.includes(node.type.name)) return 0;
  const indent = node.attrs.indent as unknown;
  return isListIndent(indent) ? indent : place.indent;
}

/** `text` with `lead` blanks before every line but empty ones. */
function indentAll(text: string, lead: number): string {
  return lead === 0 ? text : indent(text, ' '.repeat(lead), ' '.repeat(lead));
}

const LISTS = new Set(['bulletList', 'orderedList', 'taskList']);
const QUOTES = new Set(['blockquote', 'callout']);

/** Blocks whose last line ends them: nothing on the next line continues them. */
const CLOSED = new Set(['heading', 'codeBlock', 'horizontalRule', 'mathBlock', 'commentBlock']);

/**
 * Whether `node` may be written on the line right after `previous` and still read back as a block
 * of its own: a heading, fence, rule, math or comment block ends any block; a list, quote or
 * most HTML blocks interrupt a paragraph (an ordered list only from 1, an empty item never); a
 * paragraph follows
 * a list or quote whose last line is not paragraph text (which it would continue).
 */
function canJoin(previous: PMNode | null, node: PMNode): boolean {
  if (!previous) return false;
  const before = previous.type.name;
  if (CLOSED.has(before)) return true;
  const name = node.type.name;
  if (name === 'paragraph') return (LISTS.has(before) || QUOTES.has(before)) && !endsOpen(previous);
  // A table goes on at a line of text, as a paragraph does, and ends where another block starts.
  const text = before === 'paragraph' || before === 'table';
  const ends = text || LISTS.has(before) || QUOTES.has(before);
  if (name === 'heading') return ends && !isSyntax('heading', node.attrs.syntax);
  if (name === 'codeBlock') return ends;
  if (name === 'htmlBlock') return ends && interruptsParagraph(String(node.attrs.html ?? ''));
  if (QUOTES.has(name)) return ends && !QUOTES.has(before);
  if (LISTS.has(name)) {
    const first = node.firstChild?.firstChild;
    if (!first || first.content.size === 0) return false;
    if (name === 'orderedList' && text && Number(node.attrs.start) !== 1) return false;
    // Two bullet lists stay apart by their markers, and ordered ones by their delimiters; a
    // task list and a bullet list are both written with `-`.
    if (LISTS.has(before) && before !== name)
      return before === 'orderedList' || name === 'orderedList';
    return text || QUOTES.has(before) || before === name;
  }
  return false;
}

/**
 * Whether `text`, `node` written, still reads as a block of its own on the line right under
 * `before`, the block written last (`previous`): for the pairs canJoin does not know, which a file
 * had that way. The two are read back together, as they would stand.
 */
function readsApart(
  previous: PMNode | null,
  node: PMNode,
  before: string | undefined,
  text: string,
): boolean {
  if (!previous || before === undefined || text === '') return false;
  const read = parseMarkdown(withoutMarks(`${before}\n${text}`));
  return (
    read.childCount === 2 &&
    read.child(0).type === previous.type &&
    read.child(1).type === node.type
  );
}

/** Whether the last line of `node` could be continued by a line of text written after it. */
function endsOpen(node: PMNode): boolean {
  if (CLOSED.has(node.type.name)) return false;
  const last = node.lastChild;
  return node.isTextblock || !last || !last.isBlock || endsOpen(last);
}

const isQuote = (node: PMNode | null) =>
  node?.type.name === 'blockquote' || node?.type.name === 'callout';

function block(
  node: PMNode,
  alternate: boolean,
  tight: boolean,
  place: Place,
  lead: number,
): string {
  const blanks = ' '.repeat(lead);
  switch (node.type.name) {
    case 'paragraph':
      return (
        blanks +
        leanBrackets(node, (lean) => inline(node, { table: false, heading: false, lean })) +
        trailingOf(node)
      );
    case 'heading':
      return blanks + leanBrackets(node, (lean) => heading(node, lean));

    case 'blockquote': {
      // A blank line of the quote as its file wrote them all (`> `).
      const empty = `${blanks}>${isTrailing(node.attrs.blank) ? node.attrs.blank : ''}`;
      const body = blocks(node, false);
      return body === '' ? empty : indent(body, `${blanks}> `, `${blanks}> `, empty);
    }
    case 'callout': {
      const gap = node.firstChild?.attrs.gap as unknown;
      const body = blocks(node, false);
      return indentAll(serializeCallout(node, body, isGap(gap) ? blank.gap(gap) : '\n'), lead);
    }
    case 'frontMatter':
      // Written by serializeMarkdown, before every block.
      return '';
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return list(node, alternate, place, lead);
    case 'codeBlock':
      return indentAll(codeBlock(node), lead);
    case 'horizontalRule': {
      const rule = node.attrs.syntax as unknown;
      // In a tight list, `---` under a line of text would make that line a heading.
      if (tight) {
        return (
          blanks + (isSyntax('horizontalRule', rule) && !/^-+[ \t]*$/.test(rule) ? rule : '***')
        );
      }
      return blanks + (isSyntax('horizontalRule', rule) ? rule : '---');
    }
    case 'linkDefinitions':
      return linkDefinitions(node);
    case 'image':
      return image(node);
    case 'youtube':
      return videoTag({
        src: youtubeSrc(node),
        width: node.attrs.width as number | null,
        height: node.attrs.height as number | null,
      });
    case 'htmlBlock':
      return String(node.attrs.html ?? '');
    case 'table':
      return table(node);
    default:
      return writeDialectBlock(node, dialectWriter) ?? blocks(node, tight);
  }
}

function heading(node: PMNode, lean: boolean): string {
  let text = inline(node, { table: false, heading: true, lean });
  const level = Number(node.attrs.level);
  const underline = node.attrs.syntax as unknown;
  if (isSyntax('heading', underline) && text !== '' && underline[0] === (level === 1 ? '=' : '-')) {
    return `${text}${trailingOf(node)}\n${underline}`;
  }
  // A closing run of # would be read as the end of the heading.
  text = text.replace(/(^|[ \t])(#+[ \t]*)$/, '$1\\$2');
  const space = isMarkerSpace(node.attrs.space) ? node.attrs.space : ' ';
  return `${'#'.repeat(level)}${text ? `${space}${text}` : ''}${trailingOf(node)}`;
}

/** The blanks a paragraph's or heading's file had at the end of its last line. */
function trailingOf(node: PMNode): string {
  const trailing = node.attrs.trailing as unknown;
  return isTrailing(trailing) ? trailing : '';
}

/**
 * A paragraph or heading written by `write`, with `[`, `]` and `*` left unescaped where the text
 * reads back the same without the backslashes (`[[Note]]`, `[draft]`, `*[abbr]`): docs/PRODUCT.md
 * "Markdown" asks for escapes only where needed. The check reads the lean Markdown back, with the document's
 * definitions of the labels it names, as a bracket can make a link of its own.
 */
function leanBrackets(node: PMNode, write: (lean: boolean) => string): string {
  const escaped = write(false);
  if (!/[[\]*]/.test(node.textContent)) return escaped;
  // Only one of the two writes is kept, with its marks (writeLayout.ts).
  const marks = blank.marks;
  const lean = write(true);
  blank.marks = marks;
  if (lean === escaped) return escaped;
  const read = parseMarkdown(`${withoutMarks(lean)}\n\n${definitionsNamed(lean)}`).firstChild;
  return read?.type === node.type && read.content.eq(node.content) ? lean : escaped;
}

/** The document's definitions of the labels that `markdown` writes in brackets, as Markdown. */
function definitionsNamed(markdown: string): string {
  const lines: string[] = [];
  for (const match of markdown.matchAll(/\[((?:[^\\[\]]|\\.){1,999})\]/g)) {
    const label = normaliseLabel(match[1]!);
    const definition = definitions.get(label);
    if (!definition || label.trim() === '') continue;
    const title = definition.title ? ` ${linkTitle(definition.title)}` : '';
    lines.push(`[${match[1]!}]: ${linkDestination(definition.href)}${title}`);
  }
  return lines.join('\n');
}

const dialectWriter = { blocks: (node: PMNode) => blocks(node, false, INSIDE), indent };

function youtubeSrc(node: PMNode): string {
  const src = String(node.attrs.src ?? '');
  const start = Number(node.attrs.start ?? 0);
  return start > 0 ? `${src}${src.includes('?') ? '&' : '?'}start=${start}` : src;
}

/**
 * Writes a list (with its kind's other marker when `alternate`, see blocks): each item's marker
 * with the blanks after it that its file had (`space`), its blocks below it indented to its
 * content with spaces or, as its file did, starting with a tab (`prefix`, where the item's
 * column is known), and the blank lines between items (`gap`).
 */
function list(node: PMNode, alternate: boolean, place: Place, lead: number): string {
  const tight = node.attrs.tight !== false;
  const kind = node.type.name;
  let number = Number(node.attrs.start ?? 1);
  const delimiter = node.attrs.syntax === ')' ? ')' : '.';
  const other = delimiter === ')' ? '.' : ')';
  // The blanks the file put before its markers (`    - sub` under `- item`).
  const blanks = ' '.repeat(lead);
  const start = place.column === null ? null : place.column + lead;
  let out = '';
  node.forEach((item, _offset, index) => {
    // Each item after the first keeps the number it was written with; Markdown reads only the
    // first, which must be the list's start.
    const written = item.attrs.number as unknown;
    if (index > 0 && isItemNumber(written)) number = written;
    const marker =
      kind === 'orderedList'
        ? `${number++}${alternate ? other : delimiter}`
        : alternate
          ? '*'
          : '-';
    const space = item.attrs.space as unknown;
    const prefix = item.attrs.prefix as unknown;
    // More blanks than one after the marker are kept while they are spaces to the content.
    const after = isMarkerSpace(space) && /^ {1,4}$/.test(space) ? space : ' ';
    const box = kind === 'taskList' ? (item.attrs.checked ? '[x]' : '[ ]') : '';
    const width = marker.length + after.length;
    const extra = start !== null && isListPrefix(prefix) ? prefixExtra(prefix, start, width) : null;
    // Blocks inside an item whose lines start with a tab are written with the blanks the tab
    // reaches past the content's column, which the file's own blocks there have.
    const inner = { column: start === null ? null : start + width, indent: extra ?? 0 };
    const content = blocks(item, tight, inner);
    let text: string;
    if (/^[ \t]*$/.test(content)) {
      // An empty item: its marker, then the blanks its file had after it (or after the box).
      const tail = box === '' && isMarkerSpace(space) ? space : '';
      text = `${blanks}${marker}${box === '' ? '' : `${after}${box}`}${tail}${content}`;
    } else {
      const head = `${blanks}${marker}${after}${box === '' ? '' : `${box} `}`;
      const literal =
        extra === null || !isListPrefix(prefix) ? null : { lead: blanks, prefix, extra };
      text = continuationLines(content, head, blanks + ' '.repeat(width), literal);
    }
    if (index > 0) {
      const gap = item.attrs.gap as unknown;
      if (item.attrs.joined === true) out += '\n';
      else out += isGap(gap) ? blank.gap(gap) : tight ? '\n' : '\n\n';
    }
    out += text;
  });
  return out;
}

function codeBlock(node: PMNode): string {
  const text = node.textContent;
  const info = String(node.attrs.language ?? '').replace(/\n/g, ' ');
  let longest = 0;
  for (const match of text.matchAll(/^[ \t]*(`{3,}|~{3,})/gm)) {
    longest = Math.max(longest, match[1]!.length);
  }
  const written = node.attrs.syntax as unknown;
  if (isSyntax('codeBlock', written) && !(written[0] === '`' && info.includes('`'))) {
    // The file's own fence, made longer only if a line of the code would close it.
    let run = 0;
    for (const match of text.matchAll(/^[ \t]*(`{3,}|~{3,})/gm)) {
      if (match[1]![0] === written[0]) run = Math.max(run, match[1]!.length);
    }
    const length = written.trimEnd().length;
    const fence = written[0]!.repeat(Math.max(length, run + 1));
    const blanks = info === '' ? '' : written.slice(length);
    return `${fence}${blanks}${info}\n${text}${text === '' ? '' : '\n'}${fence}`;
  }
  const char = info.includes('`') ? '~' : '`';
  const fence = char.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text === '' ? '' : '\n'}${fence}`;
}

function image(node: PMNode): string {
  const { src, alt, title, width, height } = node.attrs as Record<string, string | null>;
  if (width || height || !isNormalisedUrl(src ?? '')) {
    return imageTag({ src: src ?? '', alt, title, width, height });
  }
  const altText = escapeText(alt ?? '', { lineStart: false, table: false });
  const reference = referenceSuffix(node.attrs, src ?? '', title, altText, undefined);
  if (reference !== null) return `![${altText}${reference}`;
  const titlePart = title ? ` ${linkTitle(title)}` : '';
  return `![${altText}](${linkDestination(src ?? '')}${titlePart})`;
}

/**
 * A block of link reference definitions as the file wrote it. Markdown that no longer reads as
 * definitions only (changed outside the editor) is written as the text it is, never lost.
 */
function linkDefinitions(node: PMNode): string {
  const markdown = typeof node.attrs.markdown === 'string' ? node.attrs.markdown : '';
  if (readDefinitions(markdown)) return markdown;
  return markdown
    .split('\n')
    .map((line) => escapeText(line, { lineStart: true, table: false }))
    .join('\n');
}

/**
 * How a link or image whose text was written as `inner` ends when it is written as the reference
 * it was read from (`][label]`, `][]` or `]`); null when its target or title no longer match the
 * document's definition of the label, and it is written inline instead. A collapsed or shortcut
 * reference whose text was edited becomes a full one; a shortcut that the next character
 * (`after`) would join to something else becomes a collapsed one.
 */
function referenceSuffix(
  attrs: Record<string, unknown>,
  href: string,
  title: string | null | undefined,
  inner: string,
  after: string | undefined,
): string | null {
  const { reference: label, syntax } = attrs;
  if (!isReferenceLabel(label) || typeof syntax !== 'string') return null;
  const key = normaliseLabel(label);
  const definition = definitions.get(key);
  if (!definition || definition.href !== href || (definition.title || null) !== (title || null)) {
    return null;
  }
  if (syntax === 'full' || normaliseLabel(inner) !== key) return `][${label}]`;
  if (syntax === 'collapsed' || after === '[' || after === '(' || after === ':') return '][]';
  return syntax === 'shortcut' ? ']' : null;
}

function table(node: PMNode): string {
  const rows: string[][] = [];
  const aligns: Array<string | null> = [];
  node.forEach((row, _offset, r) => {
    const cells: string[] = [];
    row.forEach((cell) => {
      if (r === 0) aligns.push((cell.attrs.align as string | null) ?? null);
      const parts: string[] = [];
      cell.forEach((child) => {
        const text = child.isTextblock
          ? inline(child, { table: true, heading: false })
          : child.textContent;
        if (text) parts.push(text);
      });
      cells.push(parts.join('<br>'));
    });
    rows.push(cells);
  });
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const delimiter = Array.from({ length: width }, (_, i) => {
    const align = aligns[i];
    if (align === 'left') return ':---';
    if (align === 'center') return ':---:';
    if (align === 'right') return '---:';
    return '---';
  });
  // Each row as the file wrote it (padding, outer pipes) while it still holds the same cells.
  const lines = rows.map((cells, r) => writtenRow(node.child(r), cells, width) ?? line(cells));
  const rule = writtenDelimiter(node, aligns, width) ?? `| ${delimiter.join(' | ')} |`;
  return [lines[0]!, rule, ...lines.slice(1)].join('\n');
}

interface InlineContext {
  table: boolean;
  heading: boolean;
  /** Leaves `[`, `]` and `*` unescaped (see leanBrackets). */
  lean?: boolean;
}

/** The order marks nest in, outermost first, when several open at once. */
const RANK: Record<string, number> = {
  textStyle: 1,
  highlight: 2,
  underline: 3,
  strike: 4,
  // markdown-it reads `***x***` as <em><strong>, so italic is the outer of the two.
  italic: 5,
  bold: 6,
  // `**[text](url)**` is how people write a bold link, more often than `[**text**](url)`.
  link: 7,
};

/** A mark written with a Markdown delimiter, whose flanking must be checked once written. */
interface DelimiterPair {
  mark: Mark;
  open: number;
  close: number;
}

const DELIMITERS: Record<string, string[]> = {
  bold: ['**', '__'],
  italic: ['*', '_'],
  strike: ['~~'],
};
const HTML_FALLBACK: Record<string, [string, string]> = {
  bold: ['<strong>', '</strong>'],
  italic: ['<em>', '</em>'],
  strike: ['<s>', '</s>'],
  highlight: ['<mark>', '</mark>'],
};

/**
 * The delimiters a mark may be written with, best first (the file's own, when it came from one),
 * or undefined for an HTML tag.
 */
function delimitersOf(mark: Mark): string[] | undefined {
  const highlight = highlightDelimiter(mark);
  if (highlight) return [highlight];
  const all = DELIMITERS[mark.type.name];
  const own = mark.attrs.syntax as unknown;
  return typeof own === 'string' && all?.includes(own)
    ? [own, ...all.filter((d) => d !== own)]
    : all;
}

function markOpen(mark: Mark): string {
  const a = mark.attrs as Record<string, string | null>;
  switch (mark.type.name) {
    case 'bold':
    case 'italic':
    case 'strike':
      return delimitersOf(mark)![0]!;
    case 'underline':
      return '<u>';
    case 'highlight':
      return (
        highlightDelimiter(mark) ?? highlightTag(a.color && isSafeColor(a.color) ? a.color : null)
      );
    case 'textStyle':
      return a.color && isSafeColor(a.color) ? colorTag(a.color) : '';
    case 'link':
      return a.target || a.rel || a.class || !isNormalisedUrl(a.href ?? '')
        ? linkTag({
            href: a.href ?? '',
            title: a.title,
            target: a.target,
            rel: a.rel,
            class: a.class,
          })
        : '[';
    default:
      return '';
  }
}

function markClose(mark: Mark, open: string): string {
  const a = mark.attrs as Record<string, string | null>;
  switch (mark.type.name) {
    case 'bold':
    case 'italic':
    case 'strike':
      return open;
    case 'underline':
      return '</u>';
    case 'highlight':
      return highlightDelimiter(mark) ?? '</mark>';
    case 'textStyle':
      return open ? '</span>' : '';
    case 'link':
      if (open !== '[') return '</a>';
      return `](${linkDestination(a.href ?? '')}${a.title ? ` ${linkTitle(a.title)}` : ''})`;
    default:
      return '';
  }
}

function sortMarks(marks: readonly Mark[]): Mark[] {
  return marks
    .filter((m) => m.type.name !== 'code' && m.type.name in RANK)
    .sort((a, b) => RANK[a.type.name]! - RANK[b.type.name]!);
}

/** Writes the inline content of a textblock. */
function inline(node: PMNode, context: InlineContext): string {
  const parts: string[] = [];
  const stack: Array<{ mark: Mark; index: number; open: string; plain: boolean }> = [];
  const pairs: DelimiterPair[] = [];
  const links: LinkPair[] = [];
  let lineStart = true;
  /** The line being written continues the textblock (after a line break). */
  let continues = false;
  let pendingSpace = '';
  const children: PMNode[] = [];
  node.forEach((child) => children.push(child));
  // A hard break at the very end would be written as a stray backslash.
  while (
    children.length > 0 &&
    /^(?:hard|soft)Break$/.test(children[children.length - 1]!.type.name)
  ) {
    children.pop();
  }

  const write = (s: string) => {
    if (s === '') return;
    parts.push(s);
    lineStart = false;
  };
  const closeTo = (keep: number) => {
    while (stack.length > keep) {
      const top = stack.pop()!;
      const close = markClose(top.mark, top.open);
      parts.push(close);
      if (delimitersOf(top.mark)) {
        pairs.push({ mark: top.mark, open: top.index, close: parts.length - 1 });
      } else if (top.open === '[') {
        links.push({ mark: top.mark, open: top.index, close: parts.length - 1, plain: top.plain });
      }
    }
  };

  for (let k = 0; k < children.length; k++) {
    const child = children[k]!;
    const marks = sortMarks(child.marks);
    let keep = 0;
    while (keep < stack.length && marks.some((m) => m.eq(stack[keep]!.mark))) keep++;
    const opening = marks.filter((m) => !stack.slice(0, keep).some((s) => s.mark.eq(m)));
    const changes = keep < stack.length || opening.length > 0;
    let text: string | null = null;
    if (child.isText) text = child.text!;

    if (changes) closeTo(keep);
    write(pendingSpace);
    pendingSpace = '';

    if (text !== null && opening.length > 0 && !child.marks.some((m) => m.type.name === 'code')) {
      // Emphasis cannot open before a blank, so leading blanks go before the delimiter.
      const lead = /^\s*/u.exec(text)![0];
      text = text.slice(lead.length);
      if (lead) write(lead);
    }
    // Marks that stay on longer open first (outside), so they need not be closed and reopened.
    if (opening.length > 1) {
      const extent = new Map(opening.map((m) => [m, runLength(children, k, m)]));
      opening.sort(
        (a, b) =>
          extent.get(b)! - extent.get(a)! || nestingOrder(a, opening) - nestingOrder(b, opening),
      );
    }
    for (const mark of opening) {
      const open = markOpen(mark);
      if (open === '[') escapeBang(parts);
      parts.push(open);
      stack.push({ mark, index: parts.length - 1, open, plain: true });
    }

    // A link holding only its URL as plain text may be written back as the autolink it was.
    if (text === null || child.marks.length > 1) for (const open of stack) open.plain = false;

    if (text !== null) {
      const isCode = child.marks.some((m) => m.type.name === 'code');
      if (isCode) {
        write(codeSpan(text, context.table));
      } else if (child.marks.some((m) => m.type.name === 'escaped')) {
        write(writeEscaped(text, { lineStart, continues, table: context.table }));
      } else {
        const trail = stack.length > 0 ? /\s*$/u.exec(text)![0] : '';
        const body = trail ? text.slice(0, text.length - trail.length) : text;
        const before = lineStart ? undefined : charBefore(parts, parts.length);
        const at = { lineStart, continues, table: context.table, before, lean: context.lean };
        write(escapeText(body, at));
        pendingSpace = trail;
      }
    } else {
      switch (child.type.name) {
        case 'softBreak':
          if (context.table || context.heading) {
            write(' ');
          } else {
            // Blanks at the end of a line would be dropped, or two of them read as a hard break;
            // the one blank the file had there, and the next line's indent, are its own.
            pendingSpace = '';
            const last = parts.length - 1;
            // (A tab there is text: it reads back as it is.)
            if (last >= 0) parts[last] = parts[last]!.replace(/ +$/, '');
            const written = child.attrs.syntax as unknown;
            parts.push(lineBreak(child, isSyntax('softBreak', written) ? written : '\n'));
            lineStart = true;
            continues = true;
          }
          break;
        case 'hardBreak':
          if (context.table || context.heading) write('<br>');
          else {
            const written = child.attrs.syntax as unknown;
            if (!isSyntax('hardBreak', written)) parts.push(lineBreak(child, '\\\n'));
            else parts.push(lineBreak(child, written.includes('\n') ? written : `${written}\n`));
            lineStart = true;
            continues = true;
          }
          break;
        case 'inlineImage':
          write(image(child));
          break;
        case 'htmlInline':
          write(String(child.attrs.html ?? ''));
          break;
        default: {
          const source = writeDialectInline(child, context.table);
          // A `!` just before a wikilink would make it an embed.
          if (source?.startsWith('[[')) escapeBang(parts);
          write(source ?? escapeText(child.textContent, { lineStart, table: context.table }));
        }
      }
    }
  }
  closeTo(0);
  write(pendingSpace);
  fixFlanking(parts, pairs);
  for (const link of links) writeLinkSyntax(parts, link, context.table);
  return parts.join('');
}

/**
 * A line break written as `written` (the blanks before the newline, the newline, and the next
 * line's indent), or, for a line its file continued lazily, as the blanks before the newline and
 * the next line started as the file did (`lazy`).
 */
function lineBreak(node: PMNode, written: string): string {
  const lazy = node.attrs.lazy as unknown;
  if (!isLazyPrefix(lazy)) return written;
  return written.slice(0, written.indexOf('\n') + 1) + blank.lazy(lazy);
}

/** A link written as `[text](url)`, which may be written the way its file had it instead. */
interface LinkPair {
  mark: Mark;
  open: number;
  close: number;
  /** Its text is plain text, with no other mark or node. */
  plain: boolean;
}

/** The scheme-and-URL or e-mail forms that CommonMark reads between `<` and `>`. */
const AUTOLINK = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*$/;
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * Rewrites a link written inline as the reference or autolink its file wrote, when that still
 * reads back as the same link: the reference's definition has the link's URL and title, the
 * autolink's text is its URL.
 */
function writeLinkSyntax(parts: string[], link: LinkPair, table: boolean): void {
  const attrs = link.mark.attrs as Record<string, unknown>;
  const href = typeof attrs.href === 'string' ? attrs.href : '';
  const inner = parts.slice(link.open + 1, link.close).join('');
  if (attrs.syntax === 'autolink') {
    const text = inner.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    const url = AUTOLINK.test(text) && isNormalisedUrl(text) && text === href;
    const email = EMAIL.test(text) && href === `mailto:${text}`;
    if (link.plain && (url || email) && !(table && text.includes('|'))) {
      parts[link.open] = '<';
      for (let i = link.open + 1; i < link.close; i++) parts[i] = '';
      parts[link.open + 1] = text;
      parts[link.close] = '>';
    }
    return;
  }
  const title = typeof attrs.title === 'string' ? attrs.title : null;
  const after = charAfter(parts, link.close);
  const suffix = referenceSuffix(attrs, href, title, inner, after);
  if (suffix !== null) parts[link.close] = suffix;
}

/** Text the file wrote escaped: each punctuation character with its backslash. */
function writeEscaped(text: string, context: EscapeContext): string {
  let out = '';
  for (const c of text) {
    out += isEscapable(c) ? `\\${c}` : escapeText(c, context);
    context = { ...context, lineStart: false };
  }
  return out;
}

/**
 * Where `mark` nests among marks that open together, outermost first: by RANK, but bold goes
 * around italic when the file wrote them with different characters (`**_x_**`, `__*x*__`), as
 * `***x***` can only be read one way and those are written that way round.
 */
function nestingOrder(mark: Mark, opening: readonly Mark[]): number {
  const rank = RANK[mark.type.name]!;
  const char = (m: Mark) => (m.attrs.syntax === '__' || m.attrs.syntax === '_' ? '_' : '*');
  const bold = opening.find((m) => m.type.name === 'bold');
  const italic = opening.find((m) => m.type.name === 'italic');
  if (!bold || !italic || char(bold) === char(italic)) return rank;
  if (mark === bold) return RANK.italic! - 0.5;
  return rank;
}

/** How many children from `from` on carry `mark`. */
function runLength(children: PMNode[], from: number, mark: Mark): number {
  let k = from;
  while (k < children.length && mark.isInSet(children[k]!.marks)) k++;
  return k - from;
}

/** A `!` written just before a link's `[` would turn the link into an image. */
function escapeBang(parts: string[]): void {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part === '') continue;
    if (part.endsWith('!') && !part.endsWith('\\!')) parts[i] = `${part.slice(0, -1)}\\!`;
    return;
  }
}

/** The character just before `index` in the written parts (undefined at the line start). */
function charBefore(parts: string[], index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part !== '') return part[part.length - 1];
  }
  return undefined;
}

/** The character just after `index` in the written parts (undefined at the line end). */
function charAfter(parts: string[], index: number): string | undefined {
  for (let i = index + 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part !== '') return part[0];
  }
  return undefined;
}

function canOpen(delimiter: string, before: string | undefined, after: string | undefined) {
  const c = delimiter[0];
  if (before === c || after === c) return false;
  const left = leftFlanking(before, after);
  if (c !== '_') return left;
  return left && (!rightFlanking(before, after) || isPunct(before));
}

function canClose(delimiter: string, before: string | undefined, after: string | undefined) {
  const c = delimiter[0];
  if (before === c || after === c) return false;
  const right = rightFlanking(before, after);
  if (c !== '_') return right;
  return right && (!leftFlanking(before, after) || isPunct(after) || isBlank(after));
}

/**
 * The character next to a delimiter at `index` (`step` -1 before, 1 after), looking past the
 * delimiters of the same character in `others` that touch it: together they are one run, as
 * `***` opens italic and bold at once. Also tells whether it looked past any.
 */
function runEdge(
  parts: string[],
  index: number,
  step: 1 | -1,
  char: string,
  others: ReadonlySet<number>,
): [string | undefined, boolean] {
  let merged = false;
  for (let i = index + step; i >= 0 && i < parts.length; i += step) {
    const part = parts[i]!;
    if (part === '') continue;
    if (others.has(i) && part.split('').every((c) => c === char)) {
      merged = true;
      continue;
    }
    return [step === 1 ? part[0] : part[part.length - 1], merged];
  }
  return [undefined, merged];
}

/**
 * Markdown emphasis only opens and closes where CommonMark's flanking rules allow (`**foo.**bar`
 * does not close). Each delimiter pair is checked where it was written; one that would not read
 * back tries its other delimiter, then falls back to the HTML tag, which always does. Openers (or
 * closers) of one character that touch are checked as one run, which must then only open (or
 * close), so that CommonMark's rule of three never applies.
 */
function fixFlanking(parts: string[], pairs: DelimiterPair[]): void {
  const opens = new Set(pairs.map((pair) => pair.open));
  const closes = new Set(pairs.map((pair) => pair.close));
  const fits = (pair: DelimiterPair, d: string) => {
    const c = d[0]!;
    const [openBefore, mergedBefore] = runEdge(parts, pair.open, -1, c, opens);
    const [openAfter, mergedAfter] = runEdge(parts, pair.open, 1, c, opens);
    const [closeBefore, mergedClose] = runEdge(parts, pair.close, -1, c, closes);
    const [closeAfter, mergedCloseAfter] = runEdge(parts, pair.close, 1, c, closes);
    return (
      canOpen(d, openBefore, openAfter) &&
      (!(mergedBefore || mergedAfter) || !rightFlanking(openBefore, openAfter)) &&
      canClose(d, closeBefore, closeAfter) &&
      (!(mergedClose || mergedCloseAfter) || !leftFlanking(closeBefore, closeAfter))
    );
  };
  const fallBack = (pair: DelimiterPair) => {
    const [open, close] = HTML_FALLBACK[pair.mark.type.name]!;
    parts[pair.open] = open;
    parts[pair.close] = close;
  };
  for (const pair of pairs) {
    const choice = delimitersOf(pair.mark)!.find((d) => {
      parts[pair.open] = d;
      parts[pair.close] = d;
      return fits(pair, d);
    });
    if (!choice) fallBack(pair);
  }
  // A pair chosen as part of a run whose other delimiter changed after is checked again; each
  // round turns at least one pair into HTML, which reads back whatever its neighbours.
  let changed = true;
  while (changed) {
    changed = false;
    for (const pair of pairs) {
      const d = parts[pair.open]!;
      if (!d.startsWith('<') && !fits(pair, d)) {
        fallBack(pair);
        changed = true;
      }
    }
  }
}
