import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { hashToken } from '../auth/sessions.ts';
import type { RunningServer } from '../startServer.ts';
import { describeWithServer, signedInUser, TestClient } from '../test/testServer.ts';

const content = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'secret plans' }] }],
};

/** Every /api route; `state` is what the owner's document must be in for the owner to succeed. */
const ROUTES: {
  method: string;
  path: string;
  state: 'live' | 'trash' | 'none';
  json?: unknown;
  ok: number;
}[] = [
  { method: 'GET', path: '/api/me', state: 'none', ok: 200 },
  { method: 'GET', path: '/api/documents', state: 'none', ok: 200 },
  { method: 'GET', path: '/api/documents?trash=1', state: 'none', ok: 200 },
  { method: 'POST', path: '/api/documents', state: 'none', json: { title: 't' }, ok: 201 },
  { method: 'GET', path: '/api/documents/:id', state: 'live', ok: 200 },
  {
    method: 'PATCH',
    path: '/api/documents/:id',
    state: 'live',
    json: { baseVersion: 1, title: 'mine' },
    ok: 200,
  },
  { method: 'DELETE', path: '/api/documents/:id', state: 'live', ok: 204 },
  { method: 'POST', path: '/api/documents/:id/restore', state: 'trash', ok: 200 },
  { method: 'DELETE', path: '/api/documents/:id/permanent', state: 'trash', ok: 204 },
  { method: 'GET', path: '/api/documents/:id/export.md', state: 'live', ok: 200 },
  { method: 'GET', path: '/api/documents/:id/backlinks', state: 'live', ok: 200 },
  {
    method: 'POST',
    path: '/api/documents/:id/rename-links',
    state: 'live',
    json: { from: 'Before' },
    ok: 200,
  },
  {
    method: 'POST',
    path: '/api/links/resolve',
    state: 'none',
    json: { targets: ['Private'] },
    ok: 200,
  },
  { method: 'GET', path: '/api/vault/documents', state: 'none', ok: 200 },
  {
    method: 'POST',
    path: '/api/vault/documents',
    state: 'none',
    json: { documents: [{ id: randomUUID(), title: 'n', folder: 'f', content }] },
    ok: 200,
  },
  {
    method: 'POST',
    path: '/api/vault/markdown',
    state: 'none',
    json: { ids: [randomUUID()] },
    ok: 200,
  },
  { method: 'POST', path: '/api/session/logout', state: 'none', ok: 200 },
];

describeWithServer('who may call what', (context) => {
  let server: RunningServer;
  const getDb = () => context().db;

  beforeAll(async () => {
    server = context().server;
  });

  async function documentOf(client: TestClient, state: 'live' | 'trash'): Promise<string> {
    const res = await client.request('POST', '/api/documents', {
      json: { title: 'Private', content },
    });
    const { document } = (await res.json()) as { document: DocumentRecord };
    if (state === 'trash') await client.request('DELETE', `/api/documents/${document.id}`);
    return document.id;
  }

  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: anonymous 401, another user kept out, the owner served`, async () => {
      const owner = (await signedInUser(server, getDb(), 'Owner')).client;
      const other = (await signedInUser(server, getDb(), 'Other')).client;
      const id = route.state === 'none' ? '' : await documentOf(owner, route.state);
      const path = route.path.replace(':id', id);
      const options = route.json === undefined ? {} : { json: route.json };

      const anonymous = await new TestClient(server, undefined).request(
        route.method,
        path,
        options,
      );
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe(
        'unauthenticated',
      );

      const intruder = await other.request(route.method, path, options);
      if (route.state === 'none') {
        expect(intruder.status).toBe(route.ok);
        expect(await intruder.text()).not.toContain('secret plans');
      } else {
        expect(intruder.status).toBe(404);
        expect(await intruder.text()).not.toContain('secret plans');
      }

      const own = await owner.request(route.method, path, options);
      expect(own.status).toBe(route.ok);
    });
  }

  it('lists only the caller’s own documents', async () => {
    const owner = (await signedInUser(server, getDb(), 'Owner')).client;
    const other = (await signedInUser(server, getDb(), 'Other')).client;
    const id = await documentOf(owner, 'live');
    for (const query of ['', '?trash=1', '?q=secret']) {
      const res = await other.request('GET', `/api/documents${query}`);
      expect(JSON.stringify(await res.json())).not.toContain(id);
    }
    const found = await owner.request('GET', '/api/documents?q=secret');
    expect(JSON.stringify(await found.json())).toContain(id);
  });

  it('refuses a state-changing request without the CSRF header or from another origin (403)', async () => {
    const { client } = await signedInUser(server, getDb());
    const cookie = { Cookie: `inkwell_session=${client.token}` };
    const json = { 'Content-Type': 'application/json' };
    const attempts: Record<string, string>[] = [
      { ...cookie, ...json, Origin: new URL(server.url).origin },
      { ...cookie, ...json, 'X-Inkwell-Request': '1' },
      { ...cookie, ...json, 'X-Inkwell-Request': '1', Origin: 'https://evil.example' },
      { ...cookie, ...json, 'X-Inkwell-Request': '1', Origin: 'null' },
      { ...cookie, ...json, 'X-Inkwell-Request': 'yes', Origin: new URL(server.url).origin },
    ];
    for (const headers of attempts) {
      const res = await client.request('POST', '/api/documents', {
        body: '{}',
        headers,
        withoutCsrf: true,
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('csrf_rejected');
    }
    const list = (await (await client.request('GET', '/api/documents')).json()) as {
      documents: unknown[];
    };
    expect(list.documents).toEqual([]);
  });

  it('answers 401 to a forged, an expired and a signed-out session cookie', async () => {
    const forged = new TestClient(server, 'A'.repeat(43));
    expect((await forged.request('GET', '/api/me')).status).toBe(401);
    const huge = new TestClient(server, 'A'.repeat(5000));
    expect((await huge.request('GET', '/api/me')).status).toBe(401);

    const expired = (await signedInUser(server, getDb())).client;
    await getDb().query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1`,
      [hashToken(expired.token!)],
    );
    expect((await expired.request('GET', '/api/me')).status).toBe(401);

    const leaving = (await signedInUser(server, getDb())).client;
    expect((await leaving.request('GET', '/api/me')).status).toBe(200);
    const logout = await leaving.request('POST', '/api/session/logout');
    expect(logout.status).toBe(200);
    expect(logout.headers.get('Set-Cookie')).toMatch(/inkwell_session=;.*Max-Age=0/i);
    expect((await leaving.request('GET', '/api/me')).status).toBe(401);
  });
});
