import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, inject } from 'vitest';
import type { Database } from '../db/database.ts';
import { openPglite } from '../db/pglite.ts';
import { migrate } from '../db/migrate.ts';
import { openPostgres } from '../db/postgres.ts';
import { TEMPLATE_DATABASE } from './globalSetup.ts';
import { adminQuery, databaseUrl } from './postgresServer.ts';

/** The kinds of database the server runs on; suites that touch SQL run on each. */
export const DATABASE_KINDS = ['pglite', 'postgres'] as const satisfies readonly Database['kind'][];

/** One of `DATABASE_KINDS`. */
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

/** Options of `openTestDatabase`. */
export interface TestDatabaseOptions {
  /** false: an empty database that `migrate` has not touched, for tests of migrations. Default true. */
  migrated?: boolean;
}

/** Why tests on `kind` cannot run on this machine, or undefined when they can. */
export function skipReason(kind: DatabaseKind): string | undefined {
  const { postgres } = inject('testDatabases');
  return kind === 'postgres' && 'skipReason' in postgres ? postgres.skipReason : undefined;
}

/**
 * Opens a fresh database of `kind` that no other test sees, migrated unless told otherwise.
 * Its `close()` also deletes it.
 */
export async function openTestDatabase(
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<Database> {
  const migrated = options.migrated ?? true;
  const { pgliteSnapshots, postgres } = inject('testDatabases');
  if (kind === 'pglite') {
    const snapshot = migrated ? pgliteSnapshots.migrated : pgliteSnapshots.empty;
    return openPglite(undefined, { loadDataDir: await openAsBlob(snapshot) });
  }
  if ('skipReason' in postgres) throw new Error(postgres.skipReason);
  const name = `test_${randomBytes(8).toString('hex')}`;
  // template0 rather than the default template1: a stray connection to it cannot block us.
  const template = migrated ? TEMPLATE_DATABASE : 'template0';
  await adminQuery(postgres.url, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const db = await openPostgres(databaseUrl(postgres.url, name)).catch(async (error: unknown) => {
    await adminQuery(postgres.url, `DROP DATABASE ${name}`);
    throw error;
  });
  let closed: Promise<void> | undefined;
  const drop = async () => {
    await db.close();
    await adminQuery(postgres.url, `DROP DATABASE ${name} WITH (FORCE)`);
  };
  // Idempotent, as PGlite's is: the harness closes again what a test closed itself.
  return { ...db, close: () => (closed ??= drop()) };
}

/**
 * Declares the suite `define` once per database kind, named "`name` on pglite" and "… on
 * postgres"; `getDb()` returns the running test's database, fresh for each test and migrated
 * unless `options.migrated` is false. Kinds this machine lacks are skipped (the global setup says
 * why).
 */
export function describeEachDatabase(
  name: string,
  define: (getDb: () => Database, kind: DatabaseKind) => void,
  options: TestDatabaseOptions = {},
): void {
  for (const kind of DATABASE_KINDS) {
    describe.skipIf(skipReason(kind) !== undefined)(`${name} on ${kind}`, () => {
      const source = kind === 'pglite' ? reusedPglite(options) : newDatabases(kind, options);
      let db: Database | undefined;
      beforeEach(async () => {
        db = await source.open();
      });
      afterEach(async () => {
        const finished = db;
        db = undefined;
        await source.release(finished);
      });
      afterAll(() => source.end());
      define(() => {
        if (!db) throw new Error('getDb() is for tests and hooks, not the describe body');
        return db;
      }, kind);
    });
  }
}

/** Where a suite gets each test's database from and gives it back. */
interface DatabaseSource {
  open(): Promise<Database>;
  release(db: Database | undefined): Promise<void>;
  end(): Promise<void>;
}

function newDatabases(kind: DatabaseKind, options: TestDatabaseOptions): DatabaseSource {
  return {
    open: () => openTestDatabase(kind, options),
    release: async (db) => {
      await db?.close();
    },
    end: async () => undefined,
  };
}

/**
 * One PGlite per suite, wiped between tests: dropping the schema and migrating again takes
 * ~30 ms where loading a snapshot takes ~500 ms. Only what lives outside the public schema
 * (roles, database settings) would outlast a test; a test that breaks or closes the database
 * gets a new copy.
 */
function reusedPglite(options: TestDatabaseOptions): DatabaseSource {
  let current: Database | undefined;
  const wipe = async (db: Database) => {
    await db.exec('DISCARD ALL');
    await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    if (options.migrated ?? true) await migrate(db);
  };
  return {
    open: async () => {
      if (current) {
        const used = current;
        current = undefined;
        try {
          await wipe(used);
          current = used;
        } catch {
          await used.close().catch(() => undefined);
        }
      }
      current ??= await openTestDatabase('pglite', options);
      return current;
    },
    release: async () => undefined,
    end: async () => {
      await current?.close().catch(() => undefined);
      current = undefined;
    },
  };
}
