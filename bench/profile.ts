import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AppUnavailableError,
  buildReadableApp,
  importThroughUi,
  openInkwell,
  startApp,
  type RunningApp,
} from './app.ts';
import { withBrowser } from './browser.ts';
import type { CDPSession, Page } from 'playwright-core';
import {
  callPaths,
  mainThreadSelfTimes,
  selfTimes,
  selfTimesBetween,
  top,
  traced,
  type Breakdown,
  type CpuProfile,
} from './cpuProfile.ts';
import type { Fixture, Fixtures } from './fixtures.ts';
import { endHeading } from './headings.ts';
import type { ShownTimings } from './pages/api.ts';
import { buildPages } from './pages/build.ts';
import { skippedReport, type BenchReport } from './report.ts';
import { formatBytes, formatMs, median, p95 } from './stats.ts';
import { secondTab } from './liveKeystroke.ts';
import { placeCaretInMiddle, typeMeasured } from './typing.ts';

const NAME = 'profile';
const SAMPLING_INTERVAL_US = 200;
/**
 * With PROFILE_LIVE=1, the typing is liveKeystroke's steady case instead: into the imported
 * 1.2 MB document, a second tab open on it, that tab's main thread profiled too (the copy every
 * keystroke reaches).
 */
const LIVE = process.env.PROFILE_LIVE === '1';

// Counts React commits through the hook React DevTools would install: every commit while the
// editor has focus makes ReactDOM walk the editor's DOM to save the selection.
const COUNT_REACT_COMMITS = `
  window.benchReactCommits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {}, onCommitFiberRoot() { window.benchReactCommits++; },
  };
`;

/** What happened on the page while `recorded` ran its action. */
interface Recording<T> {
  result: T;
  cpu: CpuProfile;
  trace: unknown[];
  /** The page's `performance.now()` just after the profiler started. */
  pageStart: number;
}

/** Runs `action` under the CPU profiler and a trace of `page`. */
async function recorded<T>(
  cdp: CDPSession,
  page: Page,
  action: () => Promise<T>,
): Promise<Recording<T>> {
  let pageStart = 0;
  let cpu: CpuProfile | undefined;
  const { result, trace } = await traced(cdp, async () => {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await cdp.send('Profiler.start');
    pageStart = await page.evaluate(() => performance.now());
    const done = await action();
    cpu = (await cdp.send('Profiler.stop')).profile as CpuProfile;
    return done;
  });
  return { result, cpu: cpu!, trace, pageStart };
}

function print(title: string, breakdown: Breakdown, count: number): void {
  console.log(title);
  for (const [name, ms] of top(breakdown, count)) {
    console.log(`  ${formatMs(ms).padStart(9)}  ${name}`);
  }
}

/** How many of the costliest functions have their call paths printed, and how far up. */
const PATHS_FOR = 4;
const PATH_DEPTH = 5;

function printRecording(recording: Recording<unknown>): void {
  print('Main thread by trace event (self time):', mainThreadSelfTimes(recording.trace), 12);
  const functions = selfTimes(recording.cpu);
  print('JavaScript by function (self time):', functions, 20);
  for (const [name] of top(functions, PATHS_FOR + 1).filter(([n]) => n !== '(garbage collector)')) {
    print(`Called from (${name}):`, callPaths(recording.cpu, name, PATH_DEPTH), 3);
  }
}

/** Names of the profile's own entries for time outside JavaScript. */
const IDLE = '(idle)';
const NATIVE = '(program)';
const GC = '(garbage collector)';

/**
 * The import's phases between the probe's milestones (ShownTimings), each with its wall time, the
 * main thread's idle time (waiting on the server), native work (layout, paint, parsing), garbage
 * collection, and the functions with the most self time in it.
 */
function printPhases(recording: Recording<ShownTimings>): void {
  const shown = recording.result;
  const milestones: [string, number][] = [
    ['file chosen', 0],
    ['parse started (file read, codec loaded, progress painted)', shown.parseStart],
    ['parsed', shown.parsed],
    ['read-only copy painted', shown.readOnly],
    ['POST /api/documents sent (create)', shown.createSent],
    ['POST /api/documents answered', shown.created],
    ['WebSocket open', shown.socketOpen],
    [`first sync's content received (${formatBytes(shown.syncedBytes)})`, shown.synced],
    ['live editor: heading in the DOM', shown.inDom],
    ['live editor: painted', shown.painted],
  ];
  const reached = milestones.filter(([, at]) => Number.isFinite(at)).sort((a, b) => a[1] - b[1]);
  // Profile time of the import's start.
  const offset = shown.start - recording.pageStart;
  console.log('Phases (wall; idle, native, GC; JavaScript by self time):');
  for (let i = 1; i < reached.length; i++) {
    const [fromName, from] = reached[i - 1]!;
    const [toName, to] = reached[i]!;
    const times = selfTimesBetween(recording.cpu, offset + from, offset + to);
    const of = (name: string) => times.get(name) ?? 0;
    const js = top(
      new Map([...times].filter(([name]) => ![IDLE, NATIVE, GC].includes(name))),
      PHASE_FUNCTIONS,
    );
    console.log(
      `  ${fromName} → ${toName}: ${formatMs(to - from)}; idle ${formatMs(of(IDLE))}, ` +
        `native ${formatMs(of(NATIVE))}, GC ${formatMs(of(GC))}`,
    );
    for (const [name, ms] of js) console.log(`    ${formatMs(ms).padStart(9)}  ${name}`);
    const scripts = top(byScript(times), PHASE_FUNCTIONS)
      .map(([file, ms]) => `${file} ${formatMs(ms)}`)
      .join(', ');
    console.log(`    by script: ${scripts}`);
  }
}

/**
 * Self time grouped by the script it ran in (`name file:line` → file), DOM calls and built-ins
 * (named without a file) as one group; idle and garbage collection left out.
 */
function byScript(times: Breakdown): Breakdown {
  const grouped: Breakdown = new Map();
  for (const [name, ms] of times) {
    if (name === IDLE || name === GC) continue;
    const file = name === NATIVE ? name : (/ (\S+):\d+$/.exec(name)?.[1] ?? '(DOM, built-ins)');
    grouped.set(file, (grouped.get(file) ?? 0) + ms);
  }
  return grouped;
}

/** How many functions each phase lists. */
const PHASE_FUNCTIONS = 10;

/** Imports `fixture` into a new document under the profiler and prints where the time went. */
async function profileImport(cdp: CDPSession, page: Page, fixture: Fixture): Promise<void> {
  const imported = await recorded(cdp, page, () =>
    importThroughUi(page, fixture.path, endHeading(fixture.markdown)),
  );
  console.log(
    `\nImport of ${fixture.name} through the file input, until the live editor shows it: in the ` +
      `DOM at ${formatMs(imported.result.inDom)}, painted at ${formatMs(imported.result.painted)}.`,
  );
  printPhases(imported);
  printRecording(imported);
  await saveProfile(`import ${fixture.name}`, imported.cpu);
}

/** With BENCH_PROFILE_DIR set, keeps `cpu` there as a `.cpuprofile` (DevTools opens it). */
async function saveProfile(name: string, cpu: CpuProfile): Promise<void> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^\w.-]+/g, '-')}.cpuprofile`);
  await writeFile(file, JSON.stringify(cpu));
  console.log(`CPU profile saved: ${file}`);
}

/**
 * Not part of the default run (`npm run bench -- profile`): profiles Inkwell (its own server, an
 * unminified build) importing the 1.2 MB document, then importing the largest one and typing in
 * its middle, to show where the time goes. Prints the functions with the most self time, the
 * main thread's time by trace event, and the React commits made while typing.
 */
export async function profile(fixtures: Fixtures): Promise<BenchReport> {
  const fixture = fixtures.byWords.at(-1);
  if (!fixture) throw new Error('no fixture to type into');
  let app: RunningApp;
  try {
    await buildReadableApp();
    app = await startApp();
  } catch (error) {
    if (!(error instanceof AppUnavailableError)) throw error;
    return skippedReport(NAME, '', error.message);
  }
  const pages = await buildPages();
  try {
    await withBrowser(async (context) => {
      await context.addInitScript({ content: COUNT_REACT_COMMITS });
      const page = await openInkwell(context, app, pages.probePath);
      const cdp = await context.newCDPSession(page);
      await page.evaluate(() => window.benchProbe.settle(500, 10_000));
      await profileImport(cdp, page, fixtures.large);
      if (!LIVE) await profileImport(cdp, page, fixture);
      const typedInto = LIVE ? fixtures.large : fixture;
      const other = LIVE ? await secondTab(context, page.url()) : null;
      const otherCdp = other ? await context.newCDPSession(other) : null;
      if (other) {
        await page.bringToFront();
        await page.evaluate(() => window.benchProbe.settle(500, 20_000));
      }

      const paragraph = await placeCaretInMiddle(page);
      const commits = () => page.evaluate(() => Number(Reflect.get(window, 'benchReactCommits')));
      const commitsBefore = await commits();
      let otherCpu: CpuProfile | null = null;
      const typed = await recorded(cdp, page, async () => {
        if (!otherCdp) return typeMeasured(page, paragraph);
        await otherCdp.send('Profiler.enable');
        await otherCdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
        await otherCdp.send('Profiler.start');
        try {
          return await typeMeasured(page, paragraph);
        } finally {
          otherCpu = (await otherCdp.send('Profiler.stop')).profile as CpuProfile;
        }
      });
      const samples = typed.result;
      console.log(
        `\nTyping ${samples.latencies.length} keys into ${typedInto.name}` +
          `${LIVE ? ', a second tab open' : ''}: ` +
          `keydown→paint p50 ${formatMs(median(samples.latencies))}, ` +
          `p95 ${formatMs(p95(samples.latencies))}, ${samples.longTasks} long tasks, ` +
          `${(await commits()) - commitsBefore} React commits.`,
      );
      printRecording(typed);
      await saveProfile(`typing ${typedInto.name}`, typed.cpu);
      if (otherCpu) {
        await saveProfile(`second tab ${typedInto.name}`, otherCpu);
        const functions = selfTimes(otherCpu);
        print('The second tab meanwhile, JavaScript by function (self time):', functions, 20);
      }
    });
  } finally {
    await app.stop();
  }
  return { name: NAME, baselineName: '', figures: [] };
}
