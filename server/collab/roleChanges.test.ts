import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import { CLOSE } from '../../common/api/collabClose.ts';
import type { GrantedRole } from '../../common/api/sharing.ts';
import type { Database } from '../db/database.ts';
import { documentAccess } from '../documents/access.ts';
import { createLogger } from '../logger.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';
import { CollabEngine } from './collabEngine.ts';
import {
  appendParagraph,
  type CollabClient,
  cookieOf,
  createDocument,
  textOf,
  until,
  useLiveClients,
} from './test/collabClient.ts';
import { auth, storedUpdates, syncStep1, update, storedDoc } from './test/collabMessages.ts';
import { rawFrameClient } from './test/rawFrames.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/*
 * People with roles on one live document, and those roles changing while they are connected:
 * a viewer's connection is read-only, a lowered editor's connection closes at once and nothing it
 * sends after is stored, a raised viewer is reconnected to write, a removed person is revoked.
 */

const { live, keep, closeAll } = useLiveClients();

/** The reason of the first close a client's provider hears (its document's own close message). */
function closeReason(collab: CollabClient): Promise<string> {
  return new Promise((resolve) =>
    collab.provider.on('close', ({ event }: { event: { reason: string } }) =>
      resolve(event.reason),
    ),
  );
}

/** The top-level blocks of a document's Yjs state as stored. */
async function storedText(db: Database, documentId: string): Promise<string[]> {
  return (await storedDoc(db, documentId))
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .map((block) => (block instanceof Y.XmlElement ? textOf(block) : ''));
}

/** The next sync-status answer `collab` gets from the server: whether its update was applied. */
function syncStatus(collab: CollabClient): Promise<boolean> {
  return new Promise((resolve) => {
    const onMessage = ({ event }: { event: MessageEvent }) => {
      const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
      decoding.readVarString(decoder);
      if (decoding.readVarUint(decoder) !== MessageType.SyncStatus) return;
      collab.provider.off('message', onMessage);
      resolve(decoding.readVarInt(decoder) === 1);
    };
    collab.provider.on('message', onMessage);
  });
}

/** An update appending a paragraph of `text` to what `collab` holds. */
function appended(collab: CollabClient, text: string): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(collab.doc));
  const before = Y.encodeStateVector(doc);
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  doc.getXmlFragment(CONTENT_FIELD).push([paragraph]);
  return Y.encodeStateAsUpdate(doc, before);
}

describeWithServer('roles on a live document', (context) => {
  /** Ada's document, shared with Bob as `role`; both signed in. */
  async function sharedDocument(role: GrantedRole) {
    const { server, db } = context();
    const ada = await signedInUser(server, db, 'Ada');
    const bob = await signedInUser(server, db, 'Bob');
    const document = await createDocument(ada.client, 'shared');
    await shareWith(db, document.id, bob.user.id, role);
    return { server, db, ada: ada.client, bob: bob.client, bobId: bob.user.id, document };
  }

  it("drops a viewer's update: it reaches neither the stored document nor the other writers", async () => {
    const { db, ada, bob, document } = await sharedDocument('viewer');
    const writer = live(ada, document.id);
    const reader = live(bob, document.id);
    await Promise.all([writer.synced, reader.synced]);
    expect(reader.provider.authorizedScope).toBe('readonly');
    const before = await storedUpdates(db, document.id);
    // Its sync answered (the first sync-status), the next answer is the update's.
    await reader.saved();
    const answer = syncStatus(reader);
    appendParagraph(reader, 'not allowed');
    // Answered "not applied": so neither stored nor sent on, which the rest confirms.
    expect(await answer).toBe(false);
    appendParagraph(writer, 'from Ada');
    await writer.saved();
    await until(() => reader.blocks().includes('from Ada'));
    expect(writer.blocks()).toEqual(['shared', 'from Ada']);
    expect(reader.socket.status).toBe('connected');
    expect(await storedUpdates(db, document.id)).toBe(before + 1);
    const fresh = live(ada, document.id);
    await fresh.synced;
    expect(fresh.blocks()).toEqual(['shared', 'from Ada']);
  });

  it('closes an editor lowered to viewer with access-changed at once, stores nothing it sends after, and admits it again read-only', async () => {
    const { server, db, bob, bobId, document } = await sharedDocument('editor');
    const editor = live(bob, document.id);
    await editor.synced;
    appendParagraph(editor, 'while an editor');
    await editor.saved();
    // A client that ignores the close frame and goes on sending.
    const frames = await rawFrameClient(server.url, cookieOf(bob));
    keep(frames);
    frames.send(auth(document.id));
    frames.send(syncStep1(document.id));
    const connections = () =>
      server.services.collab!.hocuspocus.documents.get(document.id)?.getConnectionsCount();
    await until(() => connections() === 2);
    const reason = closeReason(editor);

    await shareWith(db, document.id, bobId, 'viewer');
    await server.services.collab!.accessChanged(document.id);
    expect(await reason).toBe(CLOSE.accessChanged.reason);
    expect(await editor.closed).toBe(CLOSE.accessChanged.code);
    expect(await frames.closeCode).toBe(CLOSE.accessChanged.code);
    frames.send(update(document.id, appended(editor, 'after the change')));
    frames.send(auth(document.id));
    frames.send(update(document.id, appended(editor, 'after a new auth')));
    await frames.ended;
    expect(await storedText(db, document.id)).toEqual(['shared', 'while an editor']);

    const again = live(bob, document.id);
    await again.synced;
    expect(again.provider.authorizedScope).toBe('readonly');
    expect(again.blocks()).toEqual(['shared', 'while an editor']);
  });

  it('reconnects a viewer raised to editor, who can then write', async () => {
    const { server, db, bob, bobId, document } = await sharedDocument('viewer');
    const reader = live(bob, document.id);
    await reader.synced;
    const reason = closeReason(reader);
    await shareWith(db, document.id, bobId, 'editor');
    await server.services.collab!.accessChanged(document.id);
    expect(await reason).toBe(CLOSE.accessChanged.reason);
    const editor = live(bob, document.id);
    await editor.synced;
    expect(editor.provider.authorizedScope).toBe('read-write');
    appendParagraph(editor, 'now an editor');
    await editor.saved();
    const fresh = live(bob, document.id);
    await fresh.synced;
    expect(fresh.blocks()).toEqual(['shared', 'now an editor']);
  });

  it('revokes a person whose share was removed, and leaves the owner and unchanged roles connected', async () => {
    const { server, db, ada, bob, bobId, document } = await sharedDocument('editor');
    const owner = live(ada, document.id);
    const editor = live(bob, document.id);
    await Promise.all([owner.synced, editor.synced]);
    const reason = closeReason(editor);
    await db.query('DELETE FROM document_shares WHERE document_id = $1 AND user_id = $2', [
      document.id,
      bobId,
    ]);
    await server.services.collab!.accessChanged(document.id);
    expect(await reason).toBe(CLOSE.revoked.reason);
    expect(await editor.closed).toBe(CLOSE.revoked.code);
    appendParagraph(owner, 'still here');
    await owner.saved();
    expect(owner.socket.status).toBe('connected');
  });

  it('asks for each person’s access once when rechecking, however many connections they have', async () => {
    const { server, db, ada, bob, document } = await sharedDocument('editor');
    const asked: string[] = [];
    const regular = server.services.collab!;
    const engine = new CollabEngine(db, createLogger('silent'), {
      redisUrl: undefined,
      access: (queried, userId, id) => {
        asked.push(userId);
        return documentAccess(queried, userId, id);
      },
    });
    server.services.collab = engine;
    try {
      const clients = [ada, ada, ada, bob, bob].map((client) => live(client, document.id));
      await Promise.all(clients.map((client) => client.synced));
      asked.length = 0;
      await engine.accessChanged(document.id);
      expect(asked).toHaveLength(2);
      expect(new Set(asked).size).toBe(2);
      for (const client of clients) expect(client.socket.status).toBe('connected');
    } finally {
      closeAll();
      await engine.close();
      server.services.collab = regular;
    }
  });
});
