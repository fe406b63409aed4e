import { formatBytes, formatMs, formatRate, formatRatio } from './stats.ts';

/** One measured figure of Inkwell, next to the same figure of its baseline from the same run. */
export interface Figure {
  /** What was measured, e.g. `import 1.2 MB, median`. */
  label: string;
  /** Inkwell's value. */
  value: number;
  /** The baseline's value. */
  baseline: number;
  /** The unit of both values. */
  unit: 'ms' | 'bytes' | 'per s';
  /** The highest acceptable `value / baseline`; figures without one are shown for context. */
  target?: number;
  /** The lowest acceptable `value / baseline`, for figures where more is better (throughput). */
  floor?: number;
}

/** What one benchmark hands back to `run.ts` for the summary. */
export interface BenchReport {
  /** The benchmark's name, as given on the command line. */
  name: string;
  /** What Inkwell is compared with. */
  baselineName: string;
  /** The figures, in the order they were printed. */
  figures: Figure[];
  /** Why the benchmark did not run, when it could not (for example the app does not build). */
  skipped?: string;
}

/** `value / baseline` of a figure. */
export function ratioOf(figure: Figure): number {
  return figure.value / figure.baseline;
}

/** `ok`, `MISSED` or an empty string when the figure has no target. */
export function verdict(figure: Figure): string {
  if (figure.target === undefined && figure.floor === undefined) return '';
  const ratio = ratioOf(figure);
  if (!Number.isFinite(ratio)) return 'n/a';
  const under = figure.target === undefined || ratio <= figure.target;
  const over = figure.floor === undefined || ratio >= figure.floor;
  return under && over ? 'ok' : 'MISSED';
}

/** The acceptable ratios of a figure as printed: `≤ 2×`, `≥ 0.8×`, or empty. */
function bounds(figure: Figure): string {
  return [
    figure.floor === undefined ? '' : `≥ ${figure.floor}×`,
    figure.target === undefined ? '' : `≤ ${figure.target}×`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A value in its unit. */
export function formatValue(value: number, unit: Figure['unit']): string {
  if (unit === 'per s') return formatRate(value);
  return unit === 'ms' ? formatMs(value) : formatBytes(value);
}

/** Lays out rows as a text table, the first row being the header; `left` columns align left. */
export function table(rows: readonly string[][], left = 1): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i < left ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  const [header, ...body] = rows;
  if (!header) return '';
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** The rows of `table` for some figures: label, Inkwell, baseline, ratio, target, verdict. */
export function figureRows(figures: readonly Figure[], baselineName: string): string[][] {
  return [
    ['figure', 'Inkwell', baselineName, 'ratio', 'target', ''],
    ...figures.map((f) => [
      f.label,
      formatValue(f.value, f.unit),
      formatValue(f.baseline, f.unit),
      formatRatio(ratioOf(f)),
      bounds(f),
      verdict(f),
    ]),
  ];
}

/** Prints a benchmark's figures as they come in. */
export function printFigures(figures: readonly Figure[], baselineName: string): void {
  console.log(table(figureRows(figures, baselineName)));
}
