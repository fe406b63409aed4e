import {
  AppUnavailableError,
  importThroughUi,
  openInkwell,
  startApp,
  type RunningApp,
} from './app.ts';
import { loadBare, openBare } from './bare.ts';
import { withBrowser } from './browser.ts';
import type { Fixtures } from './fixtures.ts';
import { endHeading } from './headings.ts';
import { buildPages } from './pages/build.ts';
import type { ShownTimings } from './pages/api.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatMs, median } from './stats.ts';
import { serveStatic } from './staticServer.ts';

const NAME = 'uiImport';
const BASELINE = 'bare setContent';
const RUNS = 5;
const TARGET = 0.5;

function skipped(error: AppUnavailableError): BenchReport {
  console.log(`skipped: ${error.message}`);
  return { name: NAME, baselineName: BASELINE, figures: [], skipped: error.message };
}

/**
 * Import of the 1.2 MB document until it is shown: the built app, from the file input's change
 * to the document's end painted, against a bare Tiptap editor's `setContent(markdown)` until
 * painted. Each run in a fresh browser profile, so Inkwell's document starts empty.
 */
export async function uiImport(fixtures: Fixtures): Promise<BenchReport> {
  const { large } = fixtures;
  const pages = await buildPages();
  let app: RunningApp;
  try {
    app = await startApp();
  } catch (error) {
    if (error instanceof AppUnavailableError) return skipped(error);
    throw error;
  }
  const pagesServer = await serveStatic(pages.dir);
  const heading = endHeading(large.markdown);
  const inkwell: ShownTimings[] = [];
  const bare: number[] = [];
  try {
    console.log(`Inkwell served by ${app.servedBy}; watching for the heading "${heading}".`);
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so drift in the machine's speed affects both sides alike.
      bare.push(
        await withBrowser(async (context) => {
          const page = await openBare(context, pages, pagesServer.url);
          await page.evaluate(() => window.benchProbe.settle(500, 10_000));
          return loadBare(page, large.markdown);
        }),
      );
      inkwell.push(
        await withBrowser(async (context) => {
          const page = await openInkwell(context, app, pages.probePath);
          await page.evaluate(() => window.benchProbe.settle(500, 10_000));
          return importThroughUi(page, large.path, heading);
        }),
      );
      const [shown, painted] = [inkwell.at(-1), bare.at(-1)];
      console.log(
        `  run ${run + 1}: Inkwell ${formatMs(shown?.painted ?? NaN)} ` +
          `(in the DOM at ${formatMs(shown?.inDom ?? NaN)}), bare ${formatMs(painted ?? NaN)}`,
      );
    }
  } catch (error) {
    if (error instanceof AppUnavailableError) return skipped(error);
    throw error;
  } finally {
    await pagesServer.close();
    await app.stop();
  }
  const figures: Figure[] = [
    {
      label: `import ${large.name} until painted, median of ${RUNS}`,
      value: median(inkwell.map((t) => t.painted)),
      baseline: median(bare),
      unit: 'ms',
      target: TARGET,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
