import {
  TOP_LEVEL_PARAGRAPHS,
  type BenchProbe,
  type KeystrokeSamples,
  type ShownTimings,
} from './api.ts';
import { afterPaint } from './afterPaint.ts';

// Installed before any page script (Playwright's addInitScript), so its keydown listener runs
// first and the observers see everything from the start of a measurement.

const EVENT_TYPES = new Set(['keydown', 'keypress', 'beforeinput', 'input']);
/** How many top-level blocks from the end are searched for the watched heading. */
const TAIL_BLOCKS = 400;
/** Shortest paragraph to type into: long enough to be ordinary prose. */
const MIN_PARAGRAPH_CHARS = 60;

let recording = false;
let latencies: number[] = [];
let eventMax: Record<string, number> = {};
let slowEvents = 0;
let longTasks = 0;
let longTaskMs = 0;
let fileChosenAt: number | null = null;
/** When the last long task ended, to tell when the page has settled. */
let lastBusy = 0;

window.addEventListener(
  'keydown',
  () => {
    if (!recording) return;
    const start = performance.now();
    void afterPaint().then((painted) => latencies.push(painted - start));
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

new PerformanceObserver((list) => {
  if (!recording) return;
  for (const entry of list.getEntries()) {
    if (!EVENT_TYPES.has(entry.name)) continue;
    slowEvents++;
    eventMax[entry.name] = Math.max(eventMax[entry.name] ?? 0, entry.duration);
  }
}).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    lastBusy = Math.max(lastBusy, entry.startTime + entry.duration);
    if (!recording) continue;
    longTasks++;
    longTaskMs += entry.duration;
  }
}).observe({ type: 'longtask' });

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

// The app's own scripts fill the default buffer of 250 entries; the create request comes after.
performance.setResourceTimingBufferSize(100_000);

/** The answer to the last `POST /api/documents` at or after `since`, NaN when none. */
function createdAt(since: number): number {
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const created = entries.filter(
    (e) => new URL(e.name).pathname === '/api/documents' && e.startTime >= since,
  );
  return created.at(-1)?.responseEnd ?? Number.NaN;
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

const probe: BenchProbe = {
  startKeystrokes() {
    latencies = [];
    eventMax = {};
    slowEvents = 0;
    longTasks = 0;
    longTaskMs = 0;
    recording = true;
  },
  keystrokes(): KeystrokeSamples {
    recording = false;
    return { latencies, eventMax, slowEvents, longTasks, longTaskMs };
  },
  watch(headingText) {
    fileChosenAt = null;
    socketMessages = [];
    socketsOpened = [];
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
            created: createdAt(start) - start,
            socketOpen: (socketsOpened[0] ?? Number.NaN) - start,
            synced: synced.at - start,
            syncedBytes: synced.bytes,
          });
        }, 0);
      };
      requestAnimationFrame(check);
    });
  },
  middleParagraph() {
    const paragraphs = document.querySelectorAll(TOP_LEVEL_PARAGRAPHS);
    const plain: number[] = [];
    paragraphs.forEach((p, index) => {
      if (p.childElementCount === 0 && (p.textContent?.length ?? 0) >= MIN_PARAGRAPH_CHARS) {
        plain.push(index);
      }
    });
    const index = plain[Math.floor(plain.length / 2)];
    if (index === undefined) throw new Error('no paragraph of plain text in the editor');
    return index;
  },
  settle(quietMs, timeoutMs) {
    const start = performance.now();
    return new Promise((resolve) => {
      const poll = () => {
        const now = performance.now();
        if (now - lastBusy >= quietMs || now - start >= timeoutMs) resolve(now - start);
        else setTimeout(poll, 100);
      };
      poll();
    });
  },
  shown() {
    if (!shownPromise) return Promise.reject(new Error('watch() was not called'));
    return shownPromise;
  },
};

window.benchProbe = probe;
