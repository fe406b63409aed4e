import type { Node as PMNode } from '@tiptap/pm/model';
import { isDelimiterRow, isRowLine } from '../nodes/sourceSyntax.ts';
import { parseMarkdown } from './parseMarkdown.ts';

/**
 * A GFM table row or delimiter row as the file wrote it (its padding, its outer pipes), kept on
 * the table and its rows at import so that export can write an untouched row back byte for byte
 * (docs/PRODUCT.md, "Markdown"). A kept line is only used while it still says what the row holds.
 */

/** The cells of a table line, split at pipes no backslash escapes, outer pipes left out. */
export function splitRow(line: string): string[] {
  const cells = line.trim().split(/(?<!\\)\|/);
  if (cells.length > 1 && cells[0]!.trim() === '') cells.shift();
  if (cells.length > 1 && cells[cells.length - 1]!.trim() === '') cells.pop();
  return cells;
}

/** The table's delimiter row as written, when it has `width` columns with these alignments. */
export function writtenDelimiter(
  table: PMNode,
  aligns: ReadonlyArray<string | null>,
  width: number,
): string | null {
  const kept = table.attrs.delimiter as unknown;
  if (!isDelimiterRow(kept)) return null;
  const cells = splitRow(kept).map((cell) => cell.trim());
  if (cells.length !== width) return null;
  const same = cells.every((cell, i) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    const align = left && right ? 'center' : right ? 'right' : left ? 'left' : null;
    return align === (aligns[i] ?? null);
  });
  return same ? kept : null;
}

/**
 * The row's line as written, when its cells still hold what `row` holds: each the text export
 * would write (`written`), or Markdown that reads back as the same content.
 */
export function writtenRow(row: PMNode, written: readonly string[], width: number): string | null {
  const kept = row.attrs.markdown as unknown;
  if (!isRowLine(kept) || /^ {4}/.test(kept)) return null;
  const cells = splitRow(kept).map((cell) => cell.trim());
  // A row may leave out cells at its end, which are empty (a line of text under a table is one).
  if (cells.length > width || written.slice(cells.length).some((cell) => cell !== '')) return null;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] === (written[i] ?? '')) continue;
    const cell = i < row.childCount ? row.child(i) : null;
    if (!cell || !readsAs(cells[i]!, cell)) return null;
  }
  return kept;
}

/** True when the Markdown of a cell reads back as the content of `cell`. */
function readsAs(markdown: string, cell: PMNode): boolean {
  const paragraph = cell.childCount === 1 ? cell.firstChild : null;
  if (paragraph?.type.name !== 'paragraph') return false;
  // Read as the one cell of a table, the way a row's cell is read.
  const doc = parseMarkdown(`|${markdown}|\n|-|\n`);
  const table = doc.childCount === 1 ? doc.firstChild : null;
  const read = table?.type.name === 'table' ? table.firstChild?.firstChild?.firstChild : null;
  return read?.type.name === 'paragraph' && read.content.eq(paragraph.content);
}
