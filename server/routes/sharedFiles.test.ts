import { afterEach, beforeAll, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { uploadedFileSchema, type UploadedFile } from '../../common/api/files.ts';
import type { GrantedRole } from '../../common/api/sharing.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { connectClient, cookieOf, until, type CollabClient } from '../collab/test/collabClient.ts';
import { CONTENT_FIELD } from '../collab/yjsContent.ts';
import type { RunningServer } from '../startServer.ts';
import { pngImage } from '../test/images.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';

type Account = { user: SessionUser; client: TestClient };
const withImage = (url: string) => ({
  type: 'doc',
  content: [{ type: 'image', attrs: { src: url } }],
});

const live: CollabClient[] = [];
afterEach(() => {
  for (const client of live.splice(0)) client.destroy();
});

describeWithServer('files in shared documents', (context) => {
  let server: RunningServer;
  let png: Buffer;
  const getDb = () => context().db;

  beforeAll(async () => {
    server = context().server;
    png = await pngImage(40, 30);
  });

  const person = (name: string): Promise<Account> => signedInUser(server, getDb(), name);
  async function upload(client: TestClient): Promise<UploadedFile> {
    const res = await client.request('POST', '/api/files?name=picture.png', {
      body: png as unknown as string,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    return uploadedFileSchema.parse(await res.json());
  }
  async function create(client: TestClient, content: object) {
    const res = await client.request('POST', '/api/documents', { json: { title: 'Pic', content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  const share = (id: string, user: SessionUser, role: GrantedRole) =>
    shareWith(getDb(), id, user.id, role);
  const status = async (client: TestClient, url: string) =>
    (await client.request('GET', url)).status;

  it('serves an image to whoever may read a document showing it, while they may', async () => {
    const owner = await person('Olga');
    const viewer = await person('Vic');
    const stranger = await person('Sam');
    const file = await upload(owner.client);
    const { id } = await create(owner.client, withImage(file.url));
    expect(await status(viewer.client, file.url)).toBe(404);
    await share(id, viewer.user, 'viewer');
    expect(await status(viewer.client, file.url)).toBe(200);
    expect(await status(stranger.client, file.url)).toBe(404);

    // In the trash the document shows it to its owner alone.
    expect((await owner.client.request('DELETE', `/api/documents/${id}`)).status).toBe(204);
    expect(await status(viewer.client, file.url)).toBe(404);
    expect(await status(owner.client, file.url)).toBe(200);
  });

  it('serves an editor’s upload in a shared document to its other readers', async () => {
    const owner = await person('Olga');
    const editor = await person('Ed');
    const viewer = await person('Vic');
    const { id } = await create(owner.client, withImage('https://example.com/x.png'));
    await share(id, editor.user, 'editor');
    await share(id, viewer.user, 'viewer');
    const file = await upload(editor.client);
    const saved = await editor.client.request('PATCH', `/api/documents/${id}`, {
      json: { baseVersion: 1, content: withImage(file.url) },
    });
    expect(saved.status).toBe(200);
    expect(await status(viewer.client, file.url)).toBe(200);
    expect(await status(owner.client, file.url)).toBe(200);
  });

  it('grants nothing for a file id written into a document its uploader may not edit', async () => {
    const victim = await person('Vera');
    const thief = await person('Tom');
    const accomplice = await person('Al');
    const file = await upload(victim.client);
    const { id } = await create(thief.client, withImage(file.url));
    // Even with the victim made a viewer of it, the thief's document cannot vouch for the file.
    await share(id, victim.user, 'viewer');
    await share(id, accomplice.user, 'viewer');
    expect(await status(thief.client, file.url)).toBe(404);
    expect(await status(accomplice.client, file.url)).toBe(404);
  });

  it('serves an image put into a live shared document a moment ago to its readers at once', async () => {
    const owner = await person('Olga');
    const viewer = await person('Vic');
    const file = await upload(owner.client);
    const { id } = await create(owner.client, { type: 'doc' });
    await share(id, viewer.user, 'viewer');
    const writing = connectClient(server.url, cookieOf(owner.client), id);
    const reading = connectClient(server.url, cookieOf(viewer.client), id);
    live.push(writing, reading);
    await Promise.all([writing.synced, reading.synced]);
    writing.doc.transact(() => {
      const image = new Y.XmlElement('image');
      image.setAttribute('src', file.url);
      const fragment = writing.doc.getXmlFragment(CONTENT_FIELD);
      fragment.insert(fragment.length, [image]);
    });
    await writing.saved();
    // Logged and sent to the reader, not yet in the stored content the check reads.
    await until(() => reading.doc.getXmlFragment(CONTENT_FIELD).toString().includes(file.url));
    expect(await status(viewer.client, file.url)).toBe(200);
  });
});
