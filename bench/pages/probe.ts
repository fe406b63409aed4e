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

function hasHeading(text: string): boolean {
  const editors = document.querySelectorAll('.ProseMirror');
  for (const editor of editors) {
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
    const watchedAt = performance.now();
    shownPromise = new Promise((resolve) => {
      const check = () => {
        if (!hasHeading(headingText)) {
          requestAnimationFrame(check);
          return;
        }
        const inDomAt = performance.now();
        setTimeout(() => {
          const start = fileChosenAt ?? watchedAt;
          resolve({ inDom: inDomAt - start, painted: performance.now() - start });
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
