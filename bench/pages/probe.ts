import {
  TOP_LEVEL_PARAGRAPHS,
  type BenchProbe,
  type HistoryStep,
  type KeystrokeSamples,
  type ShownTimings,
  type StepTimings,
} from './api.ts';
import { afterPaint, afterPaintOfFrame } from './afterPaint.ts';

// Installed before any page script (Playwright's addInitScript), so its keydown listener runs
// first and the observers see everything from the start of a measurement.

const EVENT_TYPES = new Set(['keydown', 'keypress', 'beforeinput', 'input']);
/** How many top-level blocks from the end are searched for the watched heading. */
const TAIL_BLOCKS = 400;
/** Shortest paragraph to type into: long enough to be ordinary prose. */
const MIN_PARAGRAPH_CHARS = 60;

let recording = false;
let latencies: number[] = [];
let frameWaits: number[] = [];
let eventMax: Record<string, number> = {};
let slowEvents = 0;
let longTasks = 0;
let longTaskMs = 0;
let fileChosenAt: number | null = null;
/** When the last long task ended, to tell when the page has settled. */
let lastBusy = 0;

window.addEventListener(
  'keydown',
  (event) => {
    if (!recording) return;
    // From when the key was pressed, not when the page got to it: a busy page makes a key wait
    // before its handlers run, and the writer waits all the same.
    const start = event.timeStamp;
    void afterPaintOfFrame().then(({ frame, painted }) => {
      latencies.push(painted - start);
      frameWaits.push(frame - start);
    });
  },
  { capture: true },
);

document.addEventListener(
  'change',
  (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') {
      fileChosenAt = performance.now();
    }
  },
  { capture: true },
);

// A file dropped on the page: the import's start as the writer sees it (the drop).
document.addEventListener(
  'drop',
  (event) => {
    if (event.dataTransfer?.types.includes('Files')) fileChosenAt = performance.now();
  },
  { capture: true },
);

new PerformanceObserver((list) => {
  if (!recording) return;
  for (const entry of list.getEntries()) {
    if (!EVENT_TYPES.has(entry.name)) continue;
    slowEvents++;
    eventMax[entry.name] = Math.max(eventMax[entry.name] ?? 0, entry.duration);
  }
}).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);

/** Every long task of the page (a page is measured for minutes: a few hundred at most). */
const longTaskLog: { start: number; duration: number }[] = [];

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    lastBusy = Math.max(lastBusy, entry.startTime + entry.duration);
    longTaskLog.push({ start: entry.startTime, duration: entry.duration });
    if (!recording) continue;
    longTasks++;
    longTaskMs += entry.duration;
  }
}).observe({ type: 'longtask' });

/** What ran in each long animation frame (Chromium's LoAF): to tell what a long task was. */
const frameLog: { start: number; duration: number; scripts: string[] }[] = [];

interface LongFrame {
  startTime: number;
  duration: number;
  styleAndLayoutStart: number;
  forcedStyleAndLayoutDuration?: number;
  scripts?: {
    invoker: string;
    sourceFunctionName: string;
    sourceURL: string;
    duration: number;
    forcedStyleAndLayoutDuration?: number;
  }[];
}

try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const frame = entry as unknown as LongFrame;
      const end = frame.startTime + frame.duration;
      frameLog.push({
        start: frame.startTime,
        duration: frame.duration,
        scripts: [
          ...(frame.scripts ?? [])
            .filter((script) => script.duration >= 5)
            .map(
              (script) =>
                `${script.invoker}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ''}` +
                ` (${script.sourceURL.split('/').pop() ?? ''}) ${Math.round(script.duration)} ms`,
            ),
          `style and layout ${Math.round(end - frame.styleAndLayoutStart)} ms` +
            ` (forced in scripts ${Math.round(frame.forcedStyleAndLayoutDuration ?? 0)} ms)`,
        ],
      });
    }
  }).observe({ type: 'long-animation-frame' });
} catch {
  // A browser without long animation frames: long tasks are reported without what ran.
}

/** What ran in the long animation frames overlapping [start, start + duration]. */
function scriptsDuring(start: number, duration: number): string[] {
  return frameLog
    .filter((frame) => frame.start < start + duration && frame.start + frame.duration > start)
    .flatMap((frame) => frame.scripts);
}

/** Messages received over the page's WebSockets: when, and how many bytes. */
let socketMessages: { at: number; bytes: number }[] = [];
/** When each WebSocket opened. */
let socketsOpened: number[] = [];

/**
 * The page's WebSocket, timed: the live document's connection and first sync are part of what an
 * import costs (the provider makes its socket with whatever `WebSocket` is when it connects).
 */
class TimedWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    this.addEventListener('open', () => socketsOpened.push(performance.now()));
    this.addEventListener('message', (event: MessageEvent<unknown>) => {
      const { data } = event;
      const bytes =
        data instanceof ArrayBuffer ? data.byteLength : data instanceof Blob ? data.size : 0;
      socketMessages.push({ at: performance.now(), bytes });
    });
  }
}
window.WebSocket = TimedWebSocket;

/** Each `POST /api/documents` the page made: when it was sent and when its answer came. */
let creates: { sent: number; answered: number }[] = [];

function isCreate(method: string, url: string): boolean {
  return method === 'POST' && new URL(url, location.href).pathname === '/api/documents';
}

/** A version-history request of the page (common/api/versions.ts). */
const VERSIONS_REQUEST = /\/api\/documents\/[^/]+\/versions/;
// A page measured for minutes loads more than the default 250 resources it would remember.
performance.setResourceTimingBufferSize(10_000);
/** What the page posted to its workers and what they answered, by when and the worker's script. */
const workerEvents: { script: string; kind: 'posted' | 'answered'; at: number }[] = [];

/** The page's `fetch`, timing document creation (small bodies are sent by the page itself). */
const pageFetch = window.fetch.bind(window);
window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  if (!isCreate(method, url)) return pageFetch(input, init);
  const create = { sent: performance.now(), answered: Number.NaN };
  creates.push(create);
  const response = await pageFetch(input, init);
  create.answered = performance.now();
  return response;
};

/** What the app's fetch worker is sent (client/lib/offThreadFetch.ts), as far as read here. */
interface WorkerRequest {
  id?: unknown;
  url?: unknown;
  init?: { method?: unknown };
}

/**
 * The page's workers, timing the creates the app's fetch worker sends (a large body, such as an
 * imported document's, goes through it): from the request posted to the worker to its reply.
 */
class TimedWorker extends Worker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    const script = String(url);
    const waiting = new Map<unknown, { sent: number; answered: number }>();
    const post = this.postMessage.bind(this) as (message: unknown, options?: object) => void;
    Object.defineProperty(this, 'postMessage', {
      value: (message: unknown, transfer?: object) => {
        const request = (message ?? {}) as WorkerRequest;
        const method = request.init?.method;
        if (typeof method === 'string' && typeof request.url === 'string') {
          if (isCreate(method, request.url)) {
            const create = { sent: performance.now(), answered: Number.NaN };
            creates.push(create);
            waiting.set(request.id, create);
          }
        }
        workerEvents.push({ script, kind: 'posted', at: performance.now() });
        post(message, transfer);
      },
    });
    this.addEventListener('message', (event: MessageEvent<{ id?: unknown } | null>) => {
      workerEvents.push({ script, kind: 'answered', at: performance.now() });
      const create = waiting.get(event.data?.id);
      if (!create) return;
      create.answered = performance.now();
      waiting.delete(event.data?.id);
    });
  }
}
window.Worker = TimedWorker;

/** The last create sent at or after `since`, NaN for each part when none. */
function createOf(since: number): { sent: number; answered: number } {
  return (
    creates.filter((c) => c.sent >= since).at(-1) ?? { sent: Number.NaN, answered: Number.NaN }
  );
}

/**
 * The editors in the page, kept up to date by the browser: a `querySelectorAll` each frame walked
 * the whole document's DOM, which cost the page measured about half a second over an import.
 */
const editors = document.getElementsByClassName('ProseMirror');

/** Whether the heading is among the last blocks of an editable editor, a read-only one, or none. */
function headingIn(text: string): 'editable' | 'readOnly' | null {
  let found: 'readOnly' | null = null;
  for (const editor of editors) {
    if (!hasHeading(editor, text)) continue;
    if (editor.getAttribute('contenteditable') === 'true') return 'editable';
    found = 'readOnly';
  }
  return found;
}

function hasHeading(editor: Element, text: string): boolean {
  // Inkwell's editor holds its blocks in chunks (the last may hold only a few, so the walk goes
  // on into the chunks before it); the bare editor holds them directly.
  let seen = 0;
  for (let top = editor.lastElementChild; top && seen < TAIL_BLOCKS;) {
    const chunked = top.classList.contains('ink-chunk');
    let block = chunked ? top.lastElementChild : top;
    while (block && seen < TAIL_BLOCKS) {
      if (/^H[1-6]$/.test(block.tagName) && block.textContent?.trim() === text) return true;
      seen++;
      block = chunked ? block.previousElementSibling : null;
    }
    top = top.previousElementSibling;
  }
  return false;
}

let shownPromise: Promise<ShownTimings> | null = null;

/** The longest long task that started in [from, to], 0 when none. */
function longestTask(from: number, to = Infinity): number {
  return longTaskLog
    .filter((task) => task.start >= from && task.start <= to)
    .reduce((longest, task) => Math.max(longest, task.duration), 0);
}

/** Read by live collections, each frame: a selector would walk the page's whole document. */
const versionRows = document.getElementsByClassName('ink-history__version');
const historyViews = document.getElementsByClassName('ink-history__view');
const compareBars = document.getElementsByClassName('ink-compare__bar');
/** The accessible name of a compared document (compare/ComparedVersion.tsx). */
const COMPARED = /^Changes from /;
/** A comparison's change count as the bar says it (the count may have thousands separators). */
const CHANGE_COUNT = /\d+ changes?\b|No changes/;
/** The script of the history panel's compare worker (client/features/history/compare/). */
const COMPARE_WORKER = /compare\.worker/;
/** How much of a preview's leading text is read to find the document's first words. */
const LEADING_CHARS = 400;

/** The first characters of text under `root`, read without walking a whole document. */
function leadingText(root: Element): string {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let text = '';
  while (text.length < LEADING_CHARS && walker.nextNode()) {
    text += walker.currentNode.textContent ?? '';
  }
  return text;
}

/** Whether the editor under `host` shows `text` among its first words. */
function showsText(host: Element | undefined, text: string): boolean {
  const editor = host?.getElementsByClassName('ProseMirror')[0];
  // A long document is drawn a part at a time (aria-busy meanwhile): counted until all is drawn.
  const drawing = host?.querySelector('[aria-busy="true"]');
  return editor !== undefined && !drawing && leadingText(editor).includes(text);
}

/** Whether the history view shows a compared document, all of it drawn, with `text` first. */
function showsComparison(text: string): boolean {
  const editor = historyViews[0]?.getElementsByClassName('ProseMirror')[0];
  return (
    COMPARED.test(editor?.getAttribute('aria-label') ?? '') && showsText(historyViews[0], text)
  );
}

/** The step's first milestone: the list drawn, the version shown, the change count shown. */
function stepShown(step: HistoryStep): boolean {
  if (step.kind === 'list') return (versionRows[0]?.getClientRects().length ?? 0) > 0;
  if (step.kind === 'version') return showsText(historyViews[0], step.text);
  return CHANGE_COUNT.test(compareBars[0]?.textContent ?? '');
}

/** Resolves, once `holds` is true in a frame, with when that frame was painted. */
function paintedOnce(holds: () => boolean): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (holds()) void afterPaint().then(resolve);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

let stepPromise: Promise<StepTimings> | null = null;
/** Set by `watchStep`, taken by the next click or change: the step's start. */
let startStep: (() => void) | null = null;

for (const type of ['click', 'change']) {
  window.addEventListener(
    type,
    () => {
      const start = startStep;
      startStep = null;
      start?.();
    },
    { capture: true },
  );
}

/** Resolves once no long task has run for `quietMs`, or after `timeoutMs`. */
function quiet(quietMs: number, timeoutMs: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    const poll = () => {
      const now = performance.now();
      if (now - lastBusy >= quietMs || now - start >= timeoutMs) resolve(now - start);
      else setTimeout(poll, 100);
    };
    poll();
  });
}

const probe: BenchProbe = {
  startKeystrokes() {
    latencies = [];
    frameWaits = [];
    eventMax = {};
    slowEvents = 0;
    longTasks = 0;
    longTaskMs = 0;
    recording = true;
  },
  recordedKeystrokes() {
    return latencies.length;
  },
  keystrokes(): KeystrokeSamples {
    recording = false;
    return { latencies, frameWaits, eventMax, slowEvents, longTasks, longTaskMs };
  },
  watch(headingText) {
    fileChosenAt = null;
    socketMessages = [];
    socketsOpened = [];
    creates = [];
    const watchedAt = performance.now();
    let readOnlyAt = Number.NaN;
    shownPromise = new Promise((resolve) => {
      const check = () => {
        const where = headingIn(headingText);
        if (where !== 'editable') {
          // Painted by the time the next frame runs its callbacks.
          if (where === 'readOnly' && Number.isNaN(readOnlyAt)) {
            void afterPaint().then((at) => (readOnlyAt = at));
          }
          requestAnimationFrame(check);
          return;
        }
        const inDomAt = performance.now();
        setTimeout(() => {
          const start = fileChosenAt ?? watchedAt;
          const synced = socketMessages
            .filter((m) => m.at <= inDomAt)
            .reduce((a, b) => (b.bytes > a.bytes ? b : a), { at: Number.NaN, bytes: 0 });
          resolve({
            start,
            inDom: inDomAt - start,
            painted: performance.now() - start,
            readOnly: readOnlyAt - start,
            createSent: createOf(start).sent - start,
            created: createOf(start).answered - start,
            socketOpen: (socketsOpened[0] ?? Number.NaN) - start,
            synced: synced.at - start,
            syncedBytes: synced.bytes,
            parseStart: markAfter('inkwell:import:start', start) - start,
            parsed: markAfter('inkwell:import:parsed', start) - start,
          });
        }, 0);
      };
      requestAnimationFrame(check);
    });
  },
  middleParagraph() {
    const paragraphs = document.querySelectorAll(TOP_LEVEL_PARAGRAPHS);
    // The plain paragraph nearest the middle, read outwards from it: reading every paragraph's
    // text took a task of about 70 ms in 1.2 MB, counted among the page's own after an import.
    const middle = Math.floor(paragraphs.length / 2);
    for (let step = 0; step < paragraphs.length; step++) {
      const index = middle + (step % 2 === 0 ? step / 2 : -(step + 1) / 2);
      const p = paragraphs[index];
      if (p && p.childElementCount === 0 && (p.textContent?.length ?? 0) >= MIN_PARAGRAPH_CHARS) {
        return index;
      }
    }
    throw new Error('no paragraph of plain text in the editor');
  },
  settle: quiet,
  shown() {
    if (!shownPromise) return Promise.reject(new Error('watch() was not called'));
    return shownPromise;
  },
  watchStep(step) {
    stepPromise = new Promise((resolve) => {
      startStep = () => {
        const start = performance.now();
        let rows = 0;
        let bar = '';
        const shown = () => {
          if (!stepShown(step)) return false;
          rows = versionRows.length;
          // The bar's status line, without its buttons.
          const status = compareBars[0]?.querySelector('[role=status]');
          bar = step.kind === 'compare' ? (status?.textContent ?? '') : '';
          return true;
        };
        void (async () => {
          const shownAt = await paintedOnce(shown);
          const drawnAt =
            step.kind === 'compare' ? await paintedOnce(() => showsComparison(step.text)) : shownAt;
          // Long tasks are reported after they end: wait for the page to go quiet first.
          await quiet(300, 5_000);
          const since = (at: number) => (at >= start ? at - start : Number.NaN);
          const compareWorker = (kind: 'posted' | 'answered') =>
            since(
              workerEvents.find(
                (e) => e.at >= start && e.kind === kind && COMPARE_WORKER.test(e.script),
              )?.at ?? Number.NaN,
            );
          resolve({
            // From Resource Timing: when the answer arrived, however busy the main thread was.
            versionsAnswered: since(
              performance
                .getEntriesByType('resource')
                .filter((e) => VERSIONS_REQUEST.test(e.name) && e.startTime >= start)
                .map((e) => (e as PerformanceResourceTiming).responseEnd)
                .filter((at) => at <= shownAt)
                .at(-1) ?? Number.NaN,
            ),
            workerPosted: compareWorker('posted'),
            workerAnswered: compareWorker('answered'),
            tasks: longTaskLog
              .filter((t) => t.start >= start && t.start <= drawnAt)
              .map((t) => [t.start - start, t.duration, scriptsDuring(t.start, t.duration)]),
            shown: shownAt - start,
            drawn: drawnAt - start,
            rows,
            bar: bar.trim(),
            longestTask: longestTask(start, drawnAt),
          });
        })();
      };
    });
  },
  stepDone() {
    if (!stepPromise) return Promise.reject(new Error('watchStep() was not called'));
    return stepPromise;
  },
  longestTaskSince(since) {
    return longestTask(since);
  },
  longestTaskSinceWithScripts(since) {
    const task = longTaskLog
      .filter((entry) => entry.start >= since)
      .reduce<{ start: number; duration: number } | null>(
        (longest, entry) => (longest && longest.duration >= entry.duration ? longest : entry),
        null,
      );
    return task
      ? { ms: task.duration, scripts: scriptsDuring(task.start, task.duration) }
      : { ms: 0, scripts: [] };
  },
};

/** When the page last set the performance mark `name`, if at or after `since`; NaN if not. */
function markAfter(name: string, since: number): number {
  const at = performance.getEntriesByName(name, 'mark').at(-1)?.startTime ?? Number.NaN;
  return at >= since ? at : Number.NaN;
}

window.benchProbe = probe;
