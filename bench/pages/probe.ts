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

/** Each `POST /api/documents` the page made: when it was sent and when its answer came. */
let creates: { sent: number; answered: number }[] = [];

function isCreate(method: string, url: string): boolean {
  return method === 'POST' && new URL(url, location.href).pathname === '/api/documents';
}

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
        post(message, transfer);
      },
    });
    this.addEventListener('message', (event: MessageEvent<{ id?: unknown } | null>) => {
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

/** When the page last set the performance mark `name`, if at or after `since`; NaN if not. */
function markAfter(name: string, since: number): number {
  const at = performance.getEntriesByName(name, 'mark').at(-1)?.startTime ?? Number.NaN;
  return at >= since ? at : Number.NaN;
}

window.benchProbe = probe;
