import type { CDPSession } from 'playwright-core';
import { withTimeout } from './app.ts';

/** Where a sample of a CPU profile was (the fields of CDP's `Runtime.CallFrame` used here). */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** A CPU profile as CDP's `Profiler.stop` returns it (the fields used here). */
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  /** When profiling started, in microseconds of the profiler's clock. */
  startTime?: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Not functions: time outside JavaScript, which the trace breaks down instead. */
const NOT_JS = new Set(['(program)', '(idle)', '(root)']);

/** Milliseconds spent, by name. */
export type Breakdown = Map<string, number>;

function add(breakdown: Breakdown, key: string, ms: number): void {
  breakdown.set(key, (breakdown.get(key) ?? 0) + ms);
}

/** The `count` largest entries, largest first. */
export function top(breakdown: Breakdown, count: number): [string, number][] {
  return [...breakdown].sort((a, b) => b[1] - a[1]).slice(0, count);
}

function frameName(frame: CallFrame): string {
  const file = frame.url.split('/').pop() ?? '';
  const where = file === '' ? '' : ` ${file}:${frame.lineNumber + 1}`;
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Self time per JavaScript function of a CPU profile (CDP `Profiler.stop`). */
export function selfTimes(profile: CpuProfile): Breakdown {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const breakdown: Breakdown = new Map();
  samples.forEach((id, i) => {
    const node = nodes.get(id);
    if (node && !NOT_JS.has(node.callFrame.functionName)) {
      add(breakdown, frameName(node.callFrame), (deltas[i] ?? 0) / 1000);
    }
  });
  return breakdown;
}

/**
 * Self time per function of the samples taken between `fromMs` and `toMs` after the profile
 * started, idle and other native time (`(idle)`, `(program)`) included under their own names.
 */
export function selfTimesBetween(profile: CpuProfile, fromMs: number, toMs: number): Breakdown {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const breakdown: Breakdown = new Map();
  let at = 0;
  samples.forEach((id, i) => {
    const delta = (deltas[i] ?? 0) / 1000;
    at += delta;
    const node = nodes.get(id);
    if (node && at > fromMs && at <= toMs) add(breakdown, frameName(node.callFrame), delta);
  });
  return breakdown;
}

/**
 * For the function named `name` (as `selfTimes` names it), its self time by call path: the
 * `depth` functions above it, nearest first.
 */
export function callPaths(profile: CpuProfile, name: string, depth: number): Breakdown {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const breakdown: Breakdown = new Map();
  samples.forEach((id, i) => {
    const node = nodes.get(id);
    if (!node || frameName(node.callFrame) !== name) return;
    const path: string[] = [];
    for (let at = parents.get(id); at !== undefined && path.length < depth; at = parents.get(at)) {
      const parent = nodes.get(at);
      if (!parent || NOT_JS.has(parent.callFrame.functionName)) break;
      path.push(frameName(parent.callFrame));
    }
    add(breakdown, path.join(' < ') || '(top)', (deltas[i] ?? 0) / 1000);
  });
  return breakdown;
}

/** A complete ("X") event of a Chrome trace. */
export interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur: number;
  /** Where the task was posted from (the `toplevel` category's `src_func`), when it says. */
  postedFrom?: string;
}

function asTraceEvent(value: unknown): TraceEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const e = value as Record<string, unknown>;
  if (e.ph !== 'X' || typeof e.name !== 'string') return null;
  const { pid, tid, ts, dur } = e;
  if (typeof pid !== 'number' || typeof tid !== 'number') return null;
  if (typeof ts !== 'number' || typeof dur !== 'number' || dur <= 0) return null;
  const from = (e.args as { src_func?: unknown; src_file?: unknown } | undefined) ?? {};
  const postedFrom =
    typeof from.src_func === 'string' ? `${from.src_func} (${String(from.src_file)})` : undefined;
  return { name: e.name, pid, tid, ts, dur, ...(postedFrom ? { postedFrom } : {}) };
}

/** The threads the trace names as a renderer's main thread, as `pid:tid`. */
function rendererMainThreads(values: readonly unknown[]): Set<string> {
  const threads = new Set<string>();
  for (const value of values) {
    const e = value as {
      ph?: unknown;
      name?: unknown;
      pid?: unknown;
      tid?: unknown;
      args?: { name?: unknown };
    };
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') {
      threads.add(`${String(e.pid)}:${String(e.tid)}`);
    }
  }
  return threads;
}

/**
 * The complete events of the renderer's main thread, in order: of the threads the trace names
 * `CrRendererMain` (a worker's thread can have more events), the one with the most.
 */
export function mainThreadEvents(values: readonly unknown[]): TraceEvent[] {
  const events = values.map(asTraceEvent).filter((e): e is TraceEvent => e !== null);
  const named = rendererMainThreads(values);
  const perThread = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (named.size === 0 || named.has(thread)) add(perThread, thread, 1);
  }
  const main = top(perThread, 1)[0]?.[0];
  return events
    .filter((e) => `${e.pid}:${e.tid}` === main)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
}

/** Self time per event name of one thread's events, in the order of {@link mainThreadEvents}. */
export function traceSelfTimes(events: readonly TraceEvent[]): Breakdown {
  const breakdown: Breakdown = new Map();
  const open: TraceEvent[] = [];
  for (const e of events) {
    while (open.length > 0 && (open.at(-1)?.ts ?? 0) + (open.at(-1)?.dur ?? 0) <= e.ts) open.pop();
    const parent = open.at(-1);
    if (parent) add(breakdown, parent.name, -e.dur / 1000);
    add(breakdown, e.name, e.dur / 1000);
    open.push(e);
  }
  return breakdown;
}

/**
 * Self time per trace event name on the renderer's main thread: where a frame's time goes among
 * script, style, layout, paint and the like.
 */
export function mainThreadSelfTimes(values: readonly unknown[]): Breakdown {
  return traceSelfTimes(mainThreadEvents(values));
}

/**
 * Trace categories of the main thread's tasks: script, style, layout, paint, garbage collection,
 * and who posted each task (`toplevel`).
 */
export const TRACE_CATEGORIES =
  'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,v8.execute';

/**
 * With the script stack of each forced layout and style change too: what made a task lay out.
 * Dear: every DOM change then records a stack (setting a text took ~1 ms instead of µs), so
 * only for a trace that is looked at, not for one that times or profiles.
 */
export const TRACE_CATEGORIES_WITH_STACKS = `${TRACE_CATEGORIES},disabled-by-default-devtools.timeline.stack`;

/** Runs `action` under a trace of the page `cdp` is attached to: its result and the events. */
export async function traced<T>(
  cdp: CDPSession,
  action: () => Promise<T>,
  categories = TRACE_CATEGORIES,
): Promise<{ result: T; trace: unknown[] }> {
  const trace: unknown[] = [];
  const collect = ({ value }: { value: unknown[] }) => trace.push(...value);
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    return { result: await action(), trace };
  } finally {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await withTimeout(complete, 60_000, 'the trace did not complete');
    cdp.off('Tracing.dataCollected', collect);
  }
}

/**
 * Each main-thread task over 50 ms in the trace: its length, its largest self times, and what
 * posted it (with the `toplevel` category: Chrome's own tasks, such as autofill's, name no script).
 */
export function longTaskBreakdowns(
  trace: readonly unknown[],
): { ms: number; top: [string, number][]; postedFrom: string }[] {
  const onMain = mainThreadEvents(trace);
  return onMain
    .filter((task) => task.name === 'RunTask' && task.dur >= 50_000)
    .map((task) => {
      const inside = onMain.filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur);
      const postedFrom = inside.find((e) => e.postedFrom)?.postedFrom ?? '?';
      return { ms: task.dur / 1000, top: top(traceSelfTimes(inside), 4), postedFrom };
    });
}
