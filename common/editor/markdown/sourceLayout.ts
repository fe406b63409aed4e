import {
  isEnd,
  isGap,
  isLazyPrefix,
  isListPrefix,
  isMarkerSpace,
  isTrailing,
} from '../nodes/sourceSyntax.ts';

/**
 * How a Markdown file laid out its blocks in blanks and blank lines, read from its source lines:
 * what CommonMark ignores and the document keeps in attributes (nodes/sourceSyntax.ts), so that an
 * untouched file is exported with the bytes it came in with (docs/PRODUCT.md, "Markdown").
 */

/** The column after the blanks `text` starts with, reading from `column`, and their length. */
export function blanksEnd(text: string, column = 0): { column: number; length: number } {
  let length = 0;
  for (; length < text.length; length++) {
    const c = text[length];
    if (c === ' ') column++;
    // A tab moves to the next multiple of four (CommonMark's tab stops).
    else if (c === '\t') column += 4 - (column % 4);
    else break;
  }
  return { column, length };
}

/** The part of `line` after `depth` quote markers (`>` and the blanks before it), or null. */
function afterQuotes(line: string, depth: number): string | null {
  let rest = line;
  for (let d = 0; d < depth; d++) {
    const marker = /^[ \t]*>/.exec(rest);
    if (!marker) return null;
    rest = rest.slice(marker[0].length);
  }
  return rest;
}

/** The blanks written on `line` after its `depth` quote markers, or null when it is not blank. */
function blankLine(line: string, depth: number): string | null {
  const rest = afterQuotes(line, depth);
  return rest !== null && /^[ \t]*$/.test(rest) ? rest : null;
}

/**
 * The blank lines right before line `index`, inside `depth` quotes, as a `gap` attribute; null
 * for none (which is `joined`).
 */
export function gapBefore(lines: readonly string[], index: number, depth: number): string | null {
  const blanks: string[] = [];
  for (let k = index - 1; k >= 0; k--) {
    const blank = blankLine(lines[k]!, depth);
    if (blank === null) break;
    blanks.push(blank);
  }
  if (blanks.length === 0) return null;
  let gap = '\n';
  for (let k = blanks.length - 1; k >= 0; k--) gap += `${blanks[k]!}\n`;
  return isGap(gap) ? gap : null;
}

/**
 * The blank lines a quote spanning lines [`start`, `end`) ends with, inside `depth` quotes
 * counting its own, as the `end` attribute of its last block; null for none.
 */
export function quoteEnd(
  lines: readonly string[],
  start: number,
  end: number,
  depth: number,
): string | null {
  const blanks: string[] = [];
  for (let k = end - 1; k > start; k--) {
    const blank = blankLine(lines[k]!, depth);
    if (blank === null) break;
    blanks.push(blank);
  }
  if (blanks.length === 0) return null;
  let text = '';
  for (let k = blanks.length - 1; k >= 0; k--) text += `\n${blanks[k]!}`;
  return isEnd(text) ? text : null;
}

/**
 * What follows the last line that holds more than blanks, as the `end` attribute of the
 * document's last block: null for one newline, the usual form.
 */
export function documentEnd(markdown: string): string | null {
  let last = markdown.length - 1;
  while (last >= 0 && /[ \t\n]/.test(markdown[last]!)) last--;
  const newline = markdown.indexOf('\n', last + 1);
  const end = newline < 0 ? '' : markdown.slice(newline);
  return end !== '\n' && isEnd(end) ? end : null;
}

/** The blanks at the end of `line`, as a `trailing` attribute (null for none). */
export function trailingBlanks(line: string): string | null {
  let start = line.length;
  while (start > 0 && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
  const blanks = line.slice(start);
  return isTrailing(blanks) ? blanks : null;
}

/** Where a list item's marker line puts it, in columns, and how it wrote the marker's blanks. */
export interface ItemLayout {
  /** The column of the marker. */
  start: number;
  /** The column where the item's content starts. */
  content: number;
  /** The blanks after the marker when not the usual one space (a `space` attribute), or null. */
  space: string | null;
}

/**
 * The layout of the list item whose marker (`marker` characters long) opens `line` after its
 * blanks; null when the line does not open with it.
 */
export function itemLayout(line: string, marker: number): ItemLayout | null {
  const lead = blanksEnd(line);
  const text = line.slice(lead.length);
  if (!/^(?:[-+*]|\d{1,9}[.)])/.test(text)) return null;
  const start = lead.column;
  const rest = text.slice(marker);
  const blanks = blanksEnd(rest, start + marker);
  const width = blanks.column - start - marker;
  const blankText = rest.slice(0, blanks.length);
  if (blanks.length === rest.length) {
    // An empty item: its content would start one column after the marker.
    return {
      start,
      content: start + marker + 1,
      space: isMarkerSpace(blankText) ? blankText : null,
    };
  }
  // Five or more blanks: the content starts after one, the rest is indented code.
  if (width > 4) return { start, content: start + marker + 1, space: null };
  const spaces = /^ +$/.test(blankText) && blankText !== ' ';
  return { start, content: start + marker + width, space: spaces ? blankText : null };
}

/**
 * The blanks a continuation line of a list item (`line`) starts with for the item, as a list's
 * `prefix` attribute: read from the item's first column `start` (the blanks before it belong to
 * its containers and must end there) up to its content column `content` or past it. Null when
 * those blanks are spaces alone, which export writes anyway, or do not reach the content.
 */
export function itemPrefix(line: string, start: number, content: number): string | null {
  let outer = 0;
  let column = 0;
  while (column < start) {
    const c = line[outer];
    if (c === ' ') column++;
    else if (c === '\t') column += 4 - (column % 4);
    else return null;
    outer++;
  }
  if (column !== start) return null;
  let end = outer;
  while (column < content) {
    const c = line[end];
    if (c === ' ') column++;
    else if (c === '\t') column += 4 - (column % 4);
    else return null;
    end++;
  }
  const prefix = line.slice(outer, end);
  return isListPrefix(prefix) ? prefix : null;
}

/**
 * The blanks after the marker of the list item that opens `line` inside `depth` quotes, when
 * they are not one space (see {@link itemLayout}); null otherwise.
 */
export function itemSpace(line: string, depth: number, marker: number): string | null {
  const rest = afterQuotes(line, depth);
  return rest === null ? null : (itemLayout(rest, marker)?.space ?? null);
}

/**
 * How a callout's header line (`> [!type]fold Title`, inside `depth` quotes counting its own)
 * wrote its blanks: `space` between the marker and the title when not the usual (one space
 * before a title, none without), and the `trailing` blanks after the title; null for each when
 * usual or when the line is not read as written (the header `title` must match).
 */
export function calloutHeader(
  line: string,
  depth: number,
  title: string,
): { space: string | null; trailing: string | null } | null {
  const rest = afterQuotes(line, depth);
  const header = rest === null ? null : /^ ?\[![\w-]+\][+-]?(.*)$/.exec(rest);
  if (!header) return null;
  const after = header[1]!;
  const space = /^[ \t]/.test(after) ? after[0]! : '';
  const trailing = /[ \t]*$/.exec(after.slice(space.length))![0];
  if (after.slice(space.length, after.length - trailing.length) !== title) return null;
  const usual = title === '' ? '' : ' ';
  return {
    space: space === usual ? null : space,
    trailing: isTrailing(trailing) ? trailing : null,
  };
}

/**
 * The blanks every blank line of a quote spanning lines [`start`, `end`) holds after its `>`,
 * inside `depth` quotes counting its own, when they all hold the same (`> ` lines, as Obsidian
 * writes them): its `blank` attribute. Null when they differ or hold none.
 */
export function quoteBlank(
  lines: readonly string[],
  start: number,
  end: number,
  depth: number,
): string | null {
  let common: string | null = null;
  for (let k = start; k < end; k++) {
    const blank = blankLine(lines[k]!, depth);
    if (blank === null) continue;
    if (blank === '' || (common !== null && blank !== common)) return null;
    common = blank;
  }
  return common !== null && isTrailing(common) ? common : null;
}

/**
 * How `line`, a line that continues a paragraph, starts when it is lazy: with fewer quote
 * markers than the `depth` quotes around the paragraph, or (outside quotes) fewer columns of
 * blanks than `column`, where the paragraph's container starts its content. Null when it is not.
 */
export function lazyPrefix(line: string, depth: number, column: number | null): string | null {
  const prefix = /^(?:[ \t]*>)*[ \t]*/.exec(line)![0];
  let lazy: boolean;
  if (depth > 0) lazy = prefix.split('>').length - 1 < depth;
  else lazy = column !== null && blanksEnd(line).column < column;
  return lazy && isLazyPrefix(prefix) ? prefix : null;
}

/**
 * The spaces a line inside `depth` quotes starts with beyond the one after the innermost `>`, or
 * null when it does not have all its `>`.
 */
export function quotedIndent(line: string, depth: number): number | null {
  const rest = afterQuotes(line, depth);
  return rest === null ? null : /^ ?( *)/.exec(rest)![1]!.length;
}

/** The blanks between an ATX heading's `#`s and its text on `line`, when not one space. */
export function headingSpace(line: string): string | null {
  const blanks = /^[ \t>]*#{1,6}([ \t]+)\S/.exec(line)?.[1] ?? null;
  return blanks !== null && blanks !== ' ' && isMarkerSpace(blanks) ? blanks : null;
}
