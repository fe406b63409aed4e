import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE, errorBodySchema } from '../common/api/errors.ts';
import { createApp, PUBLIC_API_ROUTES, SELF_AUTHENTICATING_API_ROUTES } from './app.ts';
import { hashToken } from './auth/sessions.ts';
import type { Database, SqlParam } from './db/database.ts';
import { createLogger } from './logger.ts';
import type { RunningServer } from './startServer.ts';
import { openTestDatabase } from './test/databases.ts';
import { signedInUser, startTestServer, type TestClient } from './test/testServer.ts';
import { testUserWithSession } from './test/users.ts';

const INDEX = '<!doctype html><title>Inkwell</title><p>spa-shell</p>';
const SECRET = 'outside-the-client-dir';
const HTML = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let root: string;
let db: Database;
let server: RunningServer;
let client: TestClient;

/** What a signed-in browser gets for `path`. */
const app = {
  request: (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    client.request(init.method ?? 'GET', path, { headers: init.headers }),
};

beforeAll(async () => {
  // The client folder sits beside a file that no request may ever reach.
  root = await mkdtemp(join(tmpdir(), 'inkwell-app-'));
  const clientDir = join(root, 'client');
  await mkdir(join(clientDir, 'assets'), { recursive: true });
  await writeFile(join(clientDir, 'index.html'), INDEX);
  await writeFile(join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await writeFile(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(root, 'secret.txt'), SECRET);
  db = await openTestDatabase('pglite');
  server = await startTestServer(db, {}, { clientDir });
  client = (await signedInUser(server, db)).client;
});

afterAll(async () => {
  await server.close();
  await db.close();
  await rm(root, { recursive: true, force: true });
});

describe('createApp', () => {
  it('answers the health check', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves index.html at / without caching it', async () => {
    const res = await app.request('/', { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
  });

  it('serves index.html for any app route a browser navigates to', async () => {
    for (const path of ['/d/7f9c0a52-3f6e-4a43-9a4b-2d1b5c1e8e11', '/trash', '/settings']) {
      const res = await app.request(path, { headers: HTML });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await app.request('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves other static files with revalidation', async () => {
    const res = await app.request('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const res = await app.request('/assets/index-gone.js', { headers: HTML });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
  });

  it('answers a request that does not accept HTML with 404 JSON', async () => {
    const res = await app.request('/d/123', { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });

  it('answers an unknown API route with 404 JSON, even from a browser', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await app.request('/api/nope', { method, headers: HTML });
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        error: { code: 'not_found', message: 'There is no such API endpoint.' },
      });
    }
  });

  it('sets the security headers on pages, assets, JSON and errors', async () => {
    for (const path of ['/', '/assets/index-abc123.js', '/healthz', '/api/nope']) {
      const res = await app.request(path, { headers: HTML });
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('Content-Security-Policy'), path).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' data: blob: https: http:; media-src 'self' https:; " +
          "frame-src https://www.youtube-nocookie.com; object-src 'none'; base-uri 'none'; " +
          "frame-ancestors 'none'; form-action 'self'; connect-src 'self'",
      );
    }
  });

  // Node itself refuses request heads over 16 KB (431); this one is over our limit but under Node's.
  it('answers a 10 KB URL with 400 invalid_request', async () => {
    const res = await app.request(`/d/${'a'.repeat(10_000)}`, { headers: HTML });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_request');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });
});

describe('createApp over a real socket', () => {
  let port: number;

  beforeAll(() => {
    port = Number(new URL(server.url).port);
  });

  /** Sends `target` byte for byte, as `fetch` would normalise the dots away before sending. */
  function rawGet(target: string, accept = '*/*'): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (data += chunk));
      const answer = () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
        resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
      };
      // Node answers an oversized request line and closes while we may still be writing it,
      // which resets the connection after the answer arrived; only a reset before it fails.
      socket.on('error', (error) => (data.startsWith('HTTP/1.1 ') ? answer() : reject(error)));
      socket.on('end', answer);
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: localhost:${port}\r\nAccept: ${accept}\r\n` +
          `Cookie: inkwell_session=${client.token}\r\nConnection: close\r\n\r\n`,
      );
    });
  }

  const hostile = [
    '/../secret.txt',
    '/../../../../etc/passwd',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/etc/passwd',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/index.html%00.js',
    '//etc/passwd',
  ];

  it.each(hostile)('never serves a file outside the client folder for %s', async (target) => {
    const res = await rawGet(target);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('root:');
  });

  it.each(hostile)('gives a browser at most the app shell for %s', async (target) => {
    const res = await rawGet(target, HTML.Accept);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('root:');
    if (res.status === 200) expect(res.body).toBe(INDEX);
    else expect([400, 404]).toContain(res.status);
  });

  it('refuses a 100 KB URL cleanly', async () => {
    const res = await rawGet(`/${'a'.repeat(100_000)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('pages for signed-in visitors', () => {
  it('renew the session cookie when the server pushes the session expiry back', async () => {
    const { client: aged } = await signedInUser(server, db, 'Returning');
    await db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '1 hour' WHERE id_hash = $1`,
      [hashToken(aged.token!)],
    );
    const res = await aged.request('GET', '/d/abc', { headers: HTML });
    expect(res.status).toBe(200);
    const days = server.services.config.sessionDays;
    expect(res.headers.get('Set-Cookie')).toMatch(
      new RegExp(`^inkwell_session=${aged.token}; Max-Age=${days * 86400};`),
    );
  });
});

describe('pages for signed-out visitors', () => {
  it('sends them from / through sign-in too, never serving the app shell unsigned', async () => {
    const res = await fetch(new URL('/', server.url), { headers: HTML, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/auth/login?returnTo=${encodeURIComponent('/')}`);
  });

  it('sends them through sign-in and back to the page they asked for', async () => {
    const res = await fetch(new URL('/d/abc?x=1', server.url), {
      headers: HTML,
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(
      `/auth/login?returnTo=${encodeURIComponent('/d/abc?x=1')}`,
    );
  });

  it('moves a visit to 127.0.0.1 to the one host name sign-in works on', async () => {
    const url = new URL('/trash', server.url);
    url.hostname = '127.0.0.1';
    const res = await fetch(url, { headers: HTML, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`${server.url}/trash`);
  });

  it('still serves them the assets the sign-in pages need', async () => {
    const res = await fetch(new URL('/favicon.svg', server.url));
    expect(res.status).toBe(200);
  });
});

describe('createApp without a client build', () => {
  it('still answers the health check and the API, 404s pages, and says how to build', async () => {
    const lines: string[] = [];
    const bare = await startTestServer(
      db,
      {},
      {
        clientDir: join(tmpdir(), 'no-such-dir'),
        logger: createLogger('info', { write: (line: string) => lines.push(line) }),
      },
    );
    try {
      const visitor = (await signedInUser(bare, db)).client;
      expect((await visitor.request('GET', '/healthz')).status).toBe(200);
      expect((await visitor.request('GET', '/api/documents')).status).toBe(200);
      expect((await visitor.request('GET', '/', { headers: HTML })).status).toBe(404);
      expect(lines.join('\n')).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });
});

describe('the API without a session', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

  /** Every API route the app declares, as `METHOD /path`; `ALL` expands to every method. */
  function declaredRoutes(): string[] {
    const routes = createApp(server.services).routes.filter((route) => isApi(route.path));
    const keys = routes.flatMap((route) =>
      route.method === 'ALL'
        ? METHODS.map((method) => `${method} ${route.path}`)
        : [`${route.method} ${route.path}`],
    );
    return [...new Set(keys)];
  }

  /** A concrete URL for a declared path: parameters and wildcards filled in. */
  const concrete = (path: string) =>
    path.replace(/:\w+(\{[^}]*\})?/g, '00000000-0000-4000-8000-000000000000').replace(/\*/g, 'x');

  it('finds the routes it checks, including the AI route that checks its own session', () => {
    const routes = declaredRoutes();
    expect(routes).toContain('GET /api/documents');
    expect(routes).toContain('POST /api/ai/generate');
    for (const listed of [...PUBLIC_API_ROUTES, ...SELF_AUTHENTICATING_API_ROUTES]) {
      expect(routes, `${listed} is listed but not declared`).toContain(listed);
    }
  });

  it('answers 401 unauthenticated on every route not listed as public', async () => {
    const publicRoutes = new Set<string>(PUBLIC_API_ROUTES);
    for (const route of declaredRoutes()) {
      if (publicRoutes.has(route)) continue;
      const [method, path] = route.split(' ') as [string, string];
      // With the CSRF header and our Origin, so only the missing session can refuse it.
      const res = await fetch(new URL(concrete(path), server.url), {
        method,
        headers: {
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          Origin: server.url,
          'Content-Type': 'application/json',
        },
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        redirect: 'manual',
      });
      expect(res.status, route).toBe(401);
      expect(errorBodySchema.parse(await res.json()).error.code, route).toBe('unauthenticated');
    }
  });

  it('looks the session of an AI request up once, in the AI route only', async () => {
    const { token } = await testUserWithSession(db);
    let lookups = 0;
    const counting: Database = {
      kind: db.kind,
      query: <Row>(sql: string, params?: readonly SqlParam[]) => {
        if (/find_session|ai_admit_session/.test(sql)) lookups += 1;
        return db.query<Row>(sql, params);
      },
      exec: (sql) => db.exec(sql),
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    };
    const bare = createApp({ ...server.services, db: counting, sessionCache: undefined });
    const res = await bare.request('/api/ai/generate', {
      method: 'POST',
      headers: {
        Cookie: `inkwell_session=${token}`,
        [CSRF_HEADER]: CSRF_HEADER_VALUE,
        Origin: server.url,
      },
      body: '{}',
    });
    // AI is off on this server: the route still checks who asks first.
    expect(res.status).toBe(503);
    expect(lookups).toBe(1);
  });
});
