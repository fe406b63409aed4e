import type { JSONContent } from '@tiptap/core';
import type * as Y from 'yjs';
import type { DocumentContent, DocumentResponse } from '../common/api/documents.ts';
import {
  CONTENT_FIELD,
  insertParagraph,
  openLive,
  paragraphTexts,
  type LiveClient,
} from './collabClient.ts';
import {
  KIND_NAMES,
  seedOwners,
  startBare,
  startInkwell,
  type Kind,
  type Owner,
  type RunningServer,
} from './collabServers.ts';
import type { Fixtures } from './fixtures.ts';
import { memoryOf, resetPeak } from './processMemory.ts';
import { cpuSnapshot, cpuSpent } from './processCpu.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { proseOfSize } from './seedWriters.ts';
import { formatBytes, median, p95 } from './stats.ts';

const NAME = 'collabLoad';
const BASELINE = 'bare Hocuspocus';
const DOCUMENTS = 50;
const WRITERS = 4;
const KEYS_PER_SECOND = 5;
/** How long the writers type (`COLLAB_LOAD_SECONDS`; the issue's minute by default). */
const SECONDS = Number(process.env.COLLAB_LOAD_SECONDS ?? 60);
/** The documents typed into: ~100 kB of prose, as the retired `autosave` benchmark's were. */
const DOCUMENT_BYTES = 100_000;
/** Documents of `MEMORY_DOCUMENT_BYTES` opened to measure memory per open document. */
const MEMORY_DOCUMENTS = Number(process.env.COLLAB_MEMORY_DOCUMENTS ?? 10);
const MEMORY_DOCUMENT_BYTES = 1_000_000;
/** Longest wait for every change to be saved and every writer to hold every other's. */
const DRAIN_MS = 120_000;
/** Time for the server's memory to settle (a store, a collection) before RSS is read. */
const SETTLE_MS = 3_000;

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** What one side needs to be loaded: its server, names of its documents and how to sign in. */
interface Side {
  name: string;
  server: RunningServer;
  /** The document typed into by the writers of document `d`. */
  document(d: number): string;
  /** The Cookie header of writer `w` of document `d` (undefined on the bare server). */
  cookie(d: number, w: number): string | undefined;
  /** The 1 MB documents opened for memory, and the cookie that opens them. */
  memoryDocuments: string[];
  memoryCookie: string | undefined;
  /** The content the server stored for document `d`, when it stores any. */
  stored?(d: number): Promise<DocumentContent>;
}

/** One writer: a tab typing into its own paragraph of a shared document. */
interface Writer {
  client: LiveClient;
  /** The marker its paragraph starts with, so that every copy of the document can find it. */
  marker: string;
  text?: Y.XmlText;
  typed: string;
  /** When each key not yet acknowledged was pressed, oldest first. */
  pending: number[];
}

/** What a load of one side measured. */
interface Measured {
  cpuMs: number;
  elapsedMs: number;
  typed: number;
  peakBytes: number;
  /** Characters typed and missing: from the writers' documents, a fresh client's, the stored ones. */
  lost: { writers: number; fresh: number; stored: number };
  memoryPerDocument: number;
  /** From each key pressed to its "Saved" (the server's sync-status reply), under the load. */
  saveLatencies: number[];
  /**
   * From the last key to every key "Saved": how far the server had fallen behind. Less sensitive
   * to other processes on the machine than the latencies, which include the writers' own delays.
   */
  drainMs: number;
}

/** Characters of `typed` missing from `seen`, in order (the paragraph gone: all of them). */
export function missing(typed: string, seen: string | undefined): number {
  if (seen === undefined) return typed.length;
  let found = 0;
  for (const char of seen) if (found < typed.length && char === typed[found]) found += 1;
  return typed.length - found;
}

/** Characters the writers of one document typed and `texts` (its paragraphs) lack. */
function lostIn(writers: readonly Writer[], texts: readonly string[]): number {
  let lost = 0;
  for (const writer of writers) {
    const text = texts.find((t) => t.startsWith(writer.marker));
    lost += missing(writer.typed, text?.slice(writer.marker.length));
  }
  return lost;
}

/** Texts of the top-level paragraphs of stored JSON. */
export function jsonParagraphs(content: DocumentContent): string[] {
  const textOf = (node: JSONContent): string =>
    node.text ?? (node.content ?? []).map(textOf).join('');
  return ((content.content ?? []) as JSONContent[])
    .filter((n) => n.type === 'paragraph')
    .map(textOf);
}

/** Waits until `check` holds, polling; false when `timeoutMs` passed first. */
export async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

/**
 * First the memory per open 1 MB document (RSS growth over `MEMORY_DOCUMENTS` opened at once, on
 * the fresh server). Then the writers of `side` connect (4 per document, a socket each), each adds
 * a paragraph in the middle of its document and types into it at 5 keys a second for `SECONDS`;
 * then everything is drained and every copy checked for every character.
 */
async function load(side: Side): Promise<Measured> {
  const documents: Writer[][] = [];
  const all = () => documents.flat();
  const t0 = performance.now();
  const phase = (what: string) =>
    console.log(`  ${side.name}, ${((performance.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  try {
    // First, on the fresh server: the memory an open document takes, before load leaves garbage.
    await sleep(SETTLE_MS);
    const pid = side.server.child.child.pid;
    const before = memoryOf(pid).now;
    let after: number;
    const open = side.memoryDocuments.map((name) =>
      openLive(side.server.target, name, side.memoryCookie),
    );
    try {
      await Promise.all(open.map((client) => client.synced));
      phase('large documents open');
      await sleep(SETTLE_MS);
      after = memoryOf(side.server.child.child.pid).now;
    } finally {
      open.forEach((client) => client.destroy());
    }
    await sleep(SETTLE_MS);
    // The load's peak is its own, not the large documents'.
    if (!resetPeak(pid)) console.log(`  ${side.name}: peak memory includes the large documents`);

    for (let d = 0; d < DOCUMENTS; d++) {
      const writers = Array.from({ length: WRITERS }, (_, w) => ({
        client: openLive(side.server.target, side.document(d), side.cookie(d, w)),
        marker: `w${d}.${w}:`,
        typed: '',
        pending: [],
      }));
      documents.push(writers);
      await Promise.all(writers.map((writer) => writer.client.synced));
    }
    phase('connected');
    for (const writer of all()) {
      const doc = writer.client.doc;
      const middle = Math.floor(doc.getXmlFragment(CONTENT_FIELD).length / 2);
      writer.text = insertParagraph(doc, middle, writer.marker);
    }
    await Promise.all(all().map((writer) => writer.client.saved()));
    await sleep(SETTLE_MS);

    phase('paragraphs saved; typing');
    const pids = await side.server.pids();
    const cpuBefore = cpuSnapshot(pids);
    const started = performance.now();
    const timers: NodeJS.Timeout[] = [];
    const saveLatencies: number[] = [];
    for (const writer of all()) {
      // One reply per update, in order: the count still unsynced says which keys were saved.
      writer.client.provider.on('unsyncedChanges', ({ number }: { number: number }) => {
        while (writer.pending.length > number) {
          saveLatencies.push(performance.now() - writer.pending.shift()!);
        }
      });
    }
    all().forEach((writer, i) => {
      // Spread over the interval, so that 200 writers do not press their keys in step.
      const start = setTimeout(
        () =>
          timers.push(
            setInterval(() => {
              const char = String.fromCharCode(97 + ((writer.typed.length + i) % 26));
              writer.pending.push(performance.now());
              writer.text!.insert(writer.text!.length, char);
              writer.typed += char;
            }, 1000 / KEYS_PER_SECOND),
          ),
        Math.random() * (1000 / KEYS_PER_SECOND),
      );
      timers.push(start);
    });
    await sleep(SECONDS * 1000);
    timers.forEach((timer) => clearInterval(timer));
    const elapsedMs = performance.now() - started;
    const cpuMs = cpuSpent(cpuBefore, cpuSnapshot(await side.server.pids()));
    const typed = all().reduce((sum, writer) => sum + writer.typed.length, 0);

    phase('typing stopped');
    const drainStarted = performance.now();
    const drained = await Promise.race([
      Promise.all(all().map((writer) => writer.client.saved())).then(() => true),
      sleep(DRAIN_MS).then(() => false),
    ]);
    const drainMs = performance.now() - drainStarted;
    if (!drained) console.log(`  ${side.name}: not every change was saved in ${DRAIN_MS / 1000} s`);
    const lostNow = () =>
      documents.reduce(
        (sum, writers) =>
          sum +
          writers.reduce(
            (inDoc, writer) => inDoc + lostIn(writers, paragraphTexts(writer.client.doc)),
            0,
          ),
        0,
      );
    // Each writer's last keys reach the others a moment after they are saved.
    await until(() => lostNow() === 0, 30_000);
    const lost = { writers: lostNow(), fresh: 0, stored: 0 };
    const peakBytes = memoryOf(side.server.child.child.pid).peak;

    phase('drained');
    // A fresh tab on each document: what the server holds now.
    for (const [d, writers] of documents.entries()) {
      const fresh = openLive(side.server.target, side.document(d), side.cookie(d, 0));
      try {
        await fresh.synced;
        lost.fresh += lostIn(writers, paragraphTexts(fresh.doc));
      } finally {
        fresh.destroy();
      }
    }
    phase('fresh tabs checked');
    for (const writer of all()) writer.client.destroy();
    // What the server stored, once the last writer of each document has left.
    if (side.stored) {
      for (const [d, writers] of documents.entries()) {
        lost.stored += lostIn(writers, jsonParagraphs(await side.stored(d)));
      }
    }
    documents.length = 0;

    phase('stored content checked');
    return {
      cpuMs,
      elapsedMs,
      typed,
      peakBytes,
      lost,
      memoryPerDocument: (after - before) / side.memoryDocuments.length,
      saveLatencies,
      drainMs,
    };
  } finally {
    for (const writer of all()) writer.client.destroy();
  }
}

/** One line of what a side's load did, and lost. */
function describe(side: Side, m: Measured): void {
  console.log(
    `${side.name}: ${m.typed} keys typed in ${(m.elapsedMs / 1000).toFixed(0)} s ` +
      `(${((m.typed * 1000) / m.elapsedMs).toFixed(0)}/s); lost: ${m.lost.writers} in the ` +
      `writers' documents, ${m.lost.fresh} in a fresh tab's, ` +
      `${side.stored ? `${m.lost.stored} in stored content` : 'nothing stored'}; ` +
      `peak ${formatBytes(m.peakBytes)}`,
  );
}

/** Inkwell on `kind`, seeded with the writers' documents and the memory documents. */
async function inkwellSide(kind: Kind, prose: DocumentContent, large: DocumentContent) {
  const inkwell = await startInkwell(kind, async (db) => ({
    writers: await seedOwners(db, 'load', DOCUMENTS, WRITERS, [prose]),
    memory: (
      await seedOwners(
        db,
        'memory',
        1,
        1,
        Array.from({ length: MEMORY_DOCUMENTS }, () => large),
      )
    )[0]!,
  }));
  if (!inkwell) return null;
  const { writers, memory } = inkwell.seeded;
  const owner = (d: number): Owner => writers[d]!;
  const side: Side = {
    name: `Inkwell, ${KIND_NAMES[kind]}`,
    server: inkwell,
    document: (d) => owner(d).documentIds[0]!,
    cookie: (d, w) => inkwell.cookie(owner(d).tokens[w]!),
    memoryDocuments: memory.documentIds,
    memoryCookie: inkwell.cookie(memory.tokens[0]!),
    stored: async (d) => {
      const res = await fetch(`${inkwell.httpUrl}/api/documents/${owner(d).documentIds[0]}`, {
        headers: { Cookie: inkwell.cookie(owner(d).tokens[0]!) },
      });
      if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
      return ((await res.json()) as DocumentResponse).document.content;
    },
  };
  return { side, stop: () => inkwell.stop() };
}

/**
 * `collabLoad`: 50 documents × 4 writers typing 5 keys a second each on one server, Inkwell on
 * PGlite and on PostgreSQL, against a bare Hocuspocus server (no admission, no schema check, no
 * persistence): server CPU, peak memory, characters lost (every writer's, a fresh tab's and the
 * stored copy), and memory per open 1 MB document.
 */
export async function collabLoad(fixtures: Fixtures): Promise<BenchReport> {
  const source = fixtures.bySize[0]!;
  const prose = proseOfSize(source.markdown, DOCUMENT_BYTES);
  const large = proseOfSize(fixtures.large.markdown, MEMORY_DOCUMENT_BYTES);
  console.log(
    `${DOCUMENTS} documents of ${formatBytes(DOCUMENT_BYTES)} × ${WRITERS} writers at ` +
      `${KEYS_PER_SECOND} keys/s for ${SECONDS} s; then ${MEMORY_DOCUMENTS} documents of ` +
      `${formatBytes(MEMORY_DOCUMENT_BYTES)} opened.`,
  );
  const bare = await startBare({ prose, large });
  let baseline: Measured;
  try {
    const side: Side = {
      name: BASELINE,
      server: bare,
      document: (d) => `prose:${d}`,
      cookie: () => undefined,
      memoryDocuments: Array.from({ length: MEMORY_DOCUMENTS }, (_, i) => `large:${i}`),
      memoryCookie: undefined,
    };
    baseline = await load(side);
    describe(side, baseline);
  } finally {
    await bare.stop();
  }
  const figures: Figure[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    const started = await inkwellSide(kind, prose, large);
    if (!started) {
      console.log(`${KIND_NAMES[kind]}: skipped, PostgreSQL is not installed.`);
      continue;
    }
    let m: Measured;
    try {
      m = await load(started.side);
      describe(started.side, m);
    } finally {
      await started.stop();
    }
    const label = (what: string) => `${KIND_NAMES[kind]}: ${what}`;
    const measured: Figure[] = [
      {
        label: label('server CPU per s of typing'),
        value: (m.cpuMs * 1000) / m.elapsedMs,
        baseline: (baseline.cpuMs * 1000) / baseline.elapsedMs,
        unit: 'ms',
      },
      {
        label: label('server CPU per key'),
        value: m.cpuMs / m.typed,
        baseline: baseline.cpuMs / baseline.typed,
        unit: 'ms',
      },
      {
        label: label('key to "Saved", p50'),
        value: median(m.saveLatencies),
        baseline: median(baseline.saveLatencies),
        unit: 'ms',
      },
      {
        label: label('key to "Saved", p95'),
        value: p95(m.saveLatencies),
        baseline: p95(baseline.saveLatencies),
        unit: 'ms',
      },
      {
        label: label('last key to all "Saved"'),
        value: m.drainMs,
        baseline: baseline.drainMs,
        unit: 'ms',
      },
      {
        label: label('server peak memory'),
        value: m.peakBytes,
        baseline: baseline.peakBytes,
        unit: 'bytes',
      },
      {
        label: label('keys lost'),
        value: m.lost.writers + m.lost.fresh + m.lost.stored,
        baseline: baseline.lost.writers + baseline.lost.fresh,
        unit: 'count',
        limit: 0,
      },
      {
        label: label('memory per open 1 MB document'),
        value: m.memoryPerDocument,
        baseline: baseline.memoryPerDocument,
        unit: 'bytes',
      },
    ];
    printFigures(measured, BASELINE);
    figures.push(...measured);
  }
  return { name: NAME, baselineName: BASELINE, figures };
}
