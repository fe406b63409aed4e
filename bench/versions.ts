import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import type { DocumentContent } from '../common/api/documents.ts';
import { parseMarkdown, serializeMarkdown } from '../common/editor/markdown/index.ts';
import { seededRandom } from '../common/test/seededRandom.ts';
import { CONTENT_FIELD, nodeOfYDoc } from '../server/collab/yjsContent.ts';
import { YjsStore } from '../server/collab/yjsStore.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { VersionStore } from '../server/versions/versionStore.ts';
import { seedOwners } from './collabServers.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatBytes, median } from './stats.ts';

/*
 * Version history on the server (docs/PRODUCT.md "Version history"), on PGlite as `npm start`
 * runs it. Baseline, in the same run and database: keeping each version as its Markdown in a row
 * of its own, the plain way to keep a document's past.
 *  - Taking a version of the 1.2 MB document: time and bytes stored, the first (a keyframe) and
 *    one after a paragraph was typed (a diff).
 *  - Reading one version back, and listing a page of a document's 1,000 versions.
 *  - A simulated month of a team of three writing in the 30k-words document: each working day
 *    eight sessions of typing and deleting, a version after each, thinned as the server thins
 *    them; bytes kept against the Markdown of the same versions.
 */

const NAME = 'versions';
const BASELINE = 'Markdown per version';
const RUNS = 7;
const MONTH_DAYS = 30;
const SESSIONS_PER_DAY = 8;
const LISTED = 1_000;

const contentOf = (markdown: string) => parseMarkdown(markdown).toJSON() as DocumentContent;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A paragraph of `words` typed into block `index` of `doc` by one writer, as keystrokes would. */
export function typeInto(doc: Y.Doc, random: () => number, words: number): void {
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  for (let tries = 0; tries < 20; tries++) {
    const block = fragment.get(Math.floor(random() * fragment.length));
    const text = block instanceof Y.XmlElement ? block.get(0) : null;
    if (!(text instanceof Y.XmlText)) continue;
    let at = Math.floor(random() * (text.length + 1));
    for (let i = 0; i < words; i++) {
      const word = ` word${Math.floor(random() * 1000)}`;
      text.insert(at, word);
      at += word.length;
    }
    if (text.length > 40) text.delete(Math.floor(random() * (text.length - 20)), 12);
    return;
  }
}

/** Bytes the versions of `documentId` take, state and state vector. */
async function storedBytes(db: Database, documentId: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT coalesce(sum(octet_length(state) + octet_length(state_vector)), 0)::text AS bytes
       FROM document_versions WHERE document_id = $1`,
    [documentId],
  );
  return Number(rows[0]!.bytes);
}

async function markdownRow(db: Database, markdown: string): Promise<void> {
  await db.query('INSERT INTO bench_markdown_versions (markdown) VALUES ($1)', [markdown]);
}

/** Runs the version history benchmark. */
export async function versions(fixtures: Fixtures): Promise<BenchReport> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-versions-'));
  const db = await openDatabase({ kind: 'pglite', dataDir: tmp });
  const figures: Figure[] = [];
  try {
    await migrate(db);
    await db.exec('CREATE TABLE bench_markdown_versions (id bigserial PRIMARY KEY, markdown text)');
    const large = fixtures.large;
    const month = fixtures.byWords[1]!;
    const [owner] = await seedOwners(db, 'versions', 1, 0, [
      contentOf(large.markdown),
      contentOf(month.markdown),
      contentOf('Listed.'),
    ]);
    const [largeId, monthId, listedId] = owner!.documentIds as [string, string, string];
    const store = new VersionStore(db);
    const random = seededRandom(24);

    // Taking a version of the 1.2 MB document.
    const doc = (await new YjsStore(db).load(largeId))!.doc;
    const firstMs = await timed(() => store.keep(largeId, doc, { kind: 'auto' }));
    const firstBytes = await storedBytes(db, largeId);
    const markdownMs = await timed(() => markdownRow(db, serializeMarkdown(nodeOfYDoc(doc))));
    const keepMs: number[] = [];
    const baselineMs: number[] = [];
    let diffBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      typeInto(doc, random, 40);
      const before = await storedBytes(db, largeId);
      keepMs.push(await timed(() => store.keep(largeId, doc, { kind: 'auto' })));
      diffBytes = (await storedBytes(db, largeId)) - before;
      baselineMs.push(await timed(() => markdownRow(db, serializeMarkdown(nodeOfYDoc(doc)))));
    }
    const markdownBytes = Buffer.byteLength(serializeMarkdown(nodeOfYDoc(doc)));
    console.log(
      `1.2 MB document: first version (a keyframe) ${firstMs.toFixed(0)} ms and ${formatBytes(firstBytes)}; ` +
        `its Markdown ${markdownMs.toFixed(0)} ms and ${formatBytes(markdownBytes)}`,
    );
    figures.push(
      {
        label: `keep a version of the 1.2 MB document after a typed paragraph, median of ${RUNS}`,
        value: median(keepMs),
        baseline: median(baselineMs),
        unit: 'ms',
      },
      {
        label: 'bytes stored for that version',
        value: diffBytes,
        baseline: markdownBytes,
        unit: 'bytes',
        target: 0.1,
      },
      {
        label: 'bytes stored for the first version (a keyframe)',
        value: firstBytes,
        baseline: markdownBytes,
        unit: 'bytes',
      },
    );

    // Reading a version back, and listing a page of many.
    const { versions: kept } = await store.list(largeId, { limit: 1 });
    const readMs: number[] = [];
    const openMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      readMs.push(await timed(() => store.read(largeId, kept[0]!.id)));
      openMs.push(
        await timed(() =>
          db.query('SELECT markdown FROM bench_markdown_versions ORDER BY id DESC LIMIT 1'),
        ),
      );
    }
    figures.push({
      label: `read one version of the 1.2 MB document (rebuilt to JSON), median of ${RUNS}`,
      value: median(readMs),
      baseline: median(openMs),
      unit: 'ms',
    });
    const small = (await new YjsStore(db).load(listedId))!.doc;
    const line = (small.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText;
    for (let i = 0; i < LISTED; i++) {
      line.insert(0, `${i} `);
      await store.keep(listedId, small, { kind: 'auto' });
    }
    const listMs: number[] = [];
    const rowsMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      listMs.push(await timed(() => store.list(listedId, { limit: 50 })));
      rowsMs.push(
        await timed(() =>
          db.query('SELECT id FROM bench_markdown_versions ORDER BY id DESC LIMIT 50'),
        ),
      );
    }
    figures.push({
      label: `list a page of 50 of ${LISTED} versions, median of ${RUNS}`,
      value: median(listMs),
      baseline: median(rowsMs),
      unit: 'ms',
    });

    // A month of a team's writing.
    const monthDoc = (await new YjsStore(db).load(monthId))!.doc;
    const writers = [0, 1, 2].map(() => {
      const writer = new Y.Doc();
      Y.applyUpdate(writer, Y.encodeStateAsUpdate(monthDoc));
      return writer;
    });
    /** The Markdown each version would have been kept as, by version id. */
    const markdownOf = new Map<string, number>();
    const start = Date.now() - MONTH_DAYS * 24 * 3600 * 1000;
    for (let day = 0; day < MONTH_DAYS; day++) {
      if (day % 7 >= 5) continue; // weekends off
      for (let session = 0; session < SESSIONS_PER_DAY; session++) {
        const writer = writers[Math.floor(random() * writers.length)]!;
        Y.applyUpdate(writer, Y.encodeStateAsUpdate(monthDoc, Y.encodeStateVector(writer)));
        for (let edit = 0; edit < 6; edit++) typeInto(writer, random, 12);
        Y.applyUpdate(monthDoc, Y.encodeStateAsUpdate(writer, Y.encodeStateVector(monthDoc)));
        const version = await store.keep(monthId, monthDoc, { kind: 'auto' });
        const at = new Date(start + day * 24 * 3600 * 1000 + (9 + session) * 3600 * 1000);
        await db.query('UPDATE document_versions SET created_at = $2 WHERE id = $1::bigint', [
          version!.id,
          at,
        ]);
        markdownOf.set(version!.id, Buffer.byteLength(serializeMarkdown(nodeOfYDoc(monthDoc))));
      }
    }
    const keptBefore = markdownOf.size;
    await store.thin();
    const { rows: left } = await db.query<{ id: string }>(
      'SELECT id::text AS id FROM document_versions WHERE document_id = $1',
      [monthId],
    );
    const monthBytes = await storedBytes(db, monthId);
    // The same versions, each kept as its Markdown.
    const markdownMonth = left.reduce((sum, { id }) => sum + (markdownOf.get(id) ?? 0), 0);
    console.log(
      `A month of three writers in ${month.name}: ${keptBefore} versions kept, ${left.length} after thinning; ` +
        `${formatBytes(monthBytes)} stored against ${formatBytes(markdownMonth)} of Markdown for them`,
    );
    figures.push(
      {
        label: `a month of a team's writing: bytes per version kept (${left.length})`,
        value: monthBytes / left.length,
        baseline: markdownMonth / left.length,
        unit: 'bytes',
        target: 0.25,
      },
      {
        label: "a month of a team's writing: bytes kept in all",
        value: monthBytes,
        baseline: markdownMonth,
        unit: 'bytes',
        target: 0.25,
      },
    );
  } finally {
    await db.close();
    await rm(tmp, { recursive: true, force: true });
  }
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
