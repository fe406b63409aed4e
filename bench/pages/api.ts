/** Timings of one codec page run, in milliseconds per repetition. */
export interface ExportTimings {
  /** `serializeMarkdown(editor.state.doc)`. */
  serialize: number[];
  /** `editor.getHTML()`. */
  getHTML: number[];
  /** Length of the Markdown, to check the work was done. */
  markdownLength: number;
  /** Length of the HTML. */
  htmlLength: number;
}

/** What `codec.html` exposes as `window.codecBench`. */
export interface CodecBench {
  /**
   * Creates a fresh headless Inkwell editor holding the parsed Markdown, with every word marked
   * (alternately bold, italic, code, link) when `dense`.
   */
  load(markdown: string, dense: boolean): void;
  /** Times the serializer and getHTML on the loaded document, interleaved, after `warmup` runs. */
  time(runs: number, warmup: number): ExportTimings;
}

/** What `bare.html` exposes as `window.bareBench`. */
export interface BareBench {
  /** Replaces the document with Markdown via tiptap-markdown; resolves with ms until painted. */
  load(markdown: string): Promise<number>;
}

/** What `collab.html` exposes as `window.collabBench`. */
export interface CollabBench {
  /**
   * Opens the parsed Markdown in Inkwell's editor (the app's extensions and styles), on a Y.Doc
   * through the collaboration binding when `collaboration`, else as the app opens a document;
   * resolves with ms until painted.
   */
  load(markdown: string, collaboration: boolean): Promise<number>;
}

/** Keystroke figures gathered by the probe. */
export interface KeystrokeSamples {
  /** Per keydown: ms from the keydown handler to a timeout set in the next animation frame. */
  latencies: number[];
  /**
   * Per keydown, in the same order: ms from the keydown to the start of the frame that drew it
   * (its animation frame's time). Up to one frame is the wait for the display's next tick; more
   * means a tick went by while the page was still busy.
   */
  frameWaits: number[];
  /** Longest Event Timing `duration` per event type (keydown, keypress, beforeinput, input). */
  eventMax: Record<string, number>;
  /** Event Timing entries of those types at or over 16 ms. */
  slowEvents: number;
  /** Long tasks (over 50 ms) since recording started. */
  longTasks: number;
  /** Their summed duration. */
  longTaskMs: number;
}

/**
 * When a document became visible after an import, each in ms from the file input's `change`
 * event (or `watch()` when none came); NaN for a milestone that did not happen.
 */
export interface ShownTimings {
  /** The start itself, as the page's `performance.now()`. */
  start: number;
  /** The heading in the DOM of an editable editor (the app's: the one on the shared document). */
  inDom: number;
  /** A timeout set in the frame that found it there (≈ painted). */
  painted: number;
  /** The heading first painted in an editor that is not editable (the saved copy shown while connecting). */
  readOnly: number;
  /** `POST /api/documents` sent (the document made in the tab, to be created on the server). */
  createSent: number;
  /** Its answer received (headers). */
  created: number;
  /** The first WebSocket opened after the start. */
  socketOpen: number;
  /** The largest message received over a WebSocket before the editable heading (the first sync's content). */
  synced: number;
  /** Its size in bytes (0 when none). */
  syncedBytes: number;
  /** The app's `inkwell:import:start` mark: file read, codec loaded, progress painted; parsing begins. */
  parseStart: number;
  /** The app's `inkwell:import:parsed` mark: the Markdown is a document. */
  parsed: number;
}

/**
 * What a step in the history panel waits for after the click or change that starts it
 * (`historyPanel.ts`): the first page of the version list drawn; a version's read-only preview
 * showing `text`; a comparison's change count shown, and its document showing `text`.
 */
export type HistoryStep =
  { kind: 'list' } | { kind: 'version'; text: string } | { kind: 'compare'; text: string };

/** One step of the history panel, in ms from the click or change that started it. */
export interface StepTimings {
  /** What the step waited for, first painted (for `compare`: the change count). */
  shown: number;
  /** For `compare`, the compared document painted showing the text too; else `shown`. */
  drawn: number;
  /** Version rows in the list when it was shown. */
  rows: number;
  /** The comparison bar's text (`compare`), else empty. */
  bar: string;
  /** The longest long task (over 50 ms) from the start until drawn; 0 when none. */
  longestTask: number;
  /**
   * The long tasks from the start until drawn: [start, duration, what ran in the long animation
   * frames over it], from the start.
   */
  tasks: [number, number, string[]][];
  /** The last version-history request of the step answered (body received) before `shown`; NaN if none. */
  versionsAnswered: number;
  /** The comparison posted to its worker (both documents read, checked, as JSON); NaN if none. */
  workerPosted: number;
  /** The worker's answer received; NaN if none. */
  workerAnswered: number;
}

/** What `probe.js` installs as `window.benchProbe` in every page, Inkwell's included. */
export interface BenchProbe {
  /** Forgets what was recorded and starts recording keystrokes, event timings and long tasks. */
  startKeystrokes(): void;
  /** How many keydowns have their next frame recorded since `startKeystrokes`. */
  recordedKeystrokes(): number;
  /** What was recorded since `startKeystrokes`. */
  keystrokes(): KeystrokeSamples;
  /**
   * Starts watching, frame by frame, for a heading with this text among the last top-level blocks
   * of an editable editor (noting when it was first in a read-only one); `shown()` resolves once
   * it is there.
   */
  watch(headingText: string): void;
  /**
   * The index, among the editor's top-level `p` elements, of the middle one that holds only
   * plain text (no link to follow on click, no inline code), to type into.
   */
  middleParagraph(): number;
  /**
   * Resolves once no long task has run for `quietMs` (or after `timeoutMs`), with the ms waited:
   * lets background work after a load finish before measuring.
   */
  settle(quietMs: number, timeoutMs: number): Promise<number>;
  /** Resolves when the heading given to `watch` has been found and painted. */
  shown(): Promise<ShownTimings>;
  /** Waits for `step` from the page's next click or change on; `stepDone()` resolves with it. */
  watchStep(step: HistoryStep): void;
  /** Resolves with the step given to `watchStep` once it is drawn and its long tasks reported. */
  stepDone(): Promise<StepTimings>;
  /** The longest long task that started at or after `since` (page time), 0 when none. */
  longestTaskSince(since: number): number;
  /** {@link longestTaskSince}, with what ran in it (scripts, and style and layout). */
  longestTaskSinceWithScripts(since: number): { ms: number; scripts: string[] };
}

// Declared as always there for the code that drives the pages, which first waits for them to
// appear (`'benchProbe' in window`); each exists only on the pages that install it.
declare global {
  interface Window {
    codecBench: CodecBench;
    bareBench: BareBench;
    collabBench: CollabBench;
    benchProbe: BenchProbe;
  }
}

/** The top-level paragraphs: in Inkwell's chunks, or straight in the bare editor. */
export const TOP_LEVEL_PARAGRAPHS = '.ProseMirror > p, .ProseMirror > .ink-chunk > p';
