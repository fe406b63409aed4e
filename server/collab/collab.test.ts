import * as encoding from 'lib0/encoding';
import { expect, it } from 'vitest';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';
import {
  appendParagraph,
  cookieOf,
  createDocument,
  until,
  useLiveClients,
} from './test/collabClient.ts';
import {
  auth,
  message,
  rawSocket,
  storedUpdates,
  syncStep1,
  update,
} from './test/collabMessages.ts';
import { COMPACT_AFTER_UPDATES } from './collabEngine.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

const paragraphs = (...texts: string[]) => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

const { live } = useLiveClients();

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

  it('writes no new version for a store that leaves the content as the editor sent it', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    // As the editor sends it: default attributes (a heading's syntax, a link's target…) left out.
    const content = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'a ' },
            { type: 'text', text: 'link', marks: [{ type: 'link', attrs: { href: '/x' } }] },
          ],
        },
      ],
    };
    const res = await client.request('POST', '/api/documents', { json: { title: 'T', content } });
    const document = ((await res.json()) as { document: DocumentRecord }).document;
    const collab = live(client, document.id);
    await collab.synced;
    // A change to the Yjs state that leaves the content as it was: the heading's level set again.
    const heading = collab.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement<{
      level: number;
    }>;
    heading.setAttribute('level', 2);
    await collab.saved();
    const read = await client.request('GET', `/api/documents/${document.id}`);
    const stored = ((await read.json()) as { document: DocumentRecord }).document;
    expect(stored.content).toEqual(content);
    expect(stored.version).toBe(document.version);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
      [document.id],
    );
    // The read did store the change (the log was folded in), only not as a new version.
    expect(rows[0]!.n).toBe(0);
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

  it('closes a live editor with 4403 when its document goes to the trash', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'binned live');
    const collab = live(client, document.id);
    await collab.synced;
    expect((await client.request('DELETE', `/api/documents/${document.id}`)).status).toBe(204);
    expect(await collab.closed).toBe(4403);
  });

  it('on a socket carrying two documents, closes only the trashed one and stores nothing sent for it after', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const kept = await createDocument(client, 'kept');
    const binned = await createDocument(client, 'binned');
    const first = live(client, kept.id);
    await first.synced;
    // A second document on the same socket, as the provider multiplexes them.
    const doc = new Y.Doc();
    let closedReason = '';
    const second = new HocuspocusProvider({
      websocketProvider: first.socket,
      name: binned.id,
      document: doc,
      token: 'cookie',
      onClose: ({ event }) => (closedReason = event.reason),
    });
    second.attach();
    await until(() => second.isSynced);
    expect((await client.request('DELETE', `/api/documents/${binned.id}`)).status).toBe(204);
    await until(() => closedReason === 'access-revoked');
    const before = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
      [binned.id],
    );
    // Sent on the still open socket for the revoked document: not applied, not stored.
    const fragment = doc.getXmlFragment(CONTENT_FIELD);
    const sent = new Promise<void>((resolve) => second.on('outgoingMessage', () => resolve()));
    doc.transact(() => {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText('typed after')]);
      fragment.insert(fragment.length, [paragraph]);
    });
    await sent;
    // The other document on the socket still saves, after the update above was sent.
    appendParagraph(first, 'still live');
    await first.saved();
    const after = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
      [binned.id],
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    second.destroy();
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

  it('gives back what one writer typed into a block another deleted at the same moment', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'one', 'two', 'three');
    const ada = live(client, document.id);
    const bob = live(client, document.id);
    await Promise.all([ada.synced, bob.synced]);
    const second = (collab: typeof ada) =>
      collab.doc.getXmlFragment(CONTENT_FIELD).get(1) as Y.XmlElement;
    // In one tick, so that neither has the other's change when it makes its own: Ada deletes the
    // block (a restore would), Bob types into it.
    ada.doc.getXmlFragment(CONTENT_FIELD).delete(1, 1);
    (second(bob).get(0) as Y.XmlText).insert(3, ', typed by Bob');
    await Promise.all([ada.saved(), bob.saved()]);
    const expected = ['one', ', typed by Bob', 'three'];
    await until(() => ada.blocks().join('|') === expected.join('|'));
    await until(() => bob.blocks().join('|') === expected.join('|'));
    // The server took Bob's typing whole: his next change, which follows it, reaches a newcomer.
    appendParagraph(bob, 'after');
    await bob.saved();
    const newcomer = live(client, document.id);
    await newcomer.synced;
    await until(() => newcomer.blocks().join('|') === [...expected, 'after'].join('|'));
  });

  it('keeps the link around an inline image in an API write to a live document', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'one');
    const collab = live(client, document.id);
    await collab.synced;
    const badge = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'inlineImage',
              attrs: { src: 'https://example.com/build.svg', alt: 'build' },
              marks: [{ type: 'link', attrs: { href: 'https://ci.example.com' } }],
            },
          ],
        },
      ],
    };
    const current = (
      (await (await client.request('GET', `/api/documents/${document.id}`)).json()) as {
        document: DocumentRecord;
      }
    ).document;
    const res = await client.request('PATCH', `/api/documents/${document.id}`, {
      json: { baseVersion: current.version, content: badge },
    });
    expect(res.status).toBe(200);
    const read = await client.request('GET', `/api/documents/${document.id}`);
    const { content } = ((await read.json()) as { document: DocumentRecord }).document;
    const image = (content as typeof badge).content[0]!.content[0]!;
    expect(image.type).toBe('inlineImage');
    expect(image.marks).toEqual([
      expect.objectContaining({
        type: 'link',
        attrs: expect.objectContaining({ href: 'https://ci.example.com' }),
      }),
    ]);
  });
});

describeWithServer('hostile messages on the live socket', (context) => {
  it('closes a socket whose update breaks the schema; nothing is stored or sent to others', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'intact');
    const watcher = live(client, document.id);
    const hostile = live(client, document.id);
    await Promise.all([watcher.synced, hostile.synced]);
    const before = await storedUpdates(db, document.id);
    hostile.doc.getXmlFragment(CONTENT_FIELD).insert(1, [new Y.XmlElement('script')]);
    expect(await hostile.closed).toBe(1008);
    appendParagraph(watcher, 'still fine');
    await watcher.saved();
    expect(watcher.blocks()).toEqual(['intact', 'still fine']);
    expect(await storedUpdates(db, document.id)).toBe(before + 1);
  });

  it('closes a socket that sends bytes that are no message or no update; the document stays', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'intact');
    const garbage = await rawSocket(client.server.url, cookieOf(client));
    garbage.socket.send(new Uint8Array([255, 255, 255, 255, 255, 255, 255, 255, 255, 1]));
    expect(await garbage.closed).not.toBe(1000);
    const broken = await rawSocket(client.server.url, cookieOf(client));
    broken.socket.send(auth(document.id));
    await until(() => broken.names.length > 0);
    broken.socket.send(update(document.id, new Uint8Array([9, 9, 9, 250, 250, 250, 1])));
    expect(await broken.closed).toBe(1008);
    const fresh = live(client, document.id);
    await fresh.synced;
    expect(fresh.blocks()).toEqual(['intact']);
  });

  it('closes with 1008, not as signed out, a socket whose frame has no readable name, type or token', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'intact');
    const nameOnly = encoding.createEncoder();
    encoding.writeVarString(nameOnly, document.id);
    const frames = [
      new Uint8Array([]),
      new Uint8Array([255, 255, 255, 255, 255, 255, 255, 255, 255, 1]),
      encoding.toUint8Array(nameOnly),
      // An authentication cut short before its token.
      message(document.id, 2, (e) => encoding.writeVarUint(e, 0)),
    ];
    for (const frame of frames) {
      const raw = await rawSocket(client.server.url, cookieOf(client));
      raw.socket.send(frame);
      expect(await raw.closed).toBe(1008);
    }
    const fresh = live(client, document.id);
    await fresh.synced;
    expect(fresh.blocks()).toEqual(['intact']);
  });

  it('closes a socket that floods messages', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'intact');
    const flood = await rawSocket(client.server.url, cookieOf(client));
    flood.socket.send(auth(document.id));
    for (let i = 0; i < 1_000; i += 1) flood.socket.send(syncStep1(document.id));
    expect(await flood.closed).toBe(1008);
    // A reason of its own: the client reconnects instead of setting its device copy aside.
    expect(await flood.reason).toBe('too-many-messages');
  });

  it('answers nothing about a document the socket was not admitted to', async () => {
    const { server, db } = context();
    const { client: ada } = await signedInUser(server, db, 'Ada');
    const { client: eve } = await signedInUser(server, db, 'Eve');
    const secret = await createDocument(ada, 'secret');
    const own = await createDocument(eve, 'mine');
    const adas = live(ada, secret.id);
    await adas.synced;
    adas.provider.setAwarenessField('user', { name: 'Ada' });
    const raw = await rawSocket(eve.server.url, cookieOf(eve));
    raw.socket.send(auth(own.id));
    raw.socket.send(syncStep1(own.id));
    // Without and with an attempt to authenticate: sync, awareness query, update.
    raw.socket.send(syncStep1(secret.id));
    raw.socket.send(message(secret.id, 3, () => undefined));
    raw.socket.send(auth(secret.id));
    raw.socket.send(syncStep1(secret.id));
    raw.socket.send(message(secret.id, 3, () => undefined));
    // A round trip on its own document after them, so their answers would have come by now.
    raw.socket.send(syncStep1(own.id));
    await until(() => raw.names.filter((name) => name === own.id).length >= 4);
    const aboutSecret = raw.names.filter((name) => name === secret.id);
    // At most the refusal of the authentication, never its content or who is in it.
    expect(aboutSecret.length).toBeLessThanOrEqual(1);
    expect(adas.blocks()).toEqual(['secret']);
    raw.socket.close();
  });
});

describeWithServer(
  'oversized messages on the live socket',
  (context) => {
    it('closes a socket whose message is larger than COLLAB_MAX_MESSAGE_BYTES', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const document = await createDocument(client, 'intact');
      const big = live(client, document.id);
      await big.synced;
      appendParagraph(big, 'x'.repeat(100_000));
      expect(await big.closed).toBe(1009);
      const fresh = live(client, document.id);
      await fresh.synced;
      expect(fresh.blocks()).toEqual(['intact']);
    });
  },
  { collab: { redisUrl: undefined, maxMessageBytes: 64 * 1024 } },
);

describeWithServer('compacting the update log', (context) => {
  it('folds the log into the snapshot when the last editor leaves', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'start');
    const collab = live(client, document.id);
    await collab.synced;
    for (const text of ['one', 'two', 'three']) {
      appendParagraph(collab, text);
      await collab.saved();
    }
    expect(await storedUpdates(db, document.id)).toBe(3);
    collab.destroy();
    await until(async () => (await storedUpdates(db, document.id)) === 0);
    const again = live(client, document.id);
    await again.synced;
    expect(again.blocks()).toEqual(['start', 'one', 'two', 'three']);
  });

  it(`folds it in after ${COMPACT_AFTER_UPDATES} updates without waiting for a pause`, async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'start');
    const collab = live(client, document.id);
    await collab.synced;
    for (let line = 0; line < COMPACT_AFTER_UPDATES + 20; line += 1) {
      appendParagraph(collab, `line ${line}`);
      await collab.saved();
      // Under the socket's flood limit (MAX_MESSAGES_PER_SECOND).
      await new Promise((pause) => setTimeout(pause, 5));
    }
    // Well within the pause after which Hocuspocus would store anyway (2 s).
    await until(async () => (await storedUpdates(db, document.id)) < COMPACT_AFTER_UPDATES, 1_500);
    expect(collab.blocks()).toHaveLength(COMPACT_AFTER_UPDATES + 21);
  }, 60_000);
});

describeWithServer(
  'a trashed document with updates a stopped server left in its log',
  (context) => {
    it('is read whole by the API and export.md, not answered with 500', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const document = await createDocument(client, 'kept');
      const first = live(client, document.id);
      await first.synced;
      first.destroy();
      await until(() => !server.services.collab!.hocuspocus.documents.has(document.id));
      // An acknowledged edit a server killed before its compaction left in the log.
      const before = Y.encodeStateVector(first.doc);
      appendParagraph(first, 'typed before the crash');
      await db.query(
        "INSERT INTO document_yjs_updates (document_id, data) VALUES ($1, decode($2, 'base64'))",
        [document.id, Buffer.from(Y.encodeStateAsUpdate(first.doc, before)).toString('base64')],
      );
      expect((await client.request('DELETE', `/api/documents/${document.id}`)).status).toBe(204);
      const read = await client.request('GET', `/api/documents/${document.id}`);
      expect(read.status).toBe(200);
      const stored = ((await read.json()) as { document: DocumentRecord }).document;
      expect(stored.content).toMatchObject(paragraphs('kept', 'typed before the crash'));
      const exported = await client.request('GET', `/api/documents/${document.id}/export.md`);
      expect(exported.status).toBe(200);
      expect(await exported.text()).toBe('kept\n\ntyped before the crash\n');
      // Still refused to a socket while in the trash.
      const again = live(client, document.id);
      await expect(again.synced).rejects.toThrow('permission-denied');
    });
  },
);

describeWithServer('a live document that fails to load', (context) => {
  it('closes the socket with 1011, not as refused, when another extension’s load hook fails', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'kept');
    const { extensions } = server.services.collab!.hocuspocus.configuration;
    // As Redis's would when its server is down: its hooks run before the engine's.
    const failing = {
      afterLoadDocument: () => Promise.reject(new Error('The Redis server is down.')),
    };
    extensions.unshift(failing);
    try {
      const collab = live(client, document.id);
      await expect(collab.synced).rejects.toThrow('closed: 1011');
      expect(server.services.collab!.hocuspocus.documents.has(document.id)).toBe(false);
    } finally {
      extensions.splice(extensions.indexOf(failing), 1);
    }
    const again = live(client, document.id);
    await again.synced;
    expect(again.blocks()).toEqual(['kept']);
    appendParagraph(again, 'typed after');
    await again.saved();
  });

  it('closes the socket, keeps nothing in memory, and loads once the state is readable', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'kept');
    const first = live(client, document.id);
    await first.synced;
    first.destroy();
    await until(() => !server.services.collab!.hocuspocus.documents.has(document.id));
    const { rows } = await db.query<{ state: string }>(
      "SELECT encode(state, 'base64') AS state FROM document_yjs WHERE document_id = $1",
      [document.id],
    );
    await db.query(
      "UPDATE document_yjs SET state = decode('/////////////w==', 'base64') WHERE document_id = $1",
      [document.id],
    );
    const failing = live(client, document.id);
    expect(await failing.closed).toBe(1011);
    expect(server.services.collab!.hocuspocus.documents.has(document.id)).toBe(false);
    expect(server.services.collab!.hocuspocus.loadingDocuments.has(document.id)).toBe(false);
    await db.query("UPDATE document_yjs SET state = decode($2, 'base64') WHERE document_id = $1", [
      document.id,
      rows[0]!.state,
    ]);
    const again = live(client, document.id);
    await again.synced;
    expect(again.blocks()).toEqual(['kept']);
  });
});

describeWithServer('rewriting wikilinks in a live document', (context) => {
  it('merges the rewrite into the Yjs state, where a live editor sees it', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const target = await createDocument(client, 'the target');
    const patch = await client.request('PATCH', `/api/documents/${target.id}`, {
      json: { baseVersion: target.version, title: 'Draft' },
    });
    expect(patch.status).toBe(200);
    const res = await client.request('POST', '/api/documents', {
      json: {
        title: 'Linking',
        content: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'see ' },
                {
                  type: 'wikilink',
                  attrs: { target: 'Draft', fragment: '', alias: null, embed: false },
                },
              ],
            },
          ],
        },
      },
    });
    const linking = ((await res.json()) as { document: DocumentRecord }).document;
    const collab = live(client, linking.id);
    await collab.synced;
    const reread = await client.request('GET', `/api/documents/${target.id}`);
    const current = ((await reread.json()) as { document: DocumentRecord }).document;
    await client.request('PATCH', `/api/documents/${target.id}`, {
      json: { baseVersion: current.version, title: 'Final' },
    });
    const renamed = await client.request('POST', `/api/documents/${target.id}/rename-links`, {
      json: { from: 'Draft' },
    });
    expect(await renamed.json()).toEqual({ documents: 1, links: 1 });
    const wikilinkTarget = () =>
      (
        (collab.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement)
          .toArray()
          .find((child) => child instanceof Y.XmlElement && child.nodeName === 'wikilink') as
          Y.XmlElement | undefined
      )?.getAttribute('target');
    await until(() => wikilinkTarget() === 'Final');
    const stored = (
      (await (await client.request('GET', `/api/documents/${linking.id}`)).json()) as {
        document: DocumentRecord;
      }
    ).document;
    expect(JSON.stringify(stored.content)).toContain('"target":"Final"');
  });

  it('keeps what a writer typed since the last store, and changes only the link', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const created = await client.request('POST', '/api/documents', { json: { title: 'Draft' } });
    const target = ((await created.json()) as { document: DocumentRecord }).document;
    const res = await client.request('POST', '/api/documents', {
      json: {
        title: 'Linking',
        content: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'see ' },
                {
                  type: 'wikilink',
                  attrs: { target: 'Draft', fragment: '', alias: null, embed: false },
                },
              ],
            },
          ],
        },
      },
    });
    const linking = ((await res.json()) as { document: DocumentRecord }).document;
    // No store while the test runs: documents.content stays as it was before the typing, as it
    // is for the seconds after each keystroke.
    const { configuration } = server.services.collab!.hocuspocus;
    const { debounce, maxDebounce } = configuration;
    configuration.debounce = configuration.maxDebounce = 600_000;
    try {
      const writer = live(client, linking.id);
      await writer.synced;
      const first = writer.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement;
      (first.get(0) as Y.XmlText).insert(0, 'Please ');
      appendParagraph(writer, 'typed just now');
      await writer.saved();
      const { rows } = await db.query<{ content: unknown }>(
        'SELECT content FROM documents WHERE id = $1',
        [linking.id],
      );
      expect(JSON.stringify(rows[0]!.content)).not.toContain('typed just now');

      const renamed = await client.request('PATCH', `/api/documents/${target.id}`, {
        json: { baseVersion: target.version, title: 'Final' },
      });
      expect(renamed.status).toBe(200);
      const rewrite = await client.request('POST', `/api/documents/${target.id}/rename-links`, {
        json: { from: 'Draft' },
      });
      expect(await rewrite.json()).toEqual({ documents: 1, links: 1 });

      const link = () =>
        (writer.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement)
          .toArray()
          .find((child) => child instanceof Y.XmlElement && child.nodeName === 'wikilink') as
          Y.XmlElement | undefined;
      await until(() => link()?.getAttribute('target') === 'Final');
      expect(writer.blocks()).toEqual(['Please see ', 'typed just now']);
      expect(writer.provider.unsyncedChanges).toBe(0);
      const stored = (
        (await (await client.request('GET', `/api/documents/${linking.id}`)).json()) as {
          document: DocumentRecord;
        }
      ).document;
      const text = JSON.stringify(stored.content);
      expect(text).toContain('"text":"Please see "');
      expect(text).toContain('"target":"Final"');
      expect(text).toContain('typed just now');
    } finally {
      configuration.debounce = debounce;
      configuration.maxDebounce = maxDebounce;
    }
  });

  it('finds a link typed a moment ago in an open document that named no title before', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const created = await client.request('POST', '/api/documents', { json: { title: 'Draft' } });
    const target = ((await created.json()) as { document: DocumentRecord }).document;
    const res = await client.request('POST', '/api/documents', {
      json: { title: 'Notes', content: paragraphs('no links yet') },
    });
    const notes = ((await res.json()) as { document: DocumentRecord }).document;
    const { configuration } = server.services.collab!.hocuspocus;
    const { debounce, maxDebounce } = configuration;
    configuration.debounce = configuration.maxDebounce = 600_000;
    try {
      const writer = live(client, notes.id);
      await writer.synced;
      const first = writer.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement;
      const link = new Y.XmlElement('wikilink');
      link.setAttribute('target', 'Draft');
      first.insert(first.length, [link]);
      await writer.saved();
      const renamed = await client.request('PATCH', `/api/documents/${target.id}`, {
        json: { baseVersion: target.version, title: 'Final' },
      });
      expect(renamed.status).toBe(200);
      const rewrite = await client.request('POST', `/api/documents/${target.id}/rename-links`, {
        json: { from: 'Draft' },
      });
      expect(await rewrite.json()).toEqual({ documents: 1, links: 1 });
      await until(() => link.getAttribute('target') === 'Final');
    } finally {
      configuration.debounce = debounce;
      configuration.maxDebounce = maxDebounce;
    }
  });
});

describeWithServer('the time to "Saved"', (context) => {
  it('acknowledges each keystroke only once it is on disk', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'typing here');
    const collab = live(client, document.id);
    await collab.synced;
    const text = (collab.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(
      0,
    ) as Y.XmlText;
    // How fast "Saved" comes is measured by the collabLoad benchmark.
    for (let i = 1; i <= 50; i += 1) {
      text.insert(text.length, 'x');
      await collab.saved();
      expect(await storedUpdates(db, document.id)).toBe(i);
    }
  }, 30_000);
});

describeWithServer(
  'a live document growing past its limit',
  (context) => {
    it('refuses the update that would pass twice DOCUMENT_MAX_BYTES and keeps what came before', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const document = await createDocument(client, 'start');
      const collab = live(client, document.id);
      await collab.synced;
      let accepted = 0;
      for (let i = 0; i < 20; i += 1) {
        appendParagraph(collab, `${i} ${'y'.repeat(5_000)}`);
        try {
          await collab.saved();
        } catch {
          break;
        }
        accepted += 1;
      }
      expect(await collab.closed).toBe(1009);
      expect(accepted).toBeGreaterThan(2);
      const fresh = live(client, document.id);
      await fresh.synced;
      expect(fresh.blocks()).toHaveLength(accepted + 1);
      // Opened again, the document counts what it holds: the next large change is refused too.
      appendParagraph(fresh, `again ${'y'.repeat(5_000)}`);
      expect(await fresh.closed).toBe(1009);
    });
  },
  { documentMaxBytes: 20_000 },
);
