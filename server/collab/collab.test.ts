import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { sessionCookieName } from '../middleware/session.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { appendParagraph, connectClient, until, type CollabClient } from './test/collabClient.ts';

const paragraphs = (...texts: string[]) => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

const open: CollabClient[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.destroy();
});

function cookieOf(client: TestClient): string {
  return `${sessionCookieName(client.server.url)}=${client.token}`;
}

function live(client: TestClient, id: string): CollabClient {
  const collab = connectClient(client.server.url, cookieOf(client), id);
  open.push(collab);
  return collab;
}

async function createDocument(client: TestClient, ...texts: string[]): Promise<DocumentRecord> {
  const res = await client.request('POST', '/api/documents', {
    json: { title: 'Live', content: paragraphs(...texts) },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { document: DocumentRecord }).document;
}

/** The HTTP status a bare WebSocket upgrade to /api/collab gets, or 101 when it is accepted. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/collab`, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describeWithServer('the live collaboration socket', (context) => {
  it('refuses the upgrade to a signed-out visitor and to another site', async () => {
    const { server } = context();
    const { client } = await signedInUser(server, context().db);
    const origin = new URL(server.url).origin;
    expect(await upgradeStatus(server.url, { Origin: origin })).toBe(401);
    expect(
      await upgradeStatus(server.url, { Origin: 'https://evil.example', Cookie: cookieOf(client) }),
    ).toBe(403);
    expect(await upgradeStatus(server.url, { Cookie: cookieOf(client) })).toBe(403);
    expect(await upgradeStatus(server.url, { Origin: origin, Cookie: cookieOf(client) })).toBe(101);
  });

  it('opens the owner’s document, converted on the server from its stored JSON', async () => {
    const { client } = await signedInUser(context().server, context().db);
    const document = await createDocument(client, 'first words', 'second line');
    const collab = live(client, document.id);
    await collab.synced;
    expect(collab.blocks()).toEqual(['first words', 'second line']);
  });

  it('refuses another person’s, a trashed and a missing document alike', async () => {
    const { server, db } = context();
    const { client: ada } = await signedInUser(server, db, 'Ada');
    const { client: bob } = await signedInUser(server, db, 'Bob');
    const adas = await createDocument(ada, 'private');
    const trashed = await createDocument(bob, 'binned');
    expect((await bob.request('DELETE', `/api/documents/${trashed.id}`)).status).toBe(204);
    const reasons: string[] = [];
    for (const id of [adas.id, trashed.id, crypto.randomUUID(), 'not-a-uuid']) {
      const collab = live(bob, id);
      await collab.synced.catch((error: Error) => reasons.push(error.message));
      expect(collab.doc.getXmlFragment('default').length).toBe(0);
    }
    expect(reasons).toEqual(Array(4).fill('refused: permission-denied'));
  });

  it('has an acknowledged edit on disk, and the document JSON follows the Yjs state', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'start');
    const collab = live(client, document.id);
    await collab.synced;
    appendParagraph(collab, 'typed live');
    await collab.saved();
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
      [document.id],
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    const res = await client.request('GET', `/api/documents/${document.id}`);
    const stored = ((await res.json()) as { document: DocumentRecord }).document;
    expect(stored.content).toMatchObject(paragraphs('start', 'typed live'));
    expect(stored.version).toBeGreaterThan(document.version);
  });

  it('closes the socket when its session signs out', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'bye');
    const collab = live(client, document.id);
    await collab.synced;
    expect((await client.request('POST', '/api/session/logout')).status).toBe(200);
    expect(await collab.closed).toBe(4401);
  });

  it('merges an API write of content with what a live editor typed', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'one', 'two');
    const collab = live(client, document.id);
    await collab.synced;
    appendParagraph(collab, 'typed');
    await collab.saved();
    const current = (
      (await (await client.request('GET', `/api/documents/${document.id}`)).json()) as {
        document: DocumentRecord;
      }
    ).document;
    const res = await client.request('PATCH', `/api/documents/${document.id}`, {
      json: { baseVersion: current.version, content: paragraphs('one, edited', 'two', 'typed') },
    });
    expect(res.status).toBe(200);
    await until(() => collab.blocks()[0] === 'one, edited');
    expect(collab.blocks()).toEqual(['one, edited', 'two', 'typed']);
  });
});
