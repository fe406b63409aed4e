import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';
import {
  POSTGRES_MISSING,
  adminQuery,
  databaseUrl,
  startPostgresServer,
  type PostgresServer,
} from './postgresServer.ts';

/** The database every test database of the server is copied from; nobody connects to it. */
export const TEMPLATE_DATABASE = 'inkwell_template';

/** What the global setup hands to test files, through `inject('testDatabases')`. */
export interface TestDatabasesContext {
  /** `dumpDataDir` tarballs of a PGlite cluster: before and after `migrate`. */
  pgliteSnapshots: { empty: string; migrated: string };
  /** The test server's `postgres` database, or why there is no server. */
  postgres: { url: string } | { skipReason: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabases: TestDatabasesContext;
  }
}

/**
 * Prepares the databases once per run: migrated PGlite snapshots (a fresh PGlite takes seconds,
 * loading a snapshot well under one) and a PostgreSQL server holding a migrated template.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'inkwell-test-'));
  // vitest exits on Ctrl-C without running teardowns.
  const removeAtExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeAtExit);
  const [snapshots, server] = await Promise.allSettled([
    buildPgliteSnapshots(dir),
    // CI must fail, not skip, when PostgreSQL is missing.
    startTemplateServer(process.env.CI === 'true'),
  ]);
  const teardown = async () => {
    process.off('exit', removeAtExit);
    if (server.status === 'fulfilled') await server.value?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  if (snapshots.status === 'rejected') {
    await teardown();
    throw snapshots.reason;
  }
  if (server.status === 'rejected') {
    await teardown();
    throw server.reason;
  }
  if (!server.value) console.warn(`${POSTGRES_MISSING}: database tests on postgres are skipped.`);
  project.provide('testDatabases', {
    pgliteSnapshots: snapshots.value,
    postgres: server.value ? { url: server.value.url } : { skipReason: POSTGRES_MISSING },
  });
  return teardown;
}

async function buildPgliteSnapshots(dir: string): Promise<TestDatabasesContext['pgliteSnapshots']> {
  const paths = {
    empty: join(dir, 'pglite-empty.tar'),
    migrated: join(dir, 'pglite-migrated.tar'),
  };
  const db = await openPglite(undefined);
  const dumpTo = async (path: string) =>
    writeFile(path, new Uint8Array(await (await db.dump()).arrayBuffer()));
  try {
    await dumpTo(paths.empty);
    await migrate(db);
    await dumpTo(paths.migrated);
  } finally {
    await db.close();
  }
  return paths;
}

async function startTemplateServer(required: boolean): Promise<PostgresServer | null> {
  const server = await startPostgresServer({ required });
  if (!server) return null;
  try {
    await adminQuery(server.url, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
    const db = await openPostgres(databaseUrl(server.url, TEMPLATE_DATABASE));
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // A stray connection to the template would make every CREATE DATABASE from it fail.
    await adminQuery(
      server.url,
      `ALTER DATABASE ${TEMPLATE_DATABASE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`,
    );
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}
