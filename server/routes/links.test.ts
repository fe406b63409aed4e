import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import type { Backlink } from '../../common/api/links.ts';
import type { RunningServer } from '../startServer.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';

type Inline = Record<string, unknown>;
const text = (value: string): Inline => ({ type: 'text', text: value });
const link = (target: string, extra: Inline = {}): Inline => ({
  type: 'wikilink',
  attrs: { target, fragment: '', alias: null, embed: false, ...extra },
});
const doc = (...inline: Inline[]) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: inline }],
});

describeWithServer('the wikilinks API', (context) => {
  let server: RunningServer;
  let ada: TestClient;

  beforeAll(async () => {
    server = context().server;
    ada = (await signedInUser(server, context().db, 'Ada')).client;
  });

  async function create(client: TestClient, title: string, content: object = doc(text('x'))) {
    const res = await client.request('POST', '/api/documents', { json: { title, content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  async function backlinks(client: TestClient, id: string, query = '') {
    const res = await client.request('GET', `/api/documents/${id}/backlinks${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { backlinks: Backlink[] }).backlinks;
  }
  async function resolve(client: TestClient, targets: string[]) {
    const res = await client.request('POST', '/api/links/resolve', { json: { targets } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { documents: Array<{ id: string; title: string } | null> })
      .documents;
  }
  async function read(client: TestClient, id: string) {
    const res = await client.request('GET', `/api/documents/${id}`);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }

  it('resolves targets by title regardless of case, by a path’s last segment, and not files', async () => {
    const { client } = await signedInUser(server, context().db);
    const plans = await create(client, 'Project Plans');
    const found = await resolve(client, [
      'project plans',
      'work/2024/Project Plans.md',
      'Project Plans.png',
      'Nowhere',
    ]);
    expect(found).toEqual([
      { id: plans.id, title: 'Project Plans' },
      { id: plans.id, title: 'Project Plans' },
      null,
      null,
    ]);
  });

  it('lists the documents that link here, with how many links, not itself or the trash', async () => {
    const target = await create(ada, 'Garden');
    const a = await create(
      ada,
      'Spring',
      doc(link('garden'), text(' and '), link('Garden', { fragment: '#Beds' })),
    );
    await create(ada, 'Self', doc(link('Self')));
    const b = await create(ada, 'Tools', doc(link('Garden', { embed: true })));
    const trashed = await create(ada, 'Old', doc(link('Garden')));
    await ada.request('DELETE', `/api/documents/${trashed.id}`);
    expect(await backlinks(ada, target.id)).toEqual([
      { id: a.id, title: 'Spring', links: 2 },
      { id: b.id, title: 'Tools', links: 1 },
    ]);
  });

  it('follows saves: a link removed or added shows at the next look', async () => {
    const target = await create(ada, 'Pond');
    const source = await create(ada, 'Walk', doc(link('Pond')));
    expect(await backlinks(ada, target.id)).toHaveLength(1);
    const save = await ada.request('PATCH', `/api/documents/${source.id}`, {
      json: { baseVersion: 1, content: doc(text('no link any more')) },
    });
    expect(save.status).toBe(200);
    expect(await backlinks(ada, target.id)).toEqual([]);
  });

  it('counts a link for the first of two documents with one title only', async () => {
    const { client } = await signedInUser(server, context().db);
    const first = await create(client, 'Twin');
    const second = await create(client, 'twin');
    await create(client, 'Linker', doc(link('TWIN')));
    expect(await backlinks(client, first.id)).toHaveLength(1);
    expect(await backlinks(client, second.id)).toEqual([]);
  });

  it('never shows or finds another writer’s documents', async () => {
    const { client: bob } = await signedInUser(server, context().db, 'Bob');
    const secret = await create(bob, 'Bob’s secret diary', doc(link('Ada target')));
    const adas = await create(ada, 'Ada target');
    await create(ada, 'Ada source', doc(link('Bob’s secret diary')));

    expect(await resolve(ada, ['Bob’s secret diary'])).toEqual([null]);
    const listed = JSON.stringify(await backlinks(ada, adas.id));
    expect(listed).not.toContain('diary');
    expect(listed).not.toContain(secret.id);
    // Bob's document is not there for Ada at all.
    for (const res of [
      await ada.request('GET', `/api/documents/${secret.id}/backlinks`),
      await ada.request('POST', `/api/documents/${secret.id}/rename-links`, {
        json: { from: 'Ada target' },
      }),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('diary');
    }
    // Ada renaming her document leaves Bob's link to the same title alone.
    await ada.request('PATCH', `/api/documents/${adas.id}`, {
      json: { baseVersion: 1, title: 'Renamed' },
    });
    const renamed = await ada.request('POST', `/api/documents/${adas.id}/rename-links`, {
      json: { from: 'Ada target' },
    });
    expect(await renamed.json()).toEqual({ documents: 0, links: 0 });
    expect((await read(bob, secret.id)).version).toBe(1);
  });

  it('after a rename, finds the links to the old title and rewrites them in one go', async () => {
    const { client } = await signedInUser(server, context().db);
    const target = await create(client, 'Draft');
    const one = await create(
      client,
      'One',
      doc(link('Draft', { fragment: '#Intro', alias: 'see' }), link('notes/draft.md')),
    );
    const two = await create(client, 'Two', doc(link('draft', { embed: true }), link('Other')));
    const rename = await client.request('PATCH', `/api/documents/${target.id}`, {
      json: { baseVersion: 1, title: 'Final copy' },
    });
    expect(rename.status).toBe(200);

    expect(await backlinks(client, target.id)).toEqual([]);
    const before = await backlinks(client, target.id, '?title=Draft');
    expect(before.map((row) => [row.title, row.links])).toEqual([
      ['One', 2],
      ['Two', 1],
    ]);

    const res = await client.request('POST', `/api/documents/${target.id}/rename-links`, {
      json: { from: 'Draft' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ documents: 2, links: 3 });

    const oneNow = await read(client, one.id);
    expect(oneNow.version).toBe(2);
    expect(oneNow.content).toEqual(
      doc(link('Final copy', { fragment: '#Intro', alias: 'see' }), link('notes/Final copy.md')),
    );
    const twoNow = await read(client, two.id);
    expect(twoNow.content).toEqual(doc(link('Final copy', { embed: true }), link('Other')));
    expect((await backlinks(client, target.id)).map((row) => row.links)).toEqual([2, 1]);

    // An editor still on version 1 of One meets a conflict, not a silent overwrite.
    const stale = await client.request('PATCH', `/api/documents/${one.id}`, {
      json: { baseVersion: 1, content: doc(text('stale edit')) },
    });
    expect(stale.status).toBe(409);
  });

  it('leaves links alone when another document still has the old title', async () => {
    const { client } = await signedInUser(server, context().db);
    await create(client, 'Shared name');
    const later = await create(client, 'Shared name');
    const source = await create(client, 'Source', doc(link('Shared name')));
    await client.request('PATCH', `/api/documents/${later.id}`, {
      json: { baseVersion: 1, title: 'New name' },
    });
    const res = await client.request('POST', `/api/documents/${later.id}/rename-links`, {
      json: { from: 'Shared name' },
    });
    expect(await res.json()).toEqual({ documents: 0, links: 0 });
    expect((await read(client, source.id)).version).toBe(1);
  });

  it('refuses a rename to a title a wikilink cannot hold', async () => {
    const { client } = await signedInUser(server, context().db);
    const target = await create(client, 'Plain');
    await create(client, 'Source', doc(link('Plain')));
    await client.request('PATCH', `/api/documents/${target.id}`, {
      json: { baseVersion: 1, title: 'A [[bracketed]] | title' },
    });
    const res = await client.request('POST', `/api/documents/${target.id}/rename-links`, {
      json: { from: 'Plain' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('answers hostile requests with 4xx, never 500', async () => {
    const { client } = await signedInUser(server, context().db);
    const target = await create(client, 'Target');
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/api/links/resolve', { targets: Array.from({ length: 10_000 }, () => 'x') }],
      ['POST', '/api/links/resolve', { targets: ['a'.repeat(5000)] }],
      ['POST', '/api/links/resolve', { targets: ['bad\u0000target'] }],
      ['POST', '/api/links/resolve', { targets: 'Target' }],
      ['POST', '/api/links/resolve', { targets: [{ nested: ['[[[[x]]]]'] }] }],
      ['POST', '/api/links/resolve', undefined],
      ['GET', `/api/documents/${target.id}/backlinks?title=${'t'.repeat(5000)}`, undefined],
      ['GET', '/api/documents/not-an-id/backlinks', undefined],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: 'x'.repeat(201) }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: '' }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: ['Target'] }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: 'x'.repeat(100_000) }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: 42 }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: null }],
      ['POST', `/api/documents/${target.id}/rename-links`, { from: { title: 'Target' } }],
      ['POST', `/api/documents/${target.id}/rename-links`, {}],
      ['POST', `/api/documents/${target.id}/rename-links`, [{ from: 'Target' }]],
      ['POST', `/api/documents/${target.id}/rename-links`, 'Target'],
      ['POST', '/api/documents/not-an-id/rename-links', { from: 'Target' }],
      ['POST', `/api/documents/${crypto.randomUUID()}/rename-links`, { from: 'Target' }],
    ];
    for (const [method, path, json] of attempts) {
      const res = await client.request(method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path.slice(0, 80)}`).toBeLessThan(500);
    }
    // Bodies no JSON encoder would write: broken, nested past any parser's patience, not JSON.
    const renamePath = `/api/documents/${target.id}/rename-links`;
    for (const body of [
      '{"from": "Tar',
      `{"from":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      `${'{"from":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`,
      'from=Target',
    ]) {
      const res = await client.request('POST', renamePath, {
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.status, body.slice(0, 40)).toBeLessThan(500);
    }
    // A target too long for any title, in characters of three bytes that do not compress.
    const long = Array.from({ length: 990 }, (_, i) =>
      String.fromCharCode(0x4e00 + ((i * 7919) % 20000)),
    ).join('');
    await create(client, 'Long', doc(link(long), link(`${long.slice(0, 700)}/Target`)));
    expect((await backlinks(client, target.id)).map((row) => row.title)).toEqual(['Long']);
    const deep = await resolve(client, ['[[[[[[x]]]]]]', '#^|', 'Target']);
    expect(deep).toEqual([null, null, { id: target.id, title: 'Target' }]);
  });

  it('keeps up with a document of 10,000 links', async () => {
    const { client } = await signedInUser(server, context().db);
    const target = await create(client, 'Hub');
    const many = Array.from({ length: 10_000 }, (_, i) => link(i % 2 === 0 ? 'Hub' : `Note ${i}`));
    const source = await create(client, 'Index', doc(...many));
    expect(await backlinks(client, target.id)).toEqual([
      { id: source.id, title: 'Index', links: 5000 },
    ]);
  });
});
