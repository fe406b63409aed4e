import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DatabaseKind } from './databases.ts';
import type { TestBrowser } from './hostedProvider.ts';
import { adminQuery, databaseUrl } from './postgresServer.ts';

/** Where a spawned server keeps its data, and how to drop it after. */
export interface ServerStorage {
  /** The environment that points a spawned server at it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * Storage of `kind` of its own for spawned servers that are killed and started again on it (a
 * PGlite folder, or a PostgreSQL database of the test cluster); `label` names it.
 */
export async function serverStorage(kind: DatabaseKind, label: string): Promise<ServerStorage> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), `inkwell-${label}-`));
    return { env: { DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const { postgres } = inject('testDatabases');
  if ('skipReason' in postgres) throw new Error(postgres.skipReason);
  const name = `${label.replace(/-/g, '_')}_${randomBytes(6).toString('hex')}`;
  await adminQuery(postgres.url, `CREATE DATABASE ${name} TEMPLATE template0`);
  return {
    env: { DATABASE_URL: databaseUrl(postgres.url, name) },
    drop: () => adminQuery(postgres.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The Cookie header `browser` sends to `url`, for a socket opened outside it. */
export function cookieHeader(browser: TestBrowser, url: string): string {
  return [...browser.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');
}
