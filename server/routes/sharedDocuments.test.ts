import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord, DocumentSummary } from '../../common/api/documents.ts';
import type { GrantedRole } from '../../common/api/sharing.ts';
import type { SessionUser } from '../auth/sessions.ts';
import type { RunningServer } from '../startServer.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';

const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

type Account = { user: SessionUser; client: TestClient };

describeWithServer('documents shared with the reader', (context) => {
  let server: RunningServer;
  const getDb = () => context().db;

  beforeAll(() => {
    server = context().server;
  });

  const person = (name: string): Promise<Account> => signedInUser(server, getDb(), name);

  async function create(client: TestClient, title: string, text = 'Hello') {
    const res = await client.request('POST', '/api/documents', {
      json: { title, content: doc(text) },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  const share = (id: string, user: SessionUser, role: GrantedRole) =>
    shareWith(getDb(), id, user.id, role);
  async function list(client: TestClient, query: string) {
    const res = await client.request('GET', `/api/documents${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { documents: DocumentSummary[] }).documents;
  }

  it('opens a shared document with the reader’s role and its owner; the owner sees neither', async () => {
    const owner = await person('Olga');
    const reader = await person('Rita');
    const { id } = await create(owner.client, 'Plans');
    await share(id, reader.user, 'viewer');

    const res = await reader.client.request('GET', `/api/documents/${id}`);
    expect(res.status).toBe(200);
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document).toMatchObject({
      title: 'Plans',
      role: 'viewer',
      owner: { name: 'Olga', email: owner.user.email },
      content: doc('Hello'),
    });
    const own = (await (await owner.client.request('GET', `/api/documents/${id}`)).json()) as {
      document: DocumentRecord;
    };
    expect(own.document.role).toBeUndefined();
    expect(own.document.owner).toBeUndefined();
  });

  it('lets an editor save the title and content, and refuses a viewer as if it were missing', async () => {
    const owner = await person('Olga');
    const editor = await person('Ed');
    const viewer = await person('Vic');
    const { id } = await create(owner.client, 'Draft');
    await share(id, editor.user, 'editor');
    await share(id, viewer.user, 'viewer');

    const saved = await editor.client.request('PATCH', `/api/documents/${id}`, {
      json: { baseVersion: 1, title: 'Edited', content: doc('by Ed') },
    });
    expect(saved.status).toBe(200);
    const refused = await viewer.client.request('PATCH', `/api/documents/${id}`, {
      json: { baseVersion: 1, title: 'Viewer' },
    });
    expect(refused.status).toBe(404);
    const missing = await viewer.client.request('PATCH', '/api/documents/' + crypto.randomUUID(), {
      json: { baseVersion: 1, title: 'Viewer' },
    });
    expect(((await refused.json()) as { error: unknown }).error).toEqual(
      ((await missing.json()) as { error: unknown }).error,
    );
    const after = (await (await owner.client.request('GET', `/api/documents/${id}`)).json()) as {
      document: DocumentRecord;
    };
    expect(after.document).toMatchObject({ title: 'Edited', version: 2, content: doc('by Ed') });
  });

  it('lists what others shared, most recent first, apart from one’s own; search finds both', async () => {
    const owner = await person('Olga');
    const reader = await person('Rita');
    const older = await create(owner.client, 'Older shared', 'zebra stripes');
    const newer = await create(owner.client, 'Newer shared', 'zebra crossing');
    const unshared = await create(owner.client, 'Not shared', 'zebra hidden');
    const mine = await create(reader.client, 'Mine', 'zebra own');
    await share(older.id, reader.user, 'editor');
    await share(newer.id, reader.user, 'viewer');
    // The editor's change is indexed before the search, though the save left indexing for later.
    const saved = await reader.client.request('PATCH', `/api/documents/${older.id}`, {
      json: { baseVersion: 1, content: doc('zebra giraffe') },
    });
    expect(saved.status).toBe(200);

    const shared = await list(reader.client, '?shared=1');
    expect(shared.map((d) => [d.title, d.role, d.owner])).toEqual([
      ['Older shared', 'editor', { name: 'Olga', email: owner.user.email }],
      ['Newer shared', 'viewer', { name: 'Olga', email: owner.user.email }],
    ]);
    expect((await list(reader.client, '')).map((d) => d.id)).toEqual([mine.id]);

    const found = await list(reader.client, '?q=zebra');
    expect(found.map((d) => d.id).sort()).toEqual([older.id, newer.id, mine.id].sort());
    expect(found.find((d) => d.id === mine.id)?.role).toBeUndefined();
    expect(found.find((d) => d.id === newer.id)?.role).toBe('viewer');
    expect((await list(reader.client, '?q=giraffe')).map((d) => d.id)).toEqual([older.id]);
    expect(found.map((d) => d.id)).not.toContain(unshared.id);
  });

  it('keeps the trash its owner’s: a trashed document leaves the shared list and opens for nobody else', async () => {
    const owner = await person('Olga');
    const reader = await person('Rita');
    const { id } = await create(owner.client, 'Binned');
    await share(id, reader.user, 'editor');
    expect((await owner.client.request('DELETE', `/api/documents/${id}`)).status).toBe(204);

    expect(await list(reader.client, '?shared=1')).toEqual([]);
    expect(await list(reader.client, '?trash=1')).toEqual([]);
    expect((await reader.client.request('GET', `/api/documents/${id}`)).status).toBe(404);
    expect((await list(owner.client, '?trash=1')).map((d) => d.id)).toEqual([id]);
  });

  it('refuses a create under the id of a document shared with the writer: the id is taken', async () => {
    const owner = await person('Olga');
    const editor = await person('Ed');
    const { id } = await create(owner.client, 'Theirs');
    await share(id, editor.user, 'editor');
    const res = await editor.client.request('POST', '/api/documents', {
      json: { id, title: 'Mine now' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'This id is taken.',
    );
  });

  it('exports a vault of one’s own documents only, even when given a shared document’s id', async () => {
    const owner = await person('Olga');
    const editor = await person('Ed');
    const { id } = await create(owner.client, 'Theirs');
    await share(id, editor.user, 'editor');
    const listed = await editor.client.request('GET', '/api/vault/documents');
    expect(((await listed.json()) as { documents: unknown[] }).documents).toEqual([]);
    const res = await editor.client.request('POST', '/api/vault/markdown', { json: { ids: [id] } });
    expect(await res.json()).toEqual({ files: [], later: [] });
  });
});
