import { existsSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CLOSE } from '../../common/api/collabClose.ts';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { hashToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import type { LogFields, Logger } from '../logger.ts';
import { sessionCookieName } from '../middleware/session.ts';
import type { RunningServer } from '../startServer.ts';
import { openTestDatabase, skipReason } from '../test/databases.ts';
import { REDIS_SERVER, startRedis, type RedisServer } from '../test/redisServer.ts';
import { startTestServer, TestClient } from '../test/testServer.ts';
import { shareWith, testUserWithSession } from '../test/users.ts';
import { INVALIDATION_CHANNEL } from './invalidation.ts';
import { appendParagraph, connectClient, until, type CollabClient } from './test/collabClient.ts';
import { storedDoc } from './test/collabMessages.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/** `promise`, or a rejection once `ms` passed: "closed within a second" waits for the event only. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A logger that keeps its warnings, to see what an instance made of a message. */
function keptLogger(): Logger & { warnings: Array<{ message: string; fields?: LogFields }> } {
  const warnings: Array<{ message: string; fields?: LogFields }> = [];
  return {
    warnings,
    debug: () => undefined,
    info: () => undefined,
    warn: (message, fields) => warnings.push({ message, fields }),
    error: () => undefined,
  };
}

/** The top-level blocks of a document's Yjs state as stored. */
async function storedBlocks(db: Database, documentId: string): Promise<string[]> {
  return (await storedDoc(db, documentId))
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .map((block) => (block instanceof Y.XmlElement ? block.toString() : ''));
}

describe.skipIf(skipReason('postgres') !== undefined || !existsSync(REDIS_SERVER))(
  'two instances sharing live documents through Redis',
  () => {
    let redis: RedisServer;
    let db: Database;
    let servers: RunningServer[] = [];
    const clients: CollabClient[] = [];
    const secondLog = keptLogger();

    beforeAll(async () => {
      redis = await startRedis();
      db = await openTestDatabase('postgres');
      const collab = { redisUrl: redis.url, maxMessageBytes: 8 * 1024 * 1024 };
      servers = [
        await startTestServer(db, { collab }),
        await startTestServer(db, { collab }, { logger: secondLog }),
      ];
      // Messages published before an instance subscribed would not reach it.
      for (const server of servers) await server.services.collab!.invalidations!.ready();
    });
    afterAll(async () => {
      for (const client of clients) client.destroy();
      for (const server of servers) await server.close();
      await db?.close();
      await redis?.stop();
    });

    it('sends an update typed on one instance to a client of the other', async () => {
      const { token } = await testUserWithSession(db, 'Ada');
      const [first, second] = servers as [RunningServer, RunningServer];
      const api = new TestClient(first, token);
      const created = await api.request('POST', '/api/documents', {
        json: {
          title: 'Shared',
          content: {
            type: 'doc',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'start' }] }],
          },
        },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const cookie = (server: RunningServer) => `${sessionCookieName(server.url)}=${token}`;
      const one = connectClient(first.url, cookie(first), document.id);
      const two = connectClient(second.url, cookie(second), document.id);
      clients.push(one, two);
      await Promise.all([one.synced, two.synced]);
      expect(two.blocks()).toEqual(['start']);

      appendParagraph(one, 'typed on the first');
      await until(() => two.blocks().includes('typed on the first'));
      appendParagraph(two, 'typed on the second');
      await until(() => one.blocks().includes('typed on the second'));
      await Promise.all([one.saved(), two.saved()]);
      expect(one.blocks()).toEqual(two.blocks());

      // Both instances wrote their own updates; the stored document has all of them.
      const res = await new TestClient(second, token).request(
        'GET',
        `/api/documents/${document.id}`,
      );
      const stored = ((await res.json()) as { document: DocumentRecord }).document;
      const texts = (stored.content.content as Array<{ content?: Array<{ text: string }> }>).map(
        (block) => block.content?.[0]?.text,
      );
      expect(texts).toEqual(
        expect.arrayContaining(['start', 'typed on the first', 'typed on the second']),
      );
    });

    it('repairs the merge of two valid edits made on two instances, so the stored document stays valid', async () => {
      const { token } = await testUserWithSession(db, 'Cy');
      const [first, second] = servers as [RunningServer, RunningServer];
      const paragraphOf = (text: string) => ({
        type: 'paragraph',
        content: [{ type: 'text', text }],
      });
      const listOf = (...items: string[][]) => ({
        type: 'bulletList',
        content: items.map((texts) => ({ type: 'listItem', content: texts.map(paragraphOf) })),
      });
      const created = await new TestClient(first, token).request('POST', '/api/documents', {
        json: { title: 'List', content: { type: 'doc', content: [listOf(['a', 'b'], ['c'])] } },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const cookie = (server: RunningServer) => `${sessionCookieName(server.url)}=${token}`;
      const one = connectClient(first.url, cookie(first), document.id);
      const two = connectClient(second.url, cookie(second), document.id);
      clients.push(one, two);
      await Promise.all([one.synced, two.synced]);
      const item = (client: CollabClient) =>
        (client.doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlElement;
      // Each valid where it is made, and accepted by its own instance's check.
      item(one).delete(0, 1);
      item(two).delete(1, 1);
      await Promise.all([one.saved(), two.saved()]);
      const expected = { type: 'doc', content: [listOf(['c'])] };
      for (const server of servers) {
        await until(async () => {
          const res = await new TestClient(server, token).request(
            'GET',
            `/api/documents/${document.id}`,
          );
          const stored = ((await res.json()) as { document: DocumentRecord }).document;
          return isDeepStrictEqual(stored.content, expected);
        });
      }
      await until(() => one.blocks().join() === 'c' && two.blocks().join() === 'c');
      const exported = await new TestClient(second, token).request(
        'GET',
        `/api/documents/${document.id}/export.md`,
      );
      expect(exported.status).toBe(200);
      expect(await exported.text()).toBe('- c\n');
    });

    it('closes a session’s sockets on the other instance within a second of a sign-out', async () => {
      const { token } = await testUserWithSession(db, 'Bea');
      const [first, second] = servers as [RunningServer, RunningServer];
      const created = await new TestClient(first, token).request('POST', '/api/documents', {
        json: { title: 'Leaving' },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const elsewhere = connectClient(
        second.url,
        `${sessionCookieName(second.url)}=${token}`,
        document.id,
      );
      clients.push(elsewhere);
      await elsewhere.synced;
      expect(
        (await new TestClient(first, token).request('POST', '/api/session/logout')).status,
      ).toBe(200);
      // The 30 s check is only the safety net: the invalidation arrives through Redis.
      expect(await within(elsewhere.closed, 1_000)).toBe(4401);
    });

    it('closes with 4403 a client on the other instance when its document is trashed, and stores nothing it types after', async () => {
      const { token } = await testUserWithSession(db, 'Cy');
      const [first, second] = servers as [RunningServer, RunningServer];
      const api = new TestClient(first, token);
      const created = await api.request('POST', '/api/documents', { json: { title: 'Binned' } });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const editor = connectClient(
        second.url,
        `${sessionCookieName(second.url)}=${token}`,
        document.id,
      );
      clients.push(editor);
      await editor.synced;
      appendParagraph(editor, 'kept before');
      await editor.saved();

      expect((await api.request('DELETE', `/api/documents/${document.id}`)).status).toBe(204);
      expect(await within(editor.closed, 1_000)).toBe(4403);
      appendParagraph(editor, 'typed after');

      const blocks = await storedBlocks(db, document.id);
      expect(blocks.join('')).toContain('kept before');
      expect(blocks.join('')).not.toContain('typed after');
    });

    it('closes with access-changed a client on the other instance whose role was lowered, stores nothing it types after, and admits it again read-only', async () => {
      const owner = await testUserWithSession(db, 'Eve');
      const guest = await testUserWithSession(db, 'Fay');
      const [first, second] = servers as [RunningServer, RunningServer];
      const created = await new TestClient(first, owner.token).request('POST', '/api/documents', {
        json: { title: 'Lowered' },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      await shareWith(db, document.id, guest.user.id, 'editor');
      const cookie = `${sessionCookieName(second.url)}=${guest.token}`;
      const editor = connectClient(second.url, cookie, document.id);
      clients.push(editor);
      await editor.synced;
      let reason = '';
      editor.provider.on('close', ({ event }: { event: { reason: string } }) => {
        reason ||= event.reason;
      });
      appendParagraph(editor, 'kept before');
      await editor.saved();

      await db.query("UPDATE document_shares SET role = 'viewer' WHERE document_id = $1", [
        document.id,
      ]);
      await first.services.collab!.accessChanged(document.id);
      expect(await within(editor.closed, 1_000)).toBe(CLOSE.accessChanged.code);
      expect(reason).toBe(CLOSE.accessChanged.reason);
      appendParagraph(editor, 'typed after');

      const again = connectClient(second.url, cookie, document.id);
      clients.push(again);
      await again.synced;
      expect(again.provider.authorizedScope).toBe('readonly');
      const blocks = await storedBlocks(db, document.id);
      expect(blocks.join('')).toContain('kept before');
      expect(blocks.join('')).not.toContain('typed after');
    });

    it('ignores and logs malformed or hostile messages on the invalidation channel and keeps acting on real ones', async () => {
      const { token } = await testUserWithSession(db, 'Di');
      const [first, second] = servers as [RunningServer, RunningServer];
      const created = await new TestClient(first, token).request('POST', '/api/documents', {
        json: { title: 'Steady' },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const editor = connectClient(
        second.url,
        `${sessionCookieName(second.url)}=${token}`,
        document.id,
      );
      clients.push(editor);
      await editor.synced;

      const sessionHash = hashToken(token);
      const hostile: Array<string | Buffer> = [
        'not JSON {',
        'x'.repeat(4 * 1024 * 1024),
        'null',
        '[1,2,3]',
        JSON.stringify({ from: 'someone', kind: 'everything' }),
        JSON.stringify({ from: 'someone', kind: 'session', sessionHash: { $ne: '' } }),
        JSON.stringify({ from: 'someone', kind: 'document', documentId: '../../etc' }),
        JSON.stringify({ kind: 'session', sessionHash }),
        JSON.stringify({ from: 'someone', kind: 'session', sessionHash: 'x'.repeat(5_000) }),
        // Another format: a Hocuspocus sync message's bytes.
        Buffer.from([7, 0x61, 0x62, 0x63, 0, 0, 1, 0xff, 0xfe]),
      ];
      const publisher = new IORedis(redis.url);
      try {
        for (const message of hostile) await publisher.publish(INVALIDATION_CHANNEL, message);
        // A real session invalidation for a session that still exists closes nothing…
        const real = JSON.stringify({ from: 'someone', kind: 'session', sessionHash });
        await publisher.publish(INVALIDATION_CHANNEL, real);
        // …and once it is gone, the same message closes its socket: the instance still acts,
        // after every message before it (a channel keeps its order).
        await db.query('DELETE FROM sessions WHERE id_hash = $1', [sessionHash]);
        await publisher.publish(INVALIDATION_CHANNEL, real);
        expect(await within(editor.closed, 1_000)).toBe(4401);
      } finally {
        publisher.disconnect();
      }
      const ignored = secondLog.warnings.filter(
        ({ message }) => message === 'Ignored a message on the invalidation channel.',
      );
      expect(ignored).toHaveLength(hostile.length);
      // The log names the problem, never the message's text.
      expect(JSON.stringify(ignored)).not.toContain('xxxxxxxx');
    });
  },
);
