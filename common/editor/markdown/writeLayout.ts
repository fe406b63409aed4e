import { blanksEnd } from './sourceLayout.ts';

/**
 * Writing the blanks and blank lines a file laid its blocks out with (sourceLayout.ts reads
 * them): blank lines that hold blanks, and list items whose continuation lines start with a tab.
 */

/**
 * Opens a blank line that holds blanks after whatever prefix its containers give it (`> `, a
 * list's indent). The containers prefix it like any line; {@link placeBlanks} then puts the blanks
 * right after the prefix less its own trailing blanks, so `> ` and ` ` lines come back as written.
 * A NUL never reaches a document from an import (decode.ts refuses it); one that holds one (or
 * the mark below) anyway is written without such lines.
 */
const MARK = '\u0000';
/**
 * Opens a line that continues a paragraph lazily: {@link placeBlanks} drops the prefix its
 * containers give it, for the blanks and `>` the file wrote (fewer than the containers').
 */
const LAZY = '\u0001';

/** Writes the lines whose prefix is the file's own, unless the document holds a mark itself. */
export class BlankLines {
  private readonly enabled: boolean;
  /**
   * How many marks the written text holds: a writer that throws a written piece away sets it
   * back to what it was before the piece.
   */
  marks = 0;

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  /** One blank line holding `blanks`, to be prefixed by its containers. */
  line(blanks: string): string {
    if (blanks === '' || !this.enabled) return '';
    this.marks++;
    return MARK + blanks;
  }

  /** The start of a line that continues a paragraph lazily, after `prefix` alone. */
  lazy(prefix: string): string {
    if (!this.enabled) return '';
    this.marks++;
    return LAZY + prefix;
  }

  /** The separator that a `gap` attribute (sourceSyntax.ts) stands for. */
  gap(gap: string): string {
    const lines = gap.slice(1, -1).split('\n');
    return `\n${lines.map((blanks) => this.line(blanks)).join('\n')}\n`;
  }

  /** The lines that an `end` attribute stands for (blank lines after a quote's last block). */
  end(end: string): string {
    if (end === '') return '';
    return `\n${end
      .slice(1)
      .split('\n')
      .map((blanks) => this.line(blanks))
      .join('\n')}`;
  }

  /**
   * `text`, the document written, with every line opened by {@link line} or {@link lazy}
   * finished: a blank line's prefix less trailing blanks, then its own blanks; a lazy line's
   * prefix dropped. Null when `text` holds more marks than were written, so the document holds
   * one of its own: it must be written without them.
   */
  placeBlanks(text: string): string | null {
    if (this.marks === 0) return text;
    // Each marked line is found by its mark; the text between is copied as it is.
    let out = '';
    let from = 0;
    let found = 0;
    let blank = text.indexOf(MARK);
    let lazy = text.indexOf(LAZY);
    while (blank >= 0 || lazy >= 0) {
      if (++found > this.marks) return null;
      const isBlank = lazy < 0 || (blank >= 0 && blank < lazy);
      const at = isBlank ? blank : lazy;
      const lineStart = text.lastIndexOf('\n', at) + 1;
      out += text.slice(from, lineStart) + (isBlank ? text.slice(lineStart, at).trimEnd() : '');
      from = at + 1;
      if (isBlank) blank = text.indexOf(MARK, from);
      else lazy = text.indexOf(LAZY, from);
    }
    return found === this.marks ? out + text.slice(from) : null;
  }
}

/** `text` without the marks that open lines (see {@link BlankLines}), as Markdown reads it. */
export function withoutMarks(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000\u0001]/g, '');
}

/** True for a line whose prefix {@link BlankLines.placeBlanks} will rewrite. */
function isMarked(line: string): boolean {
  return line.includes(MARK) || line.includes(LAZY);
}

/**
 * The lines of a list item's `content` after its first, each prefixed by `rest` (spaces to the
 * item's content column) or, when the list's items start their lines with `prefix` (a tab), by
 * that instead: `prefix` reaches `extra` columns past the content column from the item's first
 * column `start`, so it stands for `rest` and the first `extra` spaces of every line. When a line
 * does not start with that many (an edit put it there), the item is written with spaces.
 */
export function continuationLines(
  content: string,
  first: string,
  rest: string,
  literal: { lead: string; prefix: string; extra: number } | null,
): string {
  const lines = content.split('\n');
  const restTrim = rest.trimEnd();
  const spaces = literal ? ' '.repeat(literal.extra) : '';
  const fits =
    literal !== null &&
    lines.every((line, i) => i === 0 || line === '' || isMarked(line) || line.startsWith(spaces));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === 0) lines[i] = line === '' ? first.trimEnd() : first + line;
    else if (line === '') lines[i] = restTrim;
    else if (fits && !isMarked(line)) {
      lines[i] = literal.lead + literal.prefix + line.slice(literal.extra);
    } else lines[i] = rest + line;
  }
  return lines.join('\n');
}

/**
 * How far past an item's content column its list's `prefix` reaches when the item starts at
 * column `start` with its content `width` columns in, or null when it falls short of it.
 */
export function prefixExtra(prefix: string, start: number, width: number): number | null {
  const extra = blanksEnd(prefix, start).column - start - width;
  return extra >= 0 ? extra : null;
}
