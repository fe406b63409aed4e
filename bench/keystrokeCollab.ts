import type { BrowserContext, Page } from 'playwright-core';
import { openBare, loadBare } from './bare.ts';
import { openPage, withBrowser } from './browser.ts';
import type { Fixtures } from './fixtures.ts';
import { buildPages, pagePath, type BuiltPages } from './pages/build.ts';
import type { KeystrokeSamples } from './pages/api.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatMs, median, p95 } from './stats.ts';
import { placeCaretInMiddle, typeMeasured } from './typing.ts';
import { serveStatic } from './staticServer.ts';

const NAME = 'keystrokeCollab';
const BASELINE = 'bare Tiptap';
/** The 200k-word target of `keystroke`, which collaboration must keep. */
const TARGET = 0.3;
const WORDS = 200_000;
/** Rounds, alternating the three editors, whose samples are pooled. */
const ROUNDS = 2;

async function openCollab(context: BrowserContext, pages: BuiltPages, url: string): Promise<Page> {
  await context.addInitScript({ path: pages.probePath });
  return openPage(
    context,
    `${url}${pagePath('collab')}`,
    () => 'collabBench' in window && 'benchProbe' in window,
  );
}

/**
 * Keystroke latency (keydown to next paint) typing mid-document in the 200k-word fixture:
 * Inkwell's editor bound to a Y.Doc through the collaboration binding (no provider, no network),
 * against the bare Tiptap editor, and for reference the same Inkwell page without collaboration.
 */
export async function keystrokeCollab(fixtures: Fixtures): Promise<BenchReport> {
  const fixture = fixtures.byWords.find((f) => f.nominal === WORDS);
  if (!fixture) throw new Error(`no ${WORDS}-word fixture`);
  const pages = await buildPages();
  const server = await serveStatic(pages.dir);
  const samples: Record<'bare' | 'solo' | 'collab', KeystrokeSamples[]> = {
    bare: [],
    solo: [],
    collab: [],
  };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      samples.bare.push(
        await withBrowser(async (context) => {
          const page = await openBare(context, pages, server.url);
          await loadBare(page, fixture.markdown);
          return typeMeasured(page, await placeCaretInMiddle(page));
        }),
      );
      for (const collaboration of [true, false]) {
        samples[collaboration ? 'collab' : 'solo'].push(
          await withBrowser(async (context) => {
            const page = await openCollab(context, pages, server.url);
            await page.evaluate(([md, on]) => window.collabBench.load(md, on), [
              fixture.markdown,
              collaboration,
            ] as const);
            return typeMeasured(page, await placeCaretInMiddle(page));
          }),
        );
      }
    }
  } finally {
    await server.close();
  }
  const latencies = (key: keyof typeof samples) => samples[key].flatMap((s) => s.latencies);
  const bare = latencies('bare');
  const figures: Figure[] = [];
  for (const [key, name] of [
    ['collab', 'with collaboration'],
    ['solo', 'without (same page)'],
  ] as const) {
    const inkwell = latencies(key);
    console.log(
      `  ${name}: p50 ${formatMs(median(inkwell))}, p95 ${formatMs(p95(inkwell))}; ` +
        `bare p50 ${formatMs(median(bare))}, p95 ${formatMs(p95(bare))}`,
    );
    const target = key === 'collab' ? TARGET : undefined;
    figures.push(
      {
        label: `keydown→paint p50, ${fixture.name}, ${name}`,
        value: median(inkwell),
        baseline: median(bare),
        unit: 'ms',
        target,
      },
      {
        label: `keydown→paint p95, ${fixture.name}, ${name}`,
        value: p95(inkwell),
        baseline: p95(bare),
        unit: 'ms',
        target,
      },
    );
  }
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
