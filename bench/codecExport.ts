import { openPage, withBrowser } from './browser.ts';
import type { Fixture, Fixtures } from './fixtures.ts';
import { buildPages, pagePath } from './pages/build.ts';
import type { ExportTimings } from './pages/api.ts';
import { printFigures, table, type BenchReport, type Figure } from './report.ts';
import { formatBytes, formatMs, formatRatio, median } from './stats.ts';
import { serveStatic } from './staticServer.ts';

const WARMUP = 2;
const RUNS = 11;
const TARGET = 3;
const BASELINE = 'editor.getHTML()';

const VARIANTS = ['plain', 'dense marks'] as const;

interface Measured {
  fixture: Fixture;
  variant: (typeof VARIANTS)[number];
  timings: ExportTimings;
}

/**
 * Markdown export in Chromium: `serializeMarkdown(doc)` against `editor.getHTML()` of the same
 * document, in a headless Inkwell editor, on README text and on a dense-marks variant, at three
 * sizes to show the time grows linearly.
 */
export async function codecExport(fixtures: Fixtures): Promise<BenchReport> {
  const pages = await buildPages();
  const server = await serveStatic(pages.dir);
  try {
    const measured = await withBrowser(async (context) => {
      const page = await openPage(
        context,
        `${server.url}${pagePath('codec')}`,
        () => 'codecBench' in window,
      );
      const cdp = await context.newCDPSession(page);
      const time = async () => {
        // The previous document's garbage would otherwise be collected during the next timings.
        await cdp.send('HeapProfiler.collectGarbage');
        return page.evaluate(([runs, warmup]) => window.codecBench.time(runs, warmup), [
          RUNS,
          WARMUP,
        ] as const);
      };
      // Both variants of the largest document once, so that no size is measured on cold code.
      for (const dense of [false, true]) {
        await page.evaluate(([md, d]) => window.codecBench.load(md, d), [
          fixtures.large.markdown,
          dense,
        ] as const);
        await page.evaluate((warmup) => window.codecBench.time(0, warmup), WARMUP);
      }
      const results: Measured[] = [];
      for (const fixture of fixtures.bySize) {
        for (const variant of VARIANTS) {
          await page.evaluate(([md, dense]) => window.codecBench.load(md, dense), [
            fixture.markdown,
            variant === 'dense marks',
          ] as const);
          results.push({ fixture, variant, timings: await time() });
        }
      }
      return results;
    });
    return report(measured);
  } finally {
    await server.close();
  }
}

function report(measured: readonly Measured[]): BenchReport {
  const rows: string[][] = [
    [
      'document',
      'serializeMarkdown',
      'per MB',
      'getHTML',
      'per MB',
      'ratio',
      'Markdown / HTML size',
    ],
  ];
  for (const { fixture, variant, timings } of measured) {
    const serialize = median(timings.serialize);
    const html = median(timings.getHTML);
    const mb = fixture.bytes / 1_000_000;
    rows.push([
      `${fixture.name} ${variant}`,
      formatMs(serialize),
      formatMs(serialize / mb),
      formatMs(html),
      formatMs(html / mb),
      formatRatio(serialize / html),
      `${formatBytes(timings.markdownLength)} / ${formatBytes(timings.htmlLength)}`,
    ]);
  }
  console.log(`Scaling (medians of ${RUNS}; linear export keeps "per MB" flat):`);
  console.log(table(rows));
  console.log();

  const figures: Figure[] = measured.map(({ fixture, variant, timings }) => ({
    label: `serializeMarkdown ${fixture.name} ${variant}`,
    value: median(timings.serialize),
    baseline: median(timings.getHTML),
    unit: 'ms',
    target: TARGET,
  }));
  for (const variant of VARIANTS) {
    const ofVariant = measured.filter((m) => m.variant === variant);
    const first = ofVariant[0];
    const last = ofVariant[ofVariant.length - 1];
    if (!first || !last || first === last) continue;
    const growth = median(last.timings.serialize) / median(first.timings.serialize);
    const sizeGrowth = last.fixture.bytes / first.fixture.bytes;
    console.log(
      `${variant}: ${first.fixture.name} → ${last.fixture.name} is ${sizeGrowth.toFixed(1)}× the text; ` +
        `serializeMarkdown took ${growth.toFixed(1)}× as long, getHTML ` +
        `${(median(last.timings.getHTML) / median(first.timings.getHTML)).toFixed(1)}×.`,
    );
  }
  printFigures(figures, BASELINE);
  return { name: 'codecExport', baselineName: BASELINE, figures };
}
