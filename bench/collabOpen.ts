import * as Y from 'yjs';
import type { DocumentContent } from '../common/api/documents.ts';
import { parseMarkdown } from '../common/editor/markdown/index.ts';
import { openLive } from './collabClient.ts';
import { seedOwners, startInkwell } from './collabServers.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatBytes, formatMs, median, p95 } from './stats.ts';

const NAME = 'collabOpen';
const BASELINE = 'GET /api/documents/:id';
/** Opens of each kind (`COLLAB_OPEN_ROUNDS`), interleaved with the JSON loads. */
const ROUNDS = Number(process.env.COLLAB_OPEN_ROUNDS ?? 5);
/**
 * After the last client leaves, Hocuspocus stores what is pending and unloads the document; a
 * later open must find it on disk, not in memory.
 */
const UNLOAD_WAIT_MS = 1_000;

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** Opens `documentId` live and resolves with the time until its whole Y.Doc is synced. */
async function openTimed(
  inkwell: NonNullable<Awaited<ReturnType<typeof startInkwell>>>,
  documentId: string,
  cookie: string,
): Promise<{ ms: number; stateBytes: number; applyMs: number }> {
  const started = performance.now();
  const client = openLive(inkwell.target, documentId, cookie);
  try {
    await client.synced;
    const ms = performance.now() - started;
    // The client's own share: applying the whole state to an empty Y.Doc, as the sync did.
    const state = Y.encodeStateAsUpdate(client.doc);
    const applyStarted = performance.now();
    Y.applyUpdate(new Y.Doc(), state);
    return { ms, stateBytes: state.length, applyMs: performance.now() - applyStarted };
  } finally {
    client.destroy();
    await sleep(UNLOAD_WAIT_MS);
  }
}

/** Today's load: the document's JSON from the REST API, parsed. */
async function getTimed(httpUrl: string, documentId: string, cookie: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${httpUrl}/api/documents/${documentId}`, {
    headers: { Cookie: cookie },
  });
  if (res.status !== 200) throw new Error(`GET answered ${res.status}: ${await res.text()}`);
  await res.json();
  return performance.now() - started;
}

/**
 * `collabOpen`: the 1.2 MB fixture, parsed with the project's codec, stored as a JSON document in
 * Inkwell (PGlite); time until a live client (a provider in Node) holds the whole synced Y.Doc, on
 * the first open (the server converts the JSON to Yjs and stores it, under the row lock) and on
 * later opens (the stored snapshot, the document unloaded in between), against today's load of
 * the same JSON through `GET /api/documents/:id`.
 */
export async function collabOpen(fixtures: Fixtures): Promise<BenchReport> {
  const content = parseMarkdown(fixtures.large.markdown).toJSON() as DocumentContent;
  const jsonBytes = Buffer.byteLength(JSON.stringify(content));
  // Copy 0 is only ever read as JSON; copies 1… are each opened live for the first time once.
  const copies = Array.from({ length: ROUNDS + 1 }, () => content);
  const inkwell = await startInkwell('pglite', (db) => seedOwners(db, 'open', 1, 1, copies));
  try {
    const [owner] = inkwell!.seeded;
    const ids = owner!.documentIds;
    const cookie = inkwell!.cookie(owner!.tokens[0]!);
    // Warm-up: the first request of a process loads code and fills PGlite's caches.
    await getTimed(inkwell!.httpUrl, ids[0]!, cookie);
    const gets: number[] = [];
    const firsts: number[] = [];
    const laters: number[] = [];
    const applies: number[] = [];
    let stateBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      gets.push(await getTimed(inkwell!.httpUrl, ids[0]!, cookie));
      const first = await openTimed(inkwell!, ids[round + 1]!, cookie);
      firsts.push(first.ms);
      stateBytes = first.stateBytes;
      const later = await openTimed(inkwell!, ids[1]!, cookie);
      laters.push(later.ms);
      applies.push(first.applyMs, later.applyMs);
    }
    console.log(
      `The ${fixtures.large.name} fixture: ${formatBytes(jsonBytes)} of JSON, ` +
        `${formatBytes(stateBytes)} of Yjs state; ${ROUNDS} opens of each kind (PGlite). ` +
        `Applying that state in the client takes ${formatMs(median(applies))} of each open.`,
    );
    const figures: Figure[] = [
      { label: 'first open, p50', value: median(firsts), baseline: median(gets), unit: 'ms' },
      { label: 'first open, p95', value: p95(firsts), baseline: p95(gets), unit: 'ms' },
      { label: 'later open, p50', value: median(laters), baseline: median(gets), unit: 'ms' },
      { label: 'later open, p95', value: p95(laters), baseline: p95(gets), unit: 'ms' },
    ];
    printFigures(figures, BASELINE);
    return { name: NAME, baselineName: BASELINE, figures };
  } finally {
    await inkwell?.stop();
  }
}
