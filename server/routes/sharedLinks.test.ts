import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import type { Backlink } from '../../common/api/links.ts';
import type { GrantedRole } from '../../common/api/sharing.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { RunningServer } from '../startServer.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';

type Inline = Record<string, unknown>;
const text = (value: string): Inline => ({ type: 'text', text: value });
const link = (target: string): Inline => ({
  type: 'wikilink',
  attrs: { target, fragment: '', alias: null, embed: false },
});
const doc = (...inline: Inline[]) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: inline }],
});

type Account = { user: SessionUser; client: TestClient };

describeWithServer('wikilinks across shared documents', (context) => {
  let server: RunningServer;
  const getDb = () => context().db;

  beforeAll(() => {
    server = context().server;
  });

  const person = (name: string): Promise<Account> => signedInUser(server, getDb(), name);
  async function create(client: TestClient, title: string, content: object = doc(text('x'))) {
    const res = await client.request('POST', '/api/documents', { json: { title, content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  const share = (id: string, user: SessionUser, role: GrantedRole) =>
    shareWith(getDb(), id, user.id, role);
  async function read(client: TestClient, id: string) {
    const res = await client.request('GET', `/api/documents/${id}`);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }

  it('resolves to documents the reader may read, the reader’s own first when titles clash', async () => {
    const owner = await person('Olga');
    const reader = await person('Rita');
    const shared = await create(owner.client, 'Shared plan');
    await create(owner.client, 'Private plan');
    const theirs = await create(owner.client, 'Same title');
    await share(shared.id, reader.user, 'viewer');
    await share(theirs.id, reader.user, 'viewer');
    const mine = await create(reader.client, 'Same title');

    const res = await reader.client.request('POST', '/api/links/resolve', {
      json: { targets: ['Shared plan', 'Private plan', 'Same title'] },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { documents: unknown[] }).documents).toEqual([
      { id: shared.id, title: 'Shared plan' },
      null,
      { id: mine.id, title: 'Same title' },
    ]);
  });

  it('lists as backlinks only the documents the reader may read', async () => {
    const owner = await person('Olga');
    const reader = await person('Rita');
    const target = await create(owner.client, 'Hub');
    const visible = await create(owner.client, 'Visible source', doc(link('Hub')));
    await create(owner.client, 'Secret source', doc(link('Hub')));
    await share(target.id, reader.user, 'viewer');
    await share(visible.id, reader.user, 'viewer');

    const res = await reader.client.request('GET', `/api/documents/${target.id}/backlinks`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain('Secret source');
    expect((JSON.parse(body) as { backlinks: Backlink[] }).backlinks).toEqual([
      { id: visible.id, title: 'Visible source', links: 1 },
    ]);
    // The owner sees both, whoever's copy of the links was built first.
    const own = await owner.client.request('GET', `/api/documents/${target.id}/backlinks`);
    expect(
      ((await own.json()) as { backlinks: Backlink[] }).backlinks.map((row) => row.title),
    ).toEqual(['Secret source', 'Visible source']);
  });

  it('rewrites links after an editor’s rename only where the editor may write', async () => {
    const owner = await person('Olga');
    const editor = await person('Ed');
    const target = await create(owner.client, 'Old name');
    const writable = await create(owner.client, 'Writable', doc(link('Old name')));
    const readable = await create(owner.client, 'Readable', doc(link('Old name')));
    await share(target.id, editor.user, 'editor');
    await share(writable.id, editor.user, 'editor');
    await share(readable.id, editor.user, 'viewer');

    const viewerRename = await editor.client.request(
      'POST',
      `/api/documents/${readable.id}/rename-links`,
      { json: { from: 'Whatever' } },
    );
    expect(viewerRename.status).toBe(404);

    const renamed = await editor.client.request('PATCH', `/api/documents/${target.id}`, {
      json: { baseVersion: 1, title: 'New name' },
    });
    expect(renamed.status).toBe(200);
    const res = await editor.client.request('POST', `/api/documents/${target.id}/rename-links`, {
      json: { from: 'Old name' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ documents: 1, links: 1 });
    expect((await read(owner.client, writable.id)).content).toEqual(doc(link('New name')));
    expect((await read(owner.client, readable.id)).content).toEqual(doc(link('Old name')));
  });
});
