import { afterAll, beforeAll, describe } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/errors.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { sessionCookieName } from '../middleware/session.ts';
import { startServer, type RunningServer, type StartOptions } from '../startServer.ts';
import { DATABASE_KINDS, openTestDatabase, skipReason } from './databases.ts';
import { testUserWithSession } from './users.ts';

/** Starts Inkwell on a free port over `db`, quiet, with `overrides` on top of the defaults. */
export async function startTestServer(
  db: Database,
  overrides: Partial<Config> = {},
  options: Omit<StartOptions, 'database'> = {},
): Promise<RunningServer> {
  const config = {
    ...loadConfig({ PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    ...overrides,
  };
  return startServer(config, { logger: createLogger('silent'), ...options, database: db });
}

/** Options of one `TestClient` request. */
export interface RequestOptions {
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as is (for malformed bodies). */
  body?: string;
  headers?: Record<string, string>;
  /** Leave out the CSRF header and the Origin (default: send both, as the app does). */
  withoutCsrf?: boolean;
}

/** Calls the API as the browser app does: the session cookie, the CSRF header and our Origin. */
export class TestClient {
  constructor(
    readonly server: RunningServer,
    /** The session cookie's value; undefined for an anonymous visitor. */
    readonly token: string | undefined,
  ) {}

  /** Sends one request; redirects are not followed. */
  request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) {
      headers.Cookie = `${sessionCookieName(this.server.url)}=${this.token}`;
    }
    if (!options.withoutCsrf && method !== 'GET') {
      headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
      headers.Origin = new URL(this.server.url).origin;
    }
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    }
    return fetch(new URL(path, this.server.url), { method, headers, body, redirect: 'manual' });
  }
}

/** A user as the provider would have created them, with a fresh session (the factory behind API tests). */
export async function signedInUser(
  server: RunningServer,
  db: Database,
  name = 'Ada',
): Promise<{ user: SessionUser; client: TestClient }> {
  const { user, token } = await testUserWithSession(db, name);
  return { user, client: new TestClient(server, token) };
}

/** The running server and its database, for the tests of a `describeWithServer` block. */
export interface ServerContext {
  server: RunningServer;
  db: Database;
}

/**
 * Declares `define` once per database kind ("`name` on pglite", "… on postgres"), with one server
 * and one database for the whole block: tests keep apart by signing in users of their own.
 */
export function describeWithServer(
  name: string,
  define: (context: () => ServerContext) => void,
  overrides: Partial<Config> = {},
): void {
  for (const kind of DATABASE_KINDS) {
    describe.skipIf(skipReason(kind) !== undefined)(`${name} on ${kind}`, () => {
      let context: ServerContext | undefined;
      beforeAll(async () => {
        const db = await openTestDatabase(kind);
        context = { db, server: await startTestServer(db, overrides) };
      });
      afterAll(async () => {
        await context?.server.close();
        await context?.db.close();
      });
      define(() => {
        if (!context)
          throw new Error('the server exists in tests and hooks, not the describe body');
        return context;
      });
    });
  }
}
