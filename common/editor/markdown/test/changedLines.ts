/**
 * Rewrites that Inkwell's export makes on purpose (docs/PRODUCT.md, "Markdown"): a line that only
 * differs by one of these is not counted as changed.
 */
const INTENDED: Array<(line: string) => string> = [
  // `*` and `+` bullets are written as `-` (a thematic break such as `* * *` is no bullet).
  (line) =>
    /^[ \t>]*([*+])(?:[ \t]*\1){2,}[ \t]*$/.test(line)
      ? line
      : line.replace(/^([ \t]*(?:>[ \t]?)*[ \t]*)[*+](?=[ \t]|$)/, '$1-'),
];

/** `line` with every intended rewrite applied. */
export function normaliseLine(line: string): string {
  return INTENDED.reduce((text, rewrite) => rewrite(text), line);
}

/** The length of the longest common subsequence of two lists of lines. */
export function commonLines(a: readonly string[], b: readonly string[]): number {
  // Equal heads and tails are common whatever lies between; trimming them keeps the table small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  let previous = new Uint32Array(y.length + 1);
  let current = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      current[j] =
        x[i - 1] === y[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return head + tail + previous[y.length]!;
}

/** How many of a source's lines a round trip changes, after the intended rewrites. */
export interface LineChange {
  /** Lines in the source. */
  lines: number;
  /** Source lines that have no counterpart in the output's line diff. */
  changed: number;
}

/**
 * Compares `source` with its round-tripped `output` line by line (an LCS line diff, as `diff`
 * shows it) and counts the source lines that were changed or removed.
 */
export function changedLines(source: string, output: string): LineChange {
  const split = (text: string) => text.replace(/\n$/, '').split('\n').map(normaliseLine);
  const before = split(source);
  const after = split(output);
  return { lines: before.length, changed: before.length - commonLines(before, after) };
}
