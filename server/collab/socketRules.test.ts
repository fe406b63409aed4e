import { expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { caretUserOf } from '../../common/editor/collab/caretUser.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';
import { MAX_DOCUMENTS_PER_SOCKET } from './collabEngine.ts';
import { MAX_PRESENCE_STATE_CHARS } from './envelope.ts';
import {
  appendParagraph,
  type CollabClient,
  cookieOf,
  createDocument,
  until,
  useLiveClients,
} from './test/collabClient.ts';
import {
  auth,
  presence,
  rawSocket,
  storedUpdates,
  syncStep1,
  update,
} from './test/collabMessages.ts';
import { rawFrameClient, type RawFrameClient } from './test/rawFrames.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/*
 * What one socket may do with a document, held against clients no browser is: names that Hocuspocus
 * would read as the same document, more documents than an editor opens, a client that stops
 * reading, and one that ignores the server's close frame.
 */

const { live, keep } = useLiveClients();

async function raw(client: TestClient): Promise<RawFrameClient> {
  const frames = await rawFrameClient(client.server.url, cookieOf(client));
  keep(frames);
  return frames;
}

/** An update that appends a paragraph of `text` to a copy of the document the server has. */
function appendedParagraph(state: Uint8Array, text: string): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  const before = Y.encodeStateVector(doc);
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  fragment.insert(fragment.length, [paragraph]);
  return Y.encodeStateAsUpdate(doc, before);
}

/** The document's state as a client that synced it holds it. */
async function stateOf(client: TestClient, id: string): Promise<Uint8Array> {
  const collab = live(client, id);
  await collab.synced;
  return Y.encodeStateAsUpdate(collab.doc);
}

describeWithServer('document names on the live socket', (context) => {
  it('closes a socket that names a document with anything after a \\0, and answers nothing', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'once');
    const socket = await rawSocket(client.server.url, cookieOf(client));
    const doubled = `${document.id}\0second`;
    socket.socket.send(auth(doubled));
    socket.socket.send(syncStep1(doubled));
    expect(await socket.closed).toBe(1008);
    expect(socket.names).toEqual([]);
  });

  it('refuses the upper-case spelling of a document id: there is one live copy of a document', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'one copy');
    const upper = live(client, document.id.toUpperCase());
    await expect(upper.synced).rejects.toThrow('refused: permission-denied');
    expect(server.services.collab!.hocuspocus.documents.has(document.id.toUpperCase())).toBe(false);
    const lower = live(client, document.id);
    await lower.synced;
    expect(lower.blocks()).toEqual(['one copy']);
  });

  it(`closes a socket that names more than ${MAX_DOCUMENTS_PER_SOCKET} documents`, async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const socket = await rawSocket(client.server.url, cookieOf(client));
    for (let i = 0; i < MAX_DOCUMENTS_PER_SOCKET; i++)
      socket.socket.send(auth(crypto.randomUUID()));
    // Each refused, the socket still open.
    await until(() => socket.names.length === MAX_DOCUMENTS_PER_SOCKET);
    socket.socket.send(auth(crypto.randomUUID()));
    expect(await socket.closed).toBe(1008);
  });
});

describeWithServer(
  'a client that stops reading',
  (context) => {
    it('is cut once what waits to be sent to it passes the bound', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const document = await createDocument(client, 'x'.repeat(40_000));
      const frames = await raw(client);
      frames.send(auth(document.id));
      await until(() => frames.received() > 0);
      frames.stopReading();
      // Each sync step 1 is answered with the whole document (~40 kB): 12 MB asked for, at a
      // pace under the socket's message limit, none of it read.
      for (let i = 0; i < 300; i++) {
        frames.send(syncStep1(document.id));
        if (i % 100 === 99) await new Promise((wait) => setTimeout(wait, 1_000));
      }
      frames.readAgain();
      await frames.ended;
      // The socket was cut well before everything asked for was sent.
      expect(frames.received()).toBeLessThan(300 * 40_000);
    }, 20_000);
  },
  // The bound is twice the largest state, four times DOCUMENT_MAX_BYTES: 400 kB here.
  { documentMaxBytes: 100_000 },
);

describeWithServer('presence on the live socket', (context) => {
  /** A document with a writer watching it, and a raw socket that opened it too. */
  async function watchedDocument() {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'here');
    const watcher = live(client, document.id);
    await watcher.synced;
    const socket = await rawSocket(client.server.url, cookieOf(client));
    socket.socket.send(auth(document.id));
    socket.socket.send(syncStep1(document.id));
    return { document, watcher, socket };
  }

  it.each([
    [
      'the states of many clients',
      Array.from({ length: 1_000 }, (_, i): [number, unknown] => [i + 1, { user: { name: 'x' } }]),
    ],
    [
      'a state too large to be a caret',
      [[7, { user: { name: 'x'.repeat(MAX_PRESENCE_STATE_CHARS) } }]],
    ],
  ] as Array<[string, Array<[number, unknown]>]>)(
    'closes a socket whose presence update holds %s, and no one sees it',
    async (_name, states) => {
      const { document, watcher, socket } = await watchedDocument();
      socket.socket.send(presence(document.id, states));
      expect(await socket.closed).toBe(1008);
      expect(watcher.provider.awareness!.getStates().size).toBe(1);
    },
  );

  it('closes a socket that speaks for a second client id; one client id publishes as before', async () => {
    const { document, watcher, socket } = await watchedDocument();
    socket.socket.send(presence(document.id, [[41, { user: { name: 'Me' } }]]));
    await until(() => watcher.provider.awareness!.getStates().has(41));
    socket.socket.send(presence(document.id, [[42, { user: { name: 'Someone else' } }]]));
    expect(await socket.closed).toBe(1008);
    expect(watcher.provider.awareness!.getStates().has(42)).toBe(false);
  });

  it("shows the others a writer's own account name and colour, whatever name the client declares", async () => {
    const { server, db } = context();
    const { client: ada } = await signedInUser(server, db, 'Ada');
    const { client: bob, user: bobUser } = await signedInUser(server, db, 'Bob');
    const document = await createDocument(ada, 'here');
    await shareWith(db, document.id, bobUser.id, 'editor');
    const watcher = live(ada, document.id);
    await watcher.synced;
    const socket = await rawSocket(bob.server.url, cookieOf(bob));
    socket.socket.send(auth(document.id));
    socket.socket.send(syncStep1(document.id));
    const declared = { user: { name: 'Ada', color: '#000000' }, cursor: null };
    socket.socket.send(presence(document.id, [[51, declared]]));
    await until(() => watcher.provider.awareness!.getStates().has(51));
    expect(watcher.provider.awareness!.getStates().get(51)).toEqual({
      user: caretUserOf(bobUser),
      cursor: null,
    });
    expect(caretUserOf(bobUser).name).toBe('Bob');
    // A later state, and a client that opens the document after it, read the same.
    socket.socket.send(presence(document.id, [[51, { ...declared, cursor: { at: 1 } }]], 2));
    await until(() => watcher.provider.awareness!.getStates().get(51)?.cursor !== null);
    expect(watcher.provider.awareness!.getStates().get(51)?.user).toEqual(caretUserOf(bobUser));
    const later = live(ada, document.id);
    await later.synced;
    await until(() => later.provider.awareness!.getStates().has(51));
    expect(later.provider.awareness!.getStates().get(51)?.user).toEqual(caretUserOf(bobUser));
  });
});

describeWithServer('a client that ignores the close frame', (context) => {
  it.each([
    [
      'its session signed out',
      4401,
      (client: TestClient) => client.request('POST', '/api/session/logout'),
    ],
    [
      'its document went to the trash',
      4403,
      (client: TestClient, id: string) => client.request('DELETE', `/api/documents/${id}`),
    ],
  ] as const)(
    'has nothing stored after %s, even after a new authentication, and is cut soon after',
    async (_name, code, end) => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const document = await createDocument(client, 'before');
      const state = await stateOf(client, document.id);
      const frames = await raw(client);
      frames.send(auth(document.id));
      frames.send(syncStep1(document.id));
      const live = () => server.services.collab!.hocuspocus.documents.get(document.id);
      await until(() => live()!.getConnectionsCount() === 2);
      const before = await storedUpdates(db, document.id);
      expect((await end(client, document.id)).ok).toBe(true);
      expect(await frames.closeCode).toBe(code);
      frames.send(update(document.id, appendedParagraph(state, 'after the end')));
      frames.send(auth(document.id));
      frames.send(update(document.id, appendedParagraph(state, 'after a new auth')));
      const started = Date.now();
      await frames.ended;
      // Cut after the grace, not after ws's 30 s wait for an answer.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await storedUpdates(db, document.id)).toBe(before);
    },
  );
});

describeWithServer('concurrent edits that are each valid', (context) => {
  it('never leave the stored document invalid: the server repairs their merge as one more update', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const res = await client.request('POST', '/api/documents', {
      json: {
        title: 'List',
        content: {
          type: 'doc',
          content: [
            {
              type: 'bulletList',
              content: [
                {
                  type: 'listItem',
                  content: ['first', 'second'].map((text) => ({
                    type: 'paragraph',
                    content: [{ type: 'text', text }],
                  })),
                },
                {
                  type: 'listItem',
                  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'third' }] }],
                },
              ],
            },
          ],
        },
      },
    });
    const { document } = (await res.json()) as { document: DocumentRecord };
    const ada = live(client, document.id);
    const bob = live(client, document.id);
    await Promise.all([ada.synced, bob.synced]);
    const item = (collab: CollabClient) =>
      (collab.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlElement;
    // In one turn: neither has the other's change when making its own.
    item(ada).delete(0, 1);
    item(bob).delete(1, 1);
    await Promise.all([ada.saved(), bob.saved()]);
    await until(() => ada.blocks().join() === bob.blocks().join() && ada.blocks()[0] === 'third');
    const read = await client.request('GET', `/api/documents/${document.id}`);
    const stored = ((await read.json()) as { document: DocumentRecord }).document;
    expect(stored.content).toEqual({
      type: 'doc',
      content: [
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: 'third' }] }],
            },
          ],
        },
      ],
    });
    expect((await client.request('GET', `/api/documents/${document.id}/export.md`)).status).toBe(
      200,
    );
  });
});

describeWithServer('whose Yjs client an update writes as', (context) => {
  it("closes a socket that writes as another account's client; resending what it received passes", async () => {
    const { server, db } = context();
    const { client: ada } = await signedInUser(server, db, 'Ada');
    const { client: bob, user: bobUser } = await signedInUser(server, db, 'Bob');
    const document = await createDocument(ada, 'Shared start');
    await shareWith(db, document.id, bobUser.id, 'editor');
    const bobLive = live(bob, document.id);
    const adaLive = live(ada, document.id);
    await Promise.all([bobLive.synced, adaLive.synced]);
    appendParagraph(bobLive, 'Bob wrote this');
    await bobLive.saved();
    await until(() => adaLive.blocks().includes('Bob wrote this'));

    // A tab that lost its socket resends everything it holds, Bob's text included: nothing new,
    // and the socket goes on to write its own.
    const resent = await rawSocket(ada.server.url, cookieOf(ada));
    resent.socket.send(auth(document.id));
    resent.socket.send(syncStep1(document.id));
    resent.socket.send(update(document.id, Y.encodeStateAsUpdate(adaLive.doc)));
    resent.socket.send(
      update(document.id, appendedParagraph(Y.encodeStateAsUpdate(adaLive.doc), 'Ada wrote this')),
    );
    await until(() => adaLive.blocks().includes('Ada wrote this'));
    resent.socket.close();

    // Ada's tab now writes new text as Bob's client: his name would be on her words.
    adaLive.doc.clientID = bobLive.doc.clientID;
    appendParagraph(adaLive, 'Words put in Bob’s mouth');
    expect(await adaLive.closed).toBe(1008);
    const read = await bob.request('GET', `/api/documents/${document.id}`);
    const stored = JSON.stringify(((await read.json()) as { document: DocumentRecord }).document);
    expect(stored).toContain('Ada wrote this');
    expect(stored).not.toContain('Words put in');
    expect(bobLive.blocks()).not.toContain('Words put in Bob’s mouth');
  });
});
