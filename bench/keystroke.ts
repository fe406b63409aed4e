import type { Page } from 'playwright-core';
import {
  AppUnavailableError,
  expectSavedOnServer,
  importThroughUi,
  openInkwell,
  startApp,
  type RunningApp,
} from './app.ts';
import { openBare, loadBare } from './bare.ts';
import { withBrowser } from './browser.ts';
import type { Fixture, Fixtures } from './fixtures.ts';
import { endHeading } from './headings.ts';
import { buildPages, type BuiltPages } from './pages/build.ts';
import type { KeystrokeSamples } from './pages/api.ts';
import { printFigures, skippedReport, table, type BenchReport, type Figure } from './report.ts';
import { formatMs, max, median, p95 } from './stats.ts';
import { KEY_DELAY_MS, placeCaretInMiddle, TEXT, typeMeasured, WARMUP_TEXT } from './typing.ts';
import { serveStatic } from './staticServer.ts';

const NAME = 'keystroke';
const BASELINE = 'bare Tiptap';
/** Targets by word count: Inkwell's latency over the bare editor's. */
const TARGETS: Record<number, number> = { 30_000: 1, 200_000: 0.3 };
/** Rounds per size, alternating the editors, whose samples are pooled. */
const ROUNDS = 2;

interface SizeResult {
  fixture: Fixture;
  bare: KeystrokeSamples;
  inkwell: KeystrokeSamples;
}

async function typeIn(page: Page): Promise<KeystrokeSamples> {
  return typeMeasured(page, await placeCaretInMiddle(page));
}

/** The samples of several rounds as one. */
function pool(rounds: readonly KeystrokeSamples[]): KeystrokeSamples {
  const pooled: KeystrokeSamples = {
    latencies: [],
    frameWaits: [],
    eventMax: {},
    slowEvents: 0,
    longTasks: 0,
    longTaskMs: 0,
  };
  for (const round of rounds) {
    pooled.latencies.push(...round.latencies);
    pooled.frameWaits.push(...round.frameWaits);
    for (const [type, ms] of Object.entries(round.eventMax)) {
      pooled.eventMax[type] = Math.max(pooled.eventMax[type] ?? 0, ms);
    }
    pooled.slowEvents += round.slowEvents;
    pooled.longTasks += round.longTasks;
    pooled.longTaskMs += round.longTaskMs;
  }
  return pooled;
}

async function measureSize(
  fixture: Fixture,
  app: RunningApp,
  pages: BuiltPages,
  pagesUrl: string,
): Promise<SizeResult> {
  const heading = endHeading(fixture.markdown);
  const bare: KeystrokeSamples[] = [];
  const inkwell: KeystrokeSamples[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(
      await withBrowser(async (context) => {
        const page = await openBare(context, pages, pagesUrl);
        await loadBare(page, fixture.markdown);
        return typeIn(page);
      }),
    );
    inkwell.push(
      await withBrowser(async (context) => {
        const page = await openInkwell(context, app, pages.probePath);
        // Resolves once the editor on the live shared document shows it (waitForLiveEditor):
        // each key then goes through the collaboration binding and the provider to the server.
        await importThroughUi(page, fixture.path, heading);
        const samples = await typeIn(page);
        await expectSavedOnServer(page, WARMUP_TEXT + TEXT.trimEnd());
        return samples;
      }),
    );
  }
  return { fixture, bare: pool(bare), inkwell: pool(inkwell) };
}

/** The longest Event Timing entry, NaN when none reached the 16 ms threshold. */
function eventMax(samples: KeystrokeSamples): number {
  const durations = Object.values(samples.eventMax);
  return durations.length === 0 ? Number.NaN : Math.max(...durations);
}

function detailRows(results: readonly SizeResult[]): string[][] {
  const rows = [
    ['document', 'editor', 'p50', 'p95', 'max', 'Event Timing max', '≥16 ms events', 'long tasks'],
  ];
  for (const { fixture, bare, inkwell } of results) {
    for (const [name, s] of [
      ['Inkwell', inkwell],
      [BASELINE, bare],
    ] as const) {
      const events = Object.entries(s.eventMax)
        .map(([type, ms]) => `${type} ${Math.round(ms)}`)
        .join(', ');
      rows.push([
        fixture.name,
        name,
        formatMs(median(s.latencies)),
        formatMs(p95(s.latencies)),
        formatMs(max(s.latencies)),
        events === '' ? '< 16 ms' : events,
        String(s.slowEvents),
        `${s.longTasks} (${Math.round(s.longTaskMs)} ms)`,
      ]);
    }
  }
  return rows;
}

/**
 * Keystroke latency, keydown to next paint, typing in the middle of documents of 3.5k, 30k and
 * 200k words: the built app (document imported through its UI, typed into once its editor is on
 * the live shared document, and checked stored by the server afterwards) against a bare Tiptap
 * editor with tiptap-markdown.
 */
export async function keystroke(fixtures: Fixtures): Promise<BenchReport> {
  const pages = await buildPages();
  let app: RunningApp;
  try {
    app = await startApp();
  } catch (error) {
    if (error instanceof AppUnavailableError) {
      return skippedReport(NAME, BASELINE, error.message);
    }
    throw error;
  }
  const pagesServer = await serveStatic(pages.dir);
  const results: SizeResult[] = [];
  try {
    console.log(
      `Inkwell served by ${app.servedBy}; ${ROUNDS} rounds of ${TEXT.length} keys per editor and ` +
        `size, each key held ${KEY_DELAY_MS} ms; samples pooled. Inkwell is typed into live ` +
        `(collaboration on, its own server), and the typed text checked on the server after.`,
    );
    for (const fixture of fixtures.byWords) {
      results.push(await measureSize(fixture, app, pages, pagesServer.url));
      console.log(`  ${fixture.name} done`);
    }
  } catch (error) {
    if (error instanceof AppUnavailableError) {
      return skippedReport(NAME, BASELINE, error.message);
    }
    throw error;
  } finally {
    await pagesServer.close();
    await app.stop();
  }
  console.log(table(detailRows(results), 2));
  console.log();
  const figures: Figure[] = [];
  for (const { fixture, bare, inkwell } of results) {
    const target = TARGETS[fixture.nominal];
    figures.push(
      {
        label: `keydown→paint p50, ${fixture.name}`,
        value: median(inkwell.latencies),
        baseline: median(bare.latencies),
        unit: 'ms',
        target,
      },
      {
        label: `keydown→paint p95, ${fixture.name}`,
        value: p95(inkwell.latencies),
        baseline: p95(bare.latencies),
        unit: 'ms',
        target,
      },
      {
        label: `Event Timing max, ${fixture.name}`,
        value: eventMax(inkwell),
        baseline: eventMax(bare),
        unit: 'ms',
      },
    );
  }
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
