import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import type {
  FindPersonResponse,
  JoinLinkResponse,
  SharingState,
} from '../../common/api/sharing.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { documentRole } from '../documents/access.ts';
import type { RunningServer } from '../startServer.ts';
import {
  describeWithServer,
  signedInUser,
  type RequestOptions,
  type TestClient,
} from '../test/testServer.ts';

interface ErrorAnswer {
  error: { code: string; message: string };
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const inOneDay = () => new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();

describeWithServer('the sharing API', (context) => {
  let server: RunningServer;
  const getDb = () => context().db;

  beforeAll(() => {
    server = context().server;
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  type Account = { user: SessionUser; client: TestClient };
  const person = (name: string): Promise<Account> => signedInUser(server, getDb(), name);

  /** A signed-in owner and a document of theirs. */
  async function ownedDocument(): Promise<Account & { id: string; base: string }> {
    const owner = await person('Owner');
    const res = await owner.client.request('POST', '/api/documents', { json: { title: 'Plans' } });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { document: DocumentRecord }).document;
    return { ...owner, id, base: `/api/documents/${id}/sharing` };
  }

  async function call<T>(
    client: TestClient,
    method: string,
    path: string,
    status: number,
    options: RequestOptions = {},
  ): Promise<T> {
    const res = await client.request(method, path, options);
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBe(status);
    return JSON.parse(text) as T;
  }
  const ok = (client: TestClient, method: string, path: string, json?: unknown) =>
    call<SharingState>(client, method, path, 200, json === undefined ? {} : { json });
  const refused = (
    client: TestClient,
    method: string,
    path: string,
    status: number,
    options: RequestOptions = {},
  ) => call<ErrorAnswer>(client, method, path, status, options).then((body) => body.error);
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const roleOf = (user: SessionUser, id: string) => documentRole(getDb(), user.id, id);

  it('shows the owner who has the document, its link and its page', async () => {
    const { user, client, base } = await ownedDocument();
    expect(await ok(client, 'GET', base)).toEqual({
      owner: { id: user.id, name: 'Owner', email: user.email },
      people: [],
      link: null,
      published: null,
    });
  });

  it('finds a person by address regardless of case, and says when no account uses it', async () => {
    const { client } = await person('Asker');
    const { user: bob } = await person('Bob');
    const found = await call<FindPersonResponse>(
      client,
      'GET',
      `/api/people?email=${encodeURIComponent(` ${bob.email!.toUpperCase()} `)}`,
      200,
    );
    expect(found.person).toEqual({ id: bob.id, name: 'Bob', email: bob.email });

    const missing = await refused(client, 'GET', '/api/people?email=nobody%40example.com', 404);
    expect(missing).toEqual({ code: 'not_found', message: 'No account uses this address.' });
    for (const query of [
      '',
      '?email=',
      '?email=not-an-address',
      `?email=${'a'.repeat(1000)}%40example.com`,
      `?email=${'a'.repeat(10_000)}%40example.com`,
      "?email='%20OR%201%3D1%20--",
    ]) {
      expect((await refused(client, 'GET', `/api/people${query}`, 400)).code).toBe(
        'invalid_request',
      );
    }
  });

  it('shares with a person by address and changes their role on a second share', async () => {
    const { client, id, base } = await ownedDocument();
    const { user: bob } = await person('Bob');
    const shared = await ok(client, 'PUT', `${base}/people`, {
      email: bob.email!.toUpperCase(),
      role: 'viewer',
    });
    expect(shared.people).toEqual([{ id: bob.id, name: 'Bob', email: bob.email, role: 'viewer' }]);
    expect(await roleOf(bob, id)).toBe('viewer');

    const again = await ok(client, 'PUT', `${base}/people`, { email: bob.email, role: 'editor' });
    expect(again.people).toEqual([{ id: bob.id, name: 'Bob', email: bob.email, role: 'editor' }]);
    expect(await roleOf(bob, id)).toBe('editor');
  });

  it('refuses sharing with the owner, an address without an account and the owner role', async () => {
    const { user, client, base } = await ownedDocument();
    const { user: bob } = await person('Bob');
    const path = `${base}/people`;
    expect(
      await refused(client, 'PUT', path, 400, { json: { email: user.email, role: 'editor' } }),
    ).toMatchObject({ code: 'invalid_request' });
    expect(
      await refused(client, 'PUT', path, 404, {
        json: { email: 'nobody@example.com', role: 'viewer' },
      }),
    ).toEqual({ code: 'not_found', message: 'No account uses this address.' });
    for (const json of [
      { email: bob.email, role: 'owner' },
      { email: bob.email, role: 'admin' },
      { email: bob.email },
      { email: 'bob at example', role: 'viewer' },
      { email: `${'b'.repeat(10_000)}@example.com`, role: 'viewer' },
      { email: ['x@example.com'], role: 'viewer' },
    ]) {
      const error = await refused(client, 'PUT', path, 400, { json });
      expect(error.code, JSON.stringify(json).slice(0, 80)).toBe('invalid_request');
    }
    expect((await ok(client, 'GET', base)).people).toEqual([]);
  });

  it('changes and removes a person by id, and 404s for anyone not shared with', async () => {
    const { client, id, base } = await ownedDocument();
    const { user: bob } = await person('Bob');
    await ok(client, 'PUT', `${base}/people`, { email: bob.email, role: 'viewer' });

    const changed = await ok(client, 'PATCH', `${base}/people/${bob.id}`, { role: 'editor' });
    expect(changed.people[0]?.role).toBe('editor');
    expect(await roleOf(bob, id)).toBe('editor');
    for (const other of [randomUUID(), 'not-a-uuid', '1%27%3B%20DROP%20TABLE%20users']) {
      const error = await refused(client, 'PATCH', `${base}/people/${other}`, 404, {
        json: { role: 'viewer' },
      });
      expect(error.message, other).toBe('The document is not shared with this person.');
    }
    expect(
      (
        await refused(client, 'PATCH', `${base}/people/${bob.id}`, 400, {
          json: { role: 'owner' },
        })
      ).code,
    ).toBe('invalid_request');

    expect((await ok(client, 'DELETE', `${base}/people/${bob.id}`)).people).toEqual([]);
    expect(await roleOf(bob, id)).toBeNull();
    await refused(client, 'DELETE', `${base}/people/${bob.id}`, 404);
  });

  it('turns the link on, keeps its address when its role changes, and lets people in through it', async () => {
    const { client, id, base } = await ownedDocument();
    const { user: bob, client: bobs } = await person('Bob');
    const on = await ok(client, 'PUT', `${base}/link`, { role: 'viewer' });
    expect(on.link).toMatchObject({
      role: 'viewer',
      url: expect.stringMatching(/\/s\/[\w-]{43}$/),
    });
    expect(on.link!.url.startsWith(`${server.url}/s/`)).toBe(true);
    const token = tokenOf(on.link!.url);

    const joined = await call<JoinLinkResponse>(bobs, 'POST', '/api/share-links/join', 200, {
      json: { token },
    });
    expect(joined).toEqual({ documentId: id, role: 'viewer' });
    expect(await roleOf(bob, id)).toBe('viewer');

    const editing = await ok(client, 'PUT', `${base}/link`, { role: 'editor' });
    expect(editing.link).toMatchObject({ role: 'editor', url: on.link!.url });
    expect(await roleOf(bob, id)).toBe('editor');
    // Members are not people the owner shared with by name.
    expect(editing.people).toEqual([]);
  });

  it('stops the old address and everyone who came in through it when the link is reset', async () => {
    const { client, id, base } = await ownedDocument();
    const { user: bob, client: bobs } = await person('Bob');
    const { client: carol } = await person('Carol');
    const old = tokenOf((await ok(client, 'PUT', `${base}/link`, { role: 'editor' })).link!.url);
    await call(bobs, 'POST', '/api/share-links/join', 200, { json: { token: old } });

    const reset = await ok(client, 'POST', `${base}/link/reset`);
    const fresh = tokenOf(reset.link!.url);
    expect(fresh).toMatch(TOKEN);
    expect(fresh).not.toBe(old);
    expect(await roleOf(bob, id)).toBeNull();
    await refused(carol, 'POST', '/api/share-links/join', 404, { json: { token: old } });
    const back = await call<JoinLinkResponse>(bobs, 'POST', '/api/share-links/join', 200, {
      json: { token: fresh },
    });
    expect(back.role).toBe('editor');
  });

  it('stops the link and its members when it is turned off; turned on again it is a new address', async () => {
    const { client, id, base } = await ownedDocument();
    const { user: bob, client: bobs } = await person('Bob');
    const first = tokenOf((await ok(client, 'PUT', `${base}/link`, { role: 'viewer' })).link!.url);
    await call(bobs, 'POST', '/api/share-links/join', 200, { json: { token: first } });

    expect((await ok(client, 'DELETE', `${base}/link`)).link).toBeNull();
    expect(await roleOf(bob, id)).toBeNull();
    await refused(bobs, 'POST', '/api/share-links/join', 404, { json: { token: first } });
    await refused(client, 'POST', `${base}/link/reset`, 404);

    const second = tokenOf((await ok(client, 'PUT', `${base}/link`, { role: 'viewer' })).link!.url);
    expect(second).not.toBe(first);
    expect(await roleOf(bob, id)).toBeNull();
  });

  it('lets the owner come in through their own link as owner, writing no member row', async () => {
    const { user, client, id, base } = await ownedDocument();
    const token = tokenOf((await ok(client, 'PUT', `${base}/link`, { role: 'viewer' })).link!.url);
    const joined = await call<JoinLinkResponse>(client, 'POST', '/api/share-links/join', 200, {
      json: { token },
    });
    expect(joined).toEqual({ documentId: id, role: 'owner' });
    const { rows } = await getDb().query(
      'SELECT 1 FROM share_link_members WHERE document_id = $1 AND user_id = $2',
      [id, user.id],
    );
    expect(rows).toEqual([]);
  });

  it('refuses a malformed token (400), and one that opens nothing or a trashed document (404)', async () => {
    const { client, id, base } = await ownedDocument();
    const { client: bobs } = await person('Bob');
    for (const token of [
      '',
      'short',
      'x'.repeat(44),
      `${'a'.repeat(42)}=`,
      'a'.repeat(10_000),
      7,
    ]) {
      const error = await refused(bobs, 'POST', '/api/share-links/join', 400, {
        json: { token },
      });
      expect(error.code).toBe('invalid_request');
    }
    await refused(bobs, 'POST', '/api/share-links/join', 404, { json: { token: 'A'.repeat(43) } });

    const token = tokenOf((await ok(client, 'PUT', `${base}/link`, { role: 'viewer' })).link!.url);
    expect((await client.request('DELETE', `/api/documents/${id}`)).status).toBe(204);
    const error = await refused(bobs, 'POST', '/api/share-links/join', 404, { json: { token } });
    expect(error.code).toBe('not_found');
  });

  it('publishes, keeps the address while published, and gives a new one after unpublishing', async () => {
    const { client, base } = await ownedDocument();
    const first = await ok(client, 'PUT', `${base}/publish`, {});
    expect(first.published).toMatchObject({ indexable: false, expiresAt: null });
    expect(first.published!.url.startsWith(`${server.url}/p/`)).toBe(true);
    expect(tokenOf(first.published!.url)).toMatch(TOKEN);

    const expiresAt = inOneDay();
    const changed = await ok(client, 'PUT', `${base}/publish`, { indexable: true, expiresAt });
    expect(changed.published).toMatchObject({ url: first.published!.url, indexable: true });
    expect(Date.parse(changed.published!.expiresAt!)).toBe(Date.parse(expiresAt));

    expect((await ok(client, 'DELETE', `${base}/publish`)).published).toBeNull();
    const again = await ok(client, 'PUT', `${base}/publish`, {});
    expect(again.published!.url).not.toBe(first.published!.url);
  });

  it('refuses an expiry in the past, too far ahead, or that is no time', async () => {
    const { client, base } = await ownedDocument();
    for (const expiresAt of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 3651 * 24 * 60 * 60 * 1000).toISOString(),
      '2030-02-30T00:00:00Z',
      'tomorrow',
      1_900_000_000_000,
    ]) {
      const error = await refused(client, 'PUT', `${base}/publish`, 400, { json: { expiresAt } });
      expect(error.code, String(expiresAt)).toBe('invalid_request');
    }
    expect((await ok(client, 'GET', base)).published).toBeNull();
  });

  it('answers every management route with the 404 of a missing document to anyone but the owner', async () => {
    const { client, base } = await ownedDocument();
    const editor = await person('Editor');
    const viewer = await person('Viewer');
    const member = await person('Member');
    const stranger = await person('Stranger');
    await ok(client, 'PUT', `${base}/people`, { email: editor.user.email, role: 'editor' });
    await ok(client, 'PUT', `${base}/people`, { email: viewer.user.email, role: 'viewer' });
    const link = await ok(client, 'PUT', `${base}/link`, { role: 'editor' });
    await call(member.client, 'POST', '/api/share-links/join', 200, {
      json: { token: tokenOf(link.link!.url) },
    });
    await ok(client, 'PUT', `${base}/publish`, {});
    const before = await ok(client, 'GET', base);

    const routes = (sharing: string): [string, string, unknown][] => [
      ['GET', sharing, undefined],
      ['PUT', `${sharing}/people`, { email: stranger.user.email, role: 'editor' }],
      ['PATCH', `${sharing}/people/${viewer.user.id}`, { role: 'editor' }],
      ['PATCH', `${sharing}/people/not-a-uuid`, { role: 'editor' }],
      ['DELETE', `${sharing}/people/${editor.user.id}`, undefined],
      ['DELETE', `${sharing}/people/not-a-uuid`, undefined],
      ['PUT', `${sharing}/link`, { role: 'viewer' }],
      ['POST', `${sharing}/link/reset`, undefined],
      ['DELETE', `${sharing}/link`, undefined],
      ['PUT', `${sharing}/publish`, { indexable: true }],
      ['DELETE', `${sharing}/publish`, undefined],
    ];
    const missing = { code: 'not_found', message: 'There is no such document.' };
    for (const { client: other } of [editor, viewer, member, stranger]) {
      for (const [method, path, json] of routes(base)) {
        const options = json === undefined ? {} : { json };
        expect(await refused(other, method, path, 404, options), `${method} ${path}`).toEqual(
          missing,
        );
      }
    }
    for (const wrong of [randomUUID(), 'not-a-uuid', '..%2F..%2Fme']) {
      for (const [method, path, json] of routes(`/api/documents/${wrong}/sharing`)) {
        const options = json === undefined ? {} : { json };
        expect(await refused(client, method, path, 404, options), `${method} ${path}`).toEqual(
          missing,
        );
      }
    }
    expect(await ok(client, 'GET', base)).toEqual(before);
  });

  it('answers hostile bodies with a clear 4xx on every route that takes one', async () => {
    const { client, base } = await ownedDocument();
    const { user: bob } = await person('Bob');
    await ok(client, 'PUT', `${base}/people`, { email: bob.email, role: 'viewer' });
    const json = { 'Content-Type': 'application/json' };
    const nested = `${'['.repeat(7000)}${']'.repeat(7000)}`;
    // Under a field the route reads: unknown fields are left out, whatever they hold.
    const deep = (field: string) => `{"${field}":${'{"a":'.repeat(2500)}1${'}'.repeat(2501)}`;
    for (const [method, path, field] of [
      ['PUT', `${base}/people`, 'email'],
      ['PATCH', `${base}/people/${bob.id}`, 'role'],
      ['PUT', `${base}/link`, 'role'],
      ['PUT', `${base}/publish`, 'expiresAt'],
      ['POST', '/api/share-links/join', 'token'],
    ] as const) {
      const tooLarge = JSON.stringify({ role: 'viewer', padding: 'x'.repeat(32 * 1024) });
      expect(
        (await refused(client, method, path, 413, { body: tooLarge, headers: json })).code,
      ).toBe('payload_too_large');
      for (const body of [
        nested,
        deep(field),
        '{"role": ',
        '',
        'null',
        '"viewer"',
        '[]',
        '{"role":"vi\\u0000ewer"}',
      ]) {
        const error = await refused(client, method, path, 400, { body, headers: json });
        expect(error.code, `${method} ${path} ${body.slice(0, 20)}`).toBe('invalid_request');
      }
    }
    expect((await ok(client, 'GET', base)).people).toHaveLength(1);
  });

  it('limits the addresses one person may look up in a minute (429 with Retry-After)', async () => {
    const { client, base } = await ownedDocument();
    const { client: other } = await person('Other');
    for (let n = 0; n < 30; n += 1) {
      await refused(client, 'GET', `/api/people?email=n${n}%40example.com`, 404);
    }
    const res = await client.request('GET', '/api/people?email=n30%40example.com');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(((await res.json()) as ErrorAnswer).error.code).toBe('rate_limited');
    // Sharing by address answers the same question, so it counts against the same limit.
    await refused(client, 'PUT', `${base}/people`, 429, {
      json: { email: 'n31@example.com', role: 'viewer' },
    });
    await refused(other, 'GET', '/api/people?email=n0%40example.com', 404);
  });

  it('tells live collaboration after every change that may narrow access, and only then', async () => {
    const collab = server.services.collab!;
    const accessChanged = vi.spyOn(collab, 'accessChanged');
    const { client, id, base } = await ownedDocument();
    const { user: bob } = await person('Bob');
    const steps: [string, string, unknown, boolean][] = [
      ['PUT', `${base}/people`, { email: bob.email, role: 'viewer' }, false],
      ['PUT', `${base}/people`, { email: bob.email, role: 'editor' }, false],
      ['PUT', `${base}/people`, { email: bob.email, role: 'viewer' }, true],
      ['PATCH', `${base}/people/${bob.id}`, { role: 'editor' }, false],
      ['PATCH', `${base}/people/${bob.id}`, { role: 'viewer' }, true],
      ['DELETE', `${base}/people/${bob.id}`, undefined, true],
      ['PUT', `${base}/link`, { role: 'editor' }, false],
      ['PUT', `${base}/link`, { role: 'viewer' }, true],
      ['PUT', `${base}/link`, { role: 'editor' }, false],
      ['POST', `${base}/link/reset`, undefined, true],
      ['DELETE', `${base}/link`, undefined, true],
      ['PUT', `${base}/publish`, {}, false],
      ['DELETE', `${base}/publish`, undefined, false],
    ];
    for (const [method, path, json, narrows] of steps) {
      accessChanged.mockClear();
      await ok(client, method, path, json);
      expect(accessChanged.mock.calls, `${method} ${path} ${JSON.stringify(json)}`).toEqual(
        narrows ? [[id]] : [],
      );
    }
  });
});
