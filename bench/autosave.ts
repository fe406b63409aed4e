import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DocumentContent } from '../common/api/documents.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/errors.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { sessionCookieName } from '../server/middleware/session.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { spawnNode, stopChild, type NodeChild } from './childProcess.ts';
import type { Fixtures } from './fixtures.ts';
import { cpuSnapshot, cpuSpent } from './processCpu.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { runSaveLoad, type SaveBody, type Writer } from './saveLoad.ts';
import { proseOfSize, saveBodies, seedWriters, type SeededWriter } from './seedWriters.ts';
import { formatBytes, percentile } from './stats.ts';

const WRITERS = 50;
const DOCUMENT_BYTES = 100_000;
const WARMUP_MS = 2_000;
/**
 * Each side is measured in `ROUNDS` stretches of this, alternating A B B A A B B A: the machine's
 * speed drifts, and PostgreSQL's housekeeping (a GIN pending list merged, a checkpoint) lands on
 * whichever side is running; with two stretches a side the ratio moved by ±0.05 between runs.
 */
const PHASE_MS = 3_000;
const ROUNDS = 6;
/** The lowest acceptable Inkwell / bare throughput (the issue's target). */
const THROUGHPUT_FLOOR = 0.8;
const BASELINE = 'bare route, same driver';

type Kind = 'pglite' | 'postgres';
const KIND_NAMES: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** One server under load and everything measured of it. */
interface Side {
  url: string;
  writers: Writer[];
  /** The processes whose CPU a save costs: the server's, and PostgreSQL's backends. */
  pids: () => Promise<number[]>;
  latencies: number[];
  saves: number;
  elapsedMs: number;
  cpuMs: number;
  errors: number;
  firstError: string | undefined;
  connections: number;
}

function side(url: string, writers: Writer[], pids: Side['pids']): Side {
  return {
    url,
    writers,
    pids,
    latencies: [],
    saves: 0,
    elapsedMs: 0,
    cpuMs: 0,
    errors: 0,
    firstError: undefined,
    connections: 0,
  };
}

/** Loads `side` for `ms`; adds what it measured unless this is the warm-up. */
async function load(side: Side, bodies: SaveBody, ms: number, warmUp: boolean): Promise<void> {
  const cpuBefore = cpuSnapshot(await side.pids());
  const result = await runSaveLoad(side.url, side.writers, bodies, ms);
  if (warmUp) return;
  side.cpuMs += cpuSpent(cpuBefore, cpuSnapshot(await side.pids()));
  side.latencies.push(...result.latencies);
  side.saves += result.latencies.length;
  side.elapsedMs += result.elapsedMs;
  side.errors += result.errors;
  side.firstError ??= result.firstError;
  side.connections = Math.max(side.connections, result.connections);
}

/** Migrates and seeds a database the bench process can reach, then lets it go. */
async function prepare(db: Database, content: DocumentContent) {
  try {
    await migrate(db);
    return await seedWriters(db, WRITERS, content);
  } finally {
    await db.close();
  }
}

/**
 * Inkwell (`server/main.ts`) and the bare route, each in a process of its own on the same kind of
 * database, loaded in turn by the 50 writers of this process. Returns the figures, or why not.
 */
async function measureKind(
  kind: Kind,
  bodies: SaveBody,
  content: DocumentContent,
): Promise<Figure[] | string> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-autosave-'));
  const children: NodeChild[] = [];
  let postgres: PostgresServer | null = null;
  let admin: pg.Client | undefined;
  try {
    let seeded: SeededWriter[];
    let inkwellEnv: Record<string, string>;
    let bareTarget: string;
    // PGlite runs inside the server process; PostgreSQL's work is done by its backends.
    let backendPids = (): Promise<number[]> => Promise.resolve([]);
    if (kind === 'pglite') {
      // PGlite lives inside one process: seeded here before the servers open their copies.
      const inkwellDir = join(tmp, 'inkwell');
      bareTarget = join(tmp, 'bare');
      seeded = await prepare(await openDatabase({ kind, dataDir: inkwellDir }), content);
      await cp(inkwellDir, bareTarget, { recursive: true });
      inkwellEnv = { DATA_DIR: inkwellDir };
    } else {
      postgres = await startPostgresServer({ required: false });
      if (!postgres) return 'PostgreSQL is not installed';
      bareTarget = postgres.url;
      seeded = await prepare(await openDatabase({ kind, url: postgres.url }), content);
      inkwellEnv = { DATABASE_URL: postgres.url };
      const client = new pg.Client({ connectionString: postgres.url });
      admin = client;
      await client.connect();
      backendPids = async () => {
        const { rows } = await client.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        );
        return rows.map((row) => row.pid);
      };
    }

    const inkwell = await spawnNode(
      ['--import', 'tsx', 'server/main.ts'],
      /Inkwell listening on (http:\/\/[^\s"]+)/,
      {
        env: {
          ...inkwellEnv,
          PORT: '0',
          HOST: '127.0.0.1',
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
        },
      },
    );
    children.push(inkwell);
    const bare = await spawnNode(
      ['--import', 'tsx', 'bench/bareSaveServer.ts', bareTarget],
      /listening on (http:\/\/\S+)/,
    );
    children.push(bare);
    const pidsOf = (server: NodeChild) => async () => [
      ...(server.child.pid === undefined ? [] : [server.child.pid]),
      ...(await backendPids()),
    ];

    const publicUrl = new URL(inkwell.ready[1]!);
    // Same address family as the bare server; the Origin still has to be the public one.
    const inkwellUrl = `http://127.0.0.1:${publicUrl.port}`;
    const writersOf = (documentId: (w: SeededWriter) => string) =>
      seeded.map((w) => ({
        documentId: documentId(w),
        // Both sides get the same headers, so that requests are the same size.
        headers: {
          Cookie: `${sessionCookieName(publicUrl.href)}=${w.sessionToken}`,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          Origin: publicUrl.origin,
        },
        version: 1,
        saves: 0,
      }));
    const a = side(
      inkwellUrl,
      writersOf((w) => w.inkwellDocumentId),
      pidsOf(inkwell),
    );
    const b = side(
      bare.ready[1]!,
      writersOf((w) => w.bareDocumentId),
      pidsOf(bare),
    );

    await load(a, bodies, WARMUP_MS, true);
    await load(b, bodies, WARMUP_MS, true);
    for (let round = 0; round < ROUNDS; round++) {
      // A B B A: a slow drift of the machine weighs on both sides alike.
      for (const s of round % 2 === 0 ? [a, b] : [b, a]) await load(s, bodies, PHASE_MS, false);
    }
    for (const [name, s] of [
      ['Inkwell', a],
      ['bare', b],
    ] as const) {
      if (s.saves === 0) throw new Error(`${name} acknowledged no save: ${s.firstError}`);
      if (s.errors > 0) console.log(`  ${name}: ${s.errors} failed saves, first: ${s.firstError}`);
    }
    console.log(
      `${KIND_NAMES[kind]}: ${a.saves} saves by Inkwell over ${a.connections} connections, ` +
        `${b.saves} by the bare route over ${b.connections}`,
    );
    const label = (what: string) => `${KIND_NAMES[kind]}: ${what}`;
    return [
      {
        label: label('save p50'),
        value: percentile(a.latencies, 0.5),
        baseline: percentile(b.latencies, 0.5),
        unit: 'ms',
      },
      {
        label: label('save p99'),
        value: percentile(a.latencies, 0.99),
        baseline: percentile(b.latencies, 0.99),
        unit: 'ms',
      },
      {
        label: label('CPU per save, server + database'),
        value: a.cpuMs / a.saves,
        baseline: b.cpuMs / b.saves,
        unit: 'ms',
      },
      {
        label: label('throughput'),
        value: (a.saves * 1000) / a.elapsedMs,
        baseline: (b.saves * 1000) / b.elapsedMs,
        unit: 'per s',
        floor: THROUGHPUT_FLOOR,
      },
    ];
  } finally {
    await Promise.all(children.map((c) => stopChild(c.child, c.exited)));
    await admin?.end();
    await postgres?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Autosave under load: 50 writers in this process, each with its own session and ~100 kB
 * document, save back to back against Inkwell's `PATCH /api/documents/:id` in a server process,
 * on PGlite and on PostgreSQL, against a bare route writing the same row through the same driver.
 */
export async function autosave(fixtures: Fixtures): Promise<BenchReport> {
  const source = fixtures.bySize[0]!;
  const content = proseOfSize(source.markdown, DOCUMENT_BYTES);
  const bodies = saveBodies(content);
  const sample = bodies({ documentId: '', headers: {}, version: 1, saves: 1 }, 0);
  console.log(
    `${WRITERS} writers, ${formatBytes(Buffer.byteLength(sample))} per save (${content.content?.length} ` +
      `blocks of prose from the ${source.name} fixture), ${WARMUP_MS / 1000} s warm-up, then ` +
      `${ROUNDS} × ${PHASE_MS / 1000} s per side, alternating.`,
  );
  const figures: Figure[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    const measured = await measureKind(kind, bodies, content);
    if (typeof measured === 'string') {
      console.log(`${KIND_NAMES[kind]}: skipped, ${measured}.`);
      continue;
    }
    printFigures(measured, BASELINE);
    figures.push(...measured);
  }
  return { name: 'autosave', baselineName: BASELINE, figures };
}
