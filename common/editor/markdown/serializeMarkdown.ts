import type { Mark, Node as PMNode } from '@tiptap/pm/model';
import { isNormalisedUrl } from './markdownIt.ts';
import {
  codeSpan,
  escapeText,
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

/**
 * Writes a document as Markdown with Inkwell's settings (`-` bullets, tight lists where the
 * document has them). What Markdown cannot say is written as HTML that `parseMarkdown` reads back
 * into the same nodes and marks. Linear in the size of the document: every block is built as its
 * own string and joined once.
 */
export function serializeMarkdown(doc: PMNode): string {
  return withFrontMatter(doc, blocks(doc, false));
}

/** Prefixes every line: `first` on the first, `rest` on the others (trimmed on blank lines). */
function indent(text: string, first: string, rest: string): string {
  const lines = text.split('\n');
  const restTrim = rest.trimEnd();
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

/** Writes the block children of `parent`, separated by a blank line (or a newline when tight). */
function blocks(parent: PMNode, tight: boolean): string {
  const parts: string[] = [];
  const sep = tight ? '\n' : '\n\n';
  let previous: PMNode | null = null;
  let group: string[] | null = null;
  let groupAlign: string | null = null;
  const flush = () => {
    if (group) parts.push(`${alignOpen(groupAlign!)}\n\n${group.join('\n\n')}\n\n${ALIGN_CLOSE}`);
    group = null;
    groupAlign = null;
  };
  parent.forEach((child) => {
    let text = block(child, previous, tight);
    // Two quotes (callouts too) in a row read back as one unless a blank line parts them.
    if (tight && text !== '' && isQuote(previous) && isQuote(child)) text = `\n${text}`;
    const joins = joinsPrevious(child, previous);
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
    }
  });
  flush();
  return parts.join(sep);
}

const isQuote = (node: PMNode | null) =>
  node?.type.name === 'blockquote' || node?.type.name === 'callout';

function block(node: PMNode, previous: PMNode | null, tight: boolean): string {
  switch (node.type.name) {
    case 'paragraph':
      return inline(node, { table: false, heading: false });
    case 'heading': {
      let text = inline(node, { table: false, heading: true });
      // A closing run of # would be read as the end of the heading.
      text = text.replace(/(^|[ \t])(#+[ \t]*)$/, '$1\\$2');
      return `${'#'.repeat(Number(node.attrs.level))}${text ? ` ${text}` : ''}`;
    }
    case 'blockquote':
      return indent(blocks(node, false) || '', '> ', '> ');
    case 'callout':
      return serializeCallout(node, blocks(node, false));
    case 'frontMatter':
      // Written by serializeMarkdown, before every block.
      return '';
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return list(node, previous);
    case 'codeBlock':
      return codeBlock(node);
    case 'horizontalRule':
      // In a tight list, `---` under a line of text would make that line a heading.
      return tight ? '***' : '---';
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

const dialectWriter = { blocks: (node: PMNode) => blocks(node, false), indent };

function youtubeSrc(node: PMNode): string {
  const src = String(node.attrs.src ?? '');
  const start = Number(node.attrs.start ?? 0);
  return start > 0 ? `${src}${src.includes('?') ? '&' : '?'}start=${start}` : src;
}

function list(node: PMNode, previous: PMNode | null): string {
  const tight = node.attrs.tight !== false;
  const kind = node.type.name;
  // Two lists of one kind in a row must use different markers, or Markdown joins them.
  const alternate = previous?.type === node.type;
  const items: string[] = [];
  let number = Number(node.attrs.start ?? 1);
  node.forEach((item) => {
    let marker: string;
    if (kind === 'orderedList') marker = `${number++}${alternate ? ')' : '.'} `;
    else marker = alternate ? '* ' : '- ';
    if (kind === 'taskList') marker += item.attrs.checked ? '[x] ' : '[ ] ';
    const content = blocks(item, tight);
    const width = kind === 'taskList' ? 2 : marker.length;
    items.push(content === '' ? marker.trimEnd() : indent(content, marker, ' '.repeat(width)));
  });
  return items.join(tight ? '\n' : '\n\n');
}

function codeBlock(node: PMNode): string {
  const text = node.textContent;
  const info = String(node.attrs.language ?? '').replace(/\n/g, ' ');
  let longest = 0;
  for (const match of text.matchAll(/^[ \t]*(`{3,}|~{3,})/gm)) {
    longest = Math.max(longest, match[1]!.length);
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
  const titlePart = title ? ` ${linkTitle(title)}` : '';
  return `![${altText}](${linkDestination(src ?? '')}${titlePart})`;
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
  return [line(rows[0]!), `| ${delimiter.join(' | ')} |`, ...rows.slice(1).map(line)].join('\n');
}

interface InlineContext {
  table: boolean;
  heading: boolean;
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

/** The delimiters a mark may be written with, best first, or undefined for an HTML tag. */
function delimitersOf(mark: Mark): string[] | undefined {
  const highlight = highlightDelimiter(mark);
  return highlight ? [highlight] : DELIMITERS[mark.type.name];
}

function markOpen(mark: Mark): string {
  const a = mark.attrs as Record<string, string | null>;
  switch (mark.type.name) {
    case 'bold':
    case 'italic':
    case 'strike':
      return DELIMITERS[mark.type.name]![0]!;
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
  const stack: Array<{ mark: Mark; index: number; open: string }> = [];
  const pairs: DelimiterPair[] = [];
  let lineStart = true;
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
        (a, b) => extent.get(b)! - extent.get(a)! || RANK[a.type.name]! - RANK[b.type.name]!,
      );
    }
    for (const mark of opening) {
      const open = markOpen(mark);
      if (open === '[') escapeBang(parts);
      parts.push(open);
      stack.push({ mark, index: parts.length - 1, open });
    }

    if (text !== null) {
      const isCode = child.marks.some((m) => m.type.name === 'code');
      if (isCode) {
        write(codeSpan(text, context.table));
      } else {
        const trail = stack.length > 0 ? /\s*$/u.exec(text)![0] : '';
        const body = trail ? text.slice(0, text.length - trail.length) : text;
        const before = lineStart ? undefined : charBefore(parts, parts.length);
        write(escapeText(body, { lineStart, table: context.table, before }));
        pendingSpace = trail;
      }
    } else {
      switch (child.type.name) {
        case 'softBreak':
          if (context.table || context.heading) {
            write(' ');
          } else {
            // Blanks at the end of a line would be dropped, or two of them read as a hard break.
            pendingSpace = '';
            const last = parts.length - 1;
            if (last >= 0) parts[last] = parts[last]!.replace(/[ \t]+$/, '');
            parts.push('\n');
            lineStart = true;
          }
          break;
        case 'hardBreak':
          if (context.table || context.heading) write('<br>');
          else {
            parts.push('\\\n');
            lineStart = true;
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
  return parts.join('');
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
 * Markdown emphasis only opens and closes where CommonMark's flanking rules allow (`**foo.**bar`
 * does not close). Each delimiter pair is checked where it was written; one that would not read
 * back tries its other delimiter, then falls back to the HTML tag, which always does.
 */
function fixFlanking(parts: string[], pairs: DelimiterPair[]): void {
  for (const pair of pairs) {
    const name = pair.mark.type.name;
    const fits = (d: string) => {
      const ok =
        canOpen(d, charBefore(parts, pair.open), charAfter(parts, pair.open)) &&
        canClose(d, charBefore(parts, pair.close), charAfter(parts, pair.close));
      return ok;
    };
    const choice = delimitersOf(pair.mark)!.find((d) => {
      parts[pair.open] = d;
      parts[pair.close] = d;
      return fits(d);
    });
    if (!choice) {
      const [open, close] = HTML_FALLBACK[name]!;
      parts[pair.open] = open;
      parts[pair.close] = close;
    }
  }
}
