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
  unit: 'ms' | 'bytes' | 'per s' | 'count';
  /** The highest acceptable `value / baseline`; figures without one are shown for context. */
  target?: number;
  /** The highest acceptable `value` itself, in its unit (e.g. 0 long tasks). */
  limit?: number;
  /** The highest acceptable `value - baseline`, in the unit (e.g. a gateway's ≤ 5 ms overhead). */
  maxOverhead?: number;
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
  const { target, floor, limit, maxOverhead } = figure;
  if (
    target === undefined &&
    floor === undefined &&
    limit === undefined &&
    maxOverhead === undefined
  ) {
    return '';
  }
  if (!Number.isFinite(figure.value)) return 'n/a';
  const ratio = ratioOf(figure);
  const usesRatio = target !== undefined || floor !== undefined;
  if (usesRatio && !Number.isFinite(ratio)) return 'n/a';
  const overhead = figure.value - figure.baseline;
  if (maxOverhead !== undefined && !Number.isFinite(overhead)) return 'n/a';
  const under = target === undefined || ratio <= target;
  const over = floor === undefined || ratio >= floor;
  const within = limit === undefined || figure.value <= limit;
  const cheap = maxOverhead === undefined || overhead <= maxOverhead;
  return under && over && within && cheap ? 'ok' : 'MISSED';
}

/** The acceptable values of a figure as printed: `≤ 2×`, `≥ 0.8×`, `≤ 0`, `+≤ 5 ms`, or empty. */
function bounds(figure: Figure): string {
  const unit = figure.unit === 'count' ? '' : ` ${figure.unit}`;
  return [
    figure.floor === undefined ? '' : `≥ ${figure.floor}×`,
    figure.target === undefined ? '' : `≤ ${figure.target}×`,
    figure.limit === undefined ? '' : `≤ ${figure.limit}${unit}`,
    figure.maxOverhead === undefined ? '' : `+ ≤ ${figure.maxOverhead}${unit}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** A value in its unit. */
export function formatValue(value: number, unit: Figure['unit']): string {
  if (unit === 'per s') return formatRate(value);
  if (unit === 'count') return Number.isFinite(value) ? String(Math.round(value)) : 'n/a';
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

/**
 * The report of a benchmark that could not run the app (it did not build, or its editor did not
 * appear): the reason printed, and reported as skipped in the summary.
 */
export function skippedReport(name: string, baselineName: string, reason: string): BenchReport {
  console.log(`skipped: ${reason}`);
  return { name, baselineName, figures: [], skipped: reason };
}
