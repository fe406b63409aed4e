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
import type { GrantedRole } from '../common/api/sharing.ts';
import { freePort } from '../server/test/freePort.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { startRedis, type RedisServer } from '../server/test/redisServer.ts';
import { spawnNode, stopChild, type NodeChild } from './childProcess.ts';
import type { CollabTarget } from './collabClient.ts';

/** Issuer of the bench's users, which no provider will ever sign in. */
const BENCH_ISSUER = 'https://bench.inkwell.invalid';

export type Kind = 'pglite' | 'postgres';
export const KIND_NAMES: Record<Kind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** A person seeded straight into the database: sessions (one per tab or device) and documents. */
export interface Owner {
  userId: string;
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
    owners.push({ userId: user.id, tokens, documentIds });
  }
  return owners;
}

/** Shares `documentId` with each of `userIds` as `role` (document_shares, migration 0011). */
export async function shareDocument(
  db: Database,
  documentId: string,
  userIds: readonly string[],
  role: GrantedRole,
): Promise<void> {
  if (userIds.length === 0) return;
  await db.query(
    `INSERT INTO document_shares (document_id, user_id, role)
     SELECT $1, unnest($2::uuid[]), $3`,
    [documentId, `{${userIds.join(',')}}`, role],
  );
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
  /** Every instance, the first being the one `child`, `target` and `httpUrl` name. */
  instances: RunningServer[];
  /** The Cookie header of a session token. */
  cookie(token: string): string;
  stop(): Promise<void>;
}

/** Options of {@link startInkwell}. */
export interface StartInkwellOptions {
  /**
   * Instances sharing the database and a Redis server (`REDIS_URL`) behind one `PUBLIC_URL`, as
   * behind a load balancer; more than one needs PostgreSQL. Their CPU counts Redis's too.
   */
  instances?: number;
}

/**
 * Migrates and seeds a fresh database of `kind` with `seed`, then starts `server/main.ts` on it as a
 * child process (or several, `options.instances`). Returns null when PostgreSQL is wanted and not
 * installed.
 */
export async function startInkwell<T>(
  kind: Kind,
  seed: (db: Database) => Promise<T>,
  options: StartInkwellOptions = {},
): Promise<Inkwell<T> | null> {
  const count = options.instances ?? 1;
  if (count > 1 && kind !== 'postgres') throw new Error('Several instances need PostgreSQL.');
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-collab-'));
  let postgres: PostgresServer | null = null;
  let redis: RedisServer | undefined;
  let admin: pg.Client | undefined;
  const children: NodeChild[] = [];
  const cleanUp = async () => {
    await Promise.all(children.map((child) => stopChild(child.child, child.exited)));
    await admin?.end();
    await redis?.stop();
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
    let ports: string[];
    if (count > 1) {
      redis = await startRedis();
      ports = (await Promise.all(Array.from({ length: count }, () => freePort()))).map(String);
      // One public address for all, as behind a load balancer: one cookie name, one Origin.
      env = { ...env, REDIS_URL: redis.url, PUBLIC_URL: `http://127.0.0.1:${ports[0]}` };
      for (const port of ports) children.push(await spawnInkwell({ ...env, PORT: port }));
    } else {
      children.push(await spawnInkwell({ ...env, PORT: '0' }));
      ports = [new URL(children[0]!.ready[1]!).port];
    }
    const publicUrl = new URL(children[0]!.ready[1]!);
    const redisPid = redis?.pid;
    const instances: RunningServer[] = children.map((child, i) => ({
      child,
      httpUrl: `http://127.0.0.1:${ports[i]}`,
      target: { wsUrl: `ws://127.0.0.1:${ports[i]}/api/collab`, origin: publicUrl.origin },
      pids: async () => (child.child.pid === undefined ? [] : [child.child.pid]),
    }));
    const first = instances[0]!;
    return {
      ...first,
      instances,
      seeded,
      cookie: (token) => `${sessionCookieName(publicUrl.href)}=${token}`,
      pids: async () => [
        ...children.flatMap((child) => (child.child.pid === undefined ? [] : [child.child.pid])),
        ...(redisPid === undefined ? [] : [redisPid]),
        ...(await backendPids()),
      ],
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Starts one `server/main.ts` with `env`, resolving once it listens. */
function spawnInkwell(env: Record<string, string>): Promise<NodeChild> {
  return spawnNode(
    ['--import', 'tsx', 'server/main.ts'],
    /Inkwell listening on (http:\/\/[^\s"]+)/,
    {
      env: { HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    },
  );
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
