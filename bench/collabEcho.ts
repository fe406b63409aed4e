import { WebSocket } from 'ws';
import type * as Y from 'yjs';
import type { DocumentContent } from '../common/api/documents.ts';
import { parseMarkdown } from '../common/editor/markdown/index.ts';
import {
  CONTENT_FIELD,
  insertParagraph,
  openLive,
  textOf,
  type LiveClient,
} from './collabClient.ts';
import { seedOwners, startBare, startInkwell } from './collabServers.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatMs, median, p95 } from './stats.ts';

const NAME = 'collabEcho';
const BASELINE = 'bare WebSocket echo';
/** The target for a keystroke to reach the other tab, on one machine. */
const LIMIT_MS = 50;
/** Keystrokes measured per side (`COLLAB_ECHO_KEYS`), in four stretches alternating A B B A. */
const KEYS = Number(process.env.COLLAB_ECHO_KEYS ?? 200);
const STRETCHES = 4;
/** The pause between keystrokes: a brisk typist, and time for the "Saved" reply to come back. */
const GAP_MS = 40;
/** The document typed into: the 30k-word fixture, a long chapter's worth. */
const WORDS = 30_000;
const MARKER = 'echo:';

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** The text node of the paragraph starting with `MARKER` in `doc`, once it is there. */
function markedText(doc: Y.Doc): Y.XmlText | undefined {
  for (const block of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    if (!('nodeName' in block) || block.nodeName !== 'paragraph') continue;
    const element = block as Y.XmlElement;
    if (!textOf(element).startsWith(MARKER)) continue;
    const first = element.get(0);
    if (first && !('nodeName' in first)) return first as Y.XmlText;
  }
  return undefined;
}

/** Resolves once `check` holds after some update of `doc` (or at once). */
function whenUpdated(doc: Y.Doc, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => {
      doc.off('update', listener);
      reject(new Error('the keystroke never arrived'));
    }, timeoutMs);
    const listener = () => {
      if (!check()) return;
      clearTimeout(timer);
      doc.off('update', listener);
      resolve();
    };
    doc.on('update', listener);
  });
}

/** Writer A types `count` characters; returns A → B arrival times and A's "Saved" times. */
async function typeKeys(
  a: LiveClient,
  b: LiveClient,
  count: number,
): Promise<{ arrivals: number[]; saves: number[] }> {
  const typed = markedText(a.doc)!;
  // Found once: scanning a long document on every update would be timed as the server's delay.
  const received = markedText(b.doc)!;
  const arrivals: number[] = [];
  const saves: number[] = [];
  for (let i = 0; i < count; i++) {
    const expected = typed.length + 1;
    const started = performance.now();
    const arrived = whenUpdated(b.doc, () => received.length >= expected).then(() =>
      arrivals.push(performance.now() - started),
    );
    typed.insert(typed.length, String.fromCharCode(97 + (i % 26)));
    const saved = a.saved().then(() => saves.push(performance.now() - started));
    await Promise.all([arrived, saved]);
    await sleep(GAP_MS);
  }
  return { arrivals, saves };
}

/** `count` round trips of a keystroke-sized message through the bare echo. */
async function echoes(url: string, count: number): Promise<number[]> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  // About the size of a one-character Yjs update in Hocuspocus's envelope.
  const message = Buffer.alloc(48, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        socket.once('message', () => resolve());
        socket.send(message);
      });
      times.push(performance.now() - started);
      await sleep(GAP_MS);
    }
  } finally {
    socket.close();
  }
  return times;
}

/**
 * `collabEcho`: two live clients (two tabs' providers, in Node) on one document through Inkwell
 * (PGlite), writer A typing into a paragraph in the middle of the 30k-word fixture: time from A's
 * keystroke to the character in B's Y.Doc, and to A's "Saved"; against the round trip of a bare
 * WebSocket echo on the same machine.
 */
export async function collabEcho(fixtures: Fixtures): Promise<BenchReport> {
  const fixture = fixtures.byWords.find((f) => f.nominal === WORDS);
  if (!fixture) throw new Error(`no ${WORDS}-word fixture`);
  const content = parseMarkdown(fixture.markdown).toJSON() as DocumentContent;
  const inkwell = await startInkwell('pglite', (db) => seedOwners(db, 'echo', 1, 2, [content]));
  const bare = await startBare({});
  const clients: LiveClient[] = [];
  try {
    const [owner] = inkwell!.seeded;
    const documentId = owner!.documentIds[0]!;
    const [a, b] = owner!.tokens.map((token) =>
      openLive(inkwell!.target, documentId, inkwell!.cookie(token)),
    );
    clients.push(a!, b!);
    await Promise.all(clients.map((c) => c.synced));
    const middle = Math.floor(a!.doc.getXmlFragment(CONTENT_FIELD).length / 2);
    insertParagraph(a!.doc, middle, MARKER);
    await whenUpdated(b!.doc, () => markedText(b!.doc) !== undefined);
    await a!.saved();
    // Warm-up: the first messages of a socket take the slow paths of both sides.
    await typeKeys(a!, b!, 10);
    await echoes(`${bare.target.wsUrl}/echo`, 10);

    const arrivals: number[] = [];
    const saves: number[] = [];
    const echoed: number[] = [];
    const perStretch = Math.ceil(KEYS / STRETCHES);
    for (let stretch = 0; stretch < STRETCHES; stretch++) {
      const inkwellSide = async () => {
        const typed = await typeKeys(a!, b!, perStretch);
        arrivals.push(...typed.arrivals);
        saves.push(...typed.saves);
      };
      const bareSide = async () =>
        echoed.push(...(await echoes(`${bare.target.wsUrl}/echo`, perStretch)));
      for (const run of stretch % 2 === 0 ? [inkwellSide, bareSide] : [bareSide, inkwellSide]) {
        await run();
      }
    }
    console.log(
      `${arrivals.length} keystrokes into the ${fixture.name} document (PGlite), ${GAP_MS} ms apart; ` +
        `A's "Saved" after p50 ${formatMs(median(saves))}, p95 ${formatMs(p95(saves))}`,
    );
    const figures: Figure[] = [
      {
        label: 'keystroke in the other tab, p50',
        value: median(arrivals),
        baseline: median(echoed),
        unit: 'ms',
        limit: LIMIT_MS,
      },
      {
        label: 'keystroke in the other tab, p95',
        value: p95(arrivals),
        baseline: p95(echoed),
        unit: 'ms',
        limit: LIMIT_MS,
      },
      {
        label: 'keystroke to "Saved", p50',
        value: median(saves),
        baseline: median(echoed),
        unit: 'ms',
      },
      {
        label: 'keystroke to "Saved", p95',
        value: p95(saves),
        baseline: p95(echoed),
        unit: 'ms',
      },
    ];
    printFigures(figures, BASELINE);
    return { name: NAME, baselineName: BASELINE, figures };
  } finally {
    for (const client of clients) client.destroy();
    await bare.stop();
    await inkwell?.stop();
  }
}
