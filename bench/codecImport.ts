import MarkdownIt from 'markdown-it';
import { parseMarkdown } from '../common/editor/markdown/index.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport } from './report.ts';
import { median } from './stats.ts';

const WARMUP = 3;
const RUNS = 12;
const BASELINE = 'markdown-it render';

/**
 * Markdown import in Node: Inkwell's `parseMarkdown` (Markdown to a ProseMirror document) against
 * markdown-it rendering the same text to HTML, the cost any markdown-it based importer starts from.
 */
export async function codecImport(fixtures: Fixtures): Promise<BenchReport> {
  const { markdown, name } = fixtures.large;
  const markdownIt = new MarkdownIt('default', { html: true, linkify: false, breaks: false });
  const inkwell: number[] = [];
  const baseline: number[] = [];
  let sink = 0;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    // Interleaved, so drift in the machine's speed affects both sides alike.
    let start = performance.now();
    sink += parseMarkdown(markdown).childCount;
    const inkwellMs = performance.now() - start;
    start = performance.now();
    sink += markdownIt.render(markdown).length;
    const baselineMs = performance.now() - start;
    if (run < WARMUP) continue;
    inkwell.push(inkwellMs);
    baseline.push(baselineMs);
  }
  if (sink === 0) throw new Error('parsing produced nothing');
  const figures = [
    {
      label: `parseMarkdown ${name}, median of ${RUNS}`,
      value: median(inkwell),
      baseline: median(baseline),
      unit: 'ms' as const,
      target: 2,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: 'codecImport', baselineName: BASELINE, figures };
}
