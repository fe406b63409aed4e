import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import type { Database } from './db/database.ts';
import { ROUTE_ACCESS } from './routeAccess.ts';
import type { RunningServer } from './startServer.ts';
import { openTestDatabase } from './test/databases.ts';
import { startTestServer } from './test/testServer.ts';

/**
 * Every route of the real app as `METHOD /path`. Hono lists `use` middleware as `ALL` entries
 * too; those take `next` to pass the request on, while a route's handler (`app.all` included)
 * answers it, so an `ALL` entry taking `next` is left out. Method routes are all kept: their
 * middleware (a body limit) shares the key of their handler.
 */
async function registeredRoutes(server: RunningServer): Promise<string[]> {
  // With a client build, so that the routes serving it are registered too.
  const clientDir = await mkdtemp(join(tmpdir(), 'inkwell-routes-'));
  try {
    await writeFile(join(clientDir, 'index.html'), '<!doctype html>');
    const app = createApp(server.services, { clientDir });
    const keys = app.routes
      .filter((route) => route.method !== 'ALL' || route.handler.length < 2)
      .map((route) => `${route.method} ${route.path}`);
    return [...new Set(keys)];
  } finally {
    await rm(clientDir, { recursive: true, force: true });
  }
}

describe('the access rule of every route', () => {
  let db: Database;
  let server: RunningServer;
  let routes: string[];

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    server = await startTestServer(db);
    routes = await registeredRoutes(server);
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  it('finds the routes of every part of the app, and no middleware', () => {
    for (const route of [
      'GET /api/documents/:id',
      'POST /api/share-links/join',
      'GET /p/:token',
      'GET /files/:id',
      'GET /api/collab',
      'ALL /api/*',
    ]) {
      expect(routes).toContain(route);
    }
    // The session check and the security headers are `use` middleware, not routes.
    expect(routes).not.toContain('ALL /*');
  });

  it('declares a rule for every registered route', () => {
    const undeclared = routes.filter((route) => !Object.hasOwn(ROUTE_ACCESS, route));
    expect(undeclared, 'add these to ROUTE_ACCESS in server/routeAccess.ts').toEqual([]);
  });

  it('declares no rule for a route that does not exist', () => {
    const stale = Object.keys(ROUTE_ACCESS).filter((route) => !routes.includes(route));
    expect(stale, 'remove these from ROUTE_ACCESS in server/routeAccess.ts').toEqual([]);
  });
});
