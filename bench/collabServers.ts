import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DocumentContent } from '../common/api/documents.ts';
import { createSession, upsertUser } from '../server/auth/sessions.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { DocumentStore } from '../server/documents/documentStore.ts';
import { validateContent } from '../server/documents/validateContent.ts';
import { sessionCookieName } from '../server/middleware/session.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { spawnNode, stopChild, type NodeChild } from './childProcess.ts';
import type { CollabTarget } from './collabClient.ts';

/** Issuer of the bench's users, which no provider will ever sign in. */
const BENCH_ISSUER = 'https://bench.inkwell.invalid';

export type Kind = 'pglite' | 'postgres';
export const KIND_NAMES: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** A person seeded straight into the database: sessions (one per tab or device) and documents. */
export interface Owner {
  /** Session cookie values, one per writer of this person. */
  tokens: string[];
  /** Their documents, one per content given to `seedOwners`, in that order. */
  documentIds: string[];
}

/**
 * Creates `count` people named `<prefix>-<i>`, each with `sessions` sessions and a copy of each of
 * `contents`, straight in the database: signing up through the provider costs ~0.3 s each.
 */
export async function seedOwners(
  db: Database,
  prefix: string,
  count: number,
  sessions: number,
  contents: readonly DocumentContent[],
): Promise<Owner[]> {
  const store = new DocumentStore(db);
  const valid = contents.map((content) => validateContent(content));
  const owners: Owner[] = [];
  for (let i = 0; i < count; i++) {
    const user = await upsertUser(db, {
      issuer: BENCH_ISSUER,
      subject: `${prefix}-${i}`,
      email: `${prefix}-${i}@bench.invalid`,
      name: `${prefix} ${i}`,
    });
    const tokens: string[] = [];
    for (let s = 0; s < sessions; s++) {
      tokens.push(
        await createSession(db, {
          userId: user.id,
          days: 30,
          userAgent: 'inkwell-bench',
          idToken: undefined,
        }),
      );
    }
    const documentIds: string[] = [];
    for (const [d, content] of valid.entries()) {
      documentIds.push((await store.create(user.id, `${prefix} ${i}.${d}`, content)).id);
    }
    owners.push({ tokens, documentIds });
  }
  return owners;
}

/** A server process under measurement. */
export interface RunningServer {
  child: NodeChild;
  /** Where live clients connect. */
  target: CollabTarget;
  /** Its HTTP origin, for REST requests (same address family as the socket). */
  httpUrl: string;
  /** The processes whose CPU it costs: itself and, on PostgreSQL, the backends. */
  pids(): Promise<number[]>;
}

/** Inkwell started on a seeded database, with what the seeding returned. */
export interface Inkwell<T> extends RunningServer {
  seeded: T;
  /** The Cookie header of a session token. */
  cookie(token: string): string;
  stop(): Promise<void>;
}

/**
 * Migrates and seeds a fresh database of `kind` with `seed`, then starts `server/main.ts` on it as a
 * child process. Returns null when PostgreSQL is wanted and not installed.
 */
export async function startInkwell<T>(
  kind: Kind,
  seed: (db: Database) => Promise<T>,
): Promise<Inkwell<T> | null> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-collab-'));
  let postgres: PostgresServer | null = null;
  let admin: pg.Client | undefined;
  let child: NodeChild | undefined;
  const cleanUp = async () => {
    if (child) await stopChild(child.child, child.exited);
    await admin?.end();
    await postgres?.stop();
    await rm(tmp, { recursive: true, force: true });
  };
  try {
    let env: Record<string, string>;
    let db: Database;
    if (kind === 'pglite') {
      // PGlite lives inside one process: seeded here, then let go before the server opens it.
      env = { DATA_DIR: join(tmp, 'data') };
      db = await openDatabase({ kind, dataDir: env.DATA_DIR! });
    } else {
      postgres = await startPostgresServer({ required: false });
      if (!postgres) {
        await cleanUp();
        return null;
      }
      env = { DATABASE_URL: postgres.url };
      db = await openDatabase({ kind, url: postgres.url });
    }
    let seeded: T;
    try {
      await migrate(db);
      seeded = await seed(db);
    } finally {
      await db.close();
    }
    let backendPids = (): Promise<number[]> => Promise.resolve([]);
    if (postgres) {
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
    child = await spawnNode(
      ['--import', 'tsx', 'server/main.ts'],
      /Inkwell listening on (http:\/\/[^\s"]+)/,
      {
        env: { ...env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info' },
      },
    );
    const publicUrl = new URL(child.ready[1]!);
    const httpUrl = `http://127.0.0.1:${publicUrl.port}`;
    const server = child;
    return {
      child: server,
      seeded,
      httpUrl,
      target: { wsUrl: `ws://127.0.0.1:${publicUrl.port}/api/collab`, origin: publicUrl.origin },
      cookie: (token) => `${sessionCookieName(publicUrl.href)}=${token}`,
      pids: async () => [
        ...(server.child.pid === undefined ? [] : [server.child.pid]),
        ...(await backendPids()),
      ],
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** The bare Hocuspocus server (`bareCollabServer.ts`) with `documents` as its starting contents. */
export async function startBare(
  documents: Record<string, DocumentContent>,
): Promise<RunningServer & { stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'inkwell-bench-bare-collab-'));
  await mkdir(dir, { recursive: true });
  for (const [key, content] of Object.entries(documents)) {
    await writeFile(join(dir, `${key}.json`), JSON.stringify(content));
  }
  try {
    const child = await spawnNode(
      ['--import', 'tsx', 'bench/bareCollabServer.ts', dir],
      /listening on (http:\/\/\S+)/,
    );
    const httpUrl = child.ready[1]!;
    return {
      child,
      httpUrl,
      target: { wsUrl: httpUrl.replace(/^http/, 'ws'), origin: httpUrl },
      pids: () => Promise.resolve(child.child.pid === undefined ? [] : [child.child.pid]),
      stop: async () => {
        await stopChild(child.child, child.exited);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
