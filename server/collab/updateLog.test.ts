import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { DocumentStore } from '../documents/documentStore.ts';
import { validateContent } from '../documents/validateContent.ts';
import { sessionCookieName } from '../middleware/session.ts';
import { DATABASE_KINDS, openTestDatabase, skipReason } from '../test/databases.ts';
import { startTestServer, TestClient } from '../test/testServer.ts';
import { testUserWithSession } from '../test/users.ts';
import { appendParagraph, connectClient, until, type CollabClient } from './test/collabClient.ts';
import { UpdateLog } from './updateLog.ts';
import { YjsStore } from './yjsStore.ts';

const EMPTY = validateContent({ type: 'doc', content: [{ type: 'paragraph' }] });

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('the update log', () => {
  it('writes the updates of one turn together, those arriving during a write after it, each resolving once written', async () => {
    const writes: { ids: string[]; done: ReturnType<typeof deferred<string[]>> }[] = [];
    const store = {
      appendAll: (updates: readonly { documentId: string }[]) => {
        const done = deferred<string[]>();
        writes.push({ ids: updates.map((one) => one.documentId), done });
        return done.promise;
      },
    } as unknown as YjsStore;
    const log = new UpdateLog(store);
    const resolved: string[] = [];
    const append = (id: string) =>
      log.append(id, new Uint8Array([1])).then((row) => resolved.push(`${id}:${row}`));
    const turn = () => new Promise((settle) => setImmediate(settle));
    const first = [append('a'), append('b')];
    await turn();
    expect(writes.map((write) => write.ids)).toEqual([['a', 'b']]);
    const second = [append('c'), append('d')];
    await turn();
    // Not while the first write is under way, and nothing resolved before its write did.
    expect(writes).toHaveLength(1);
    expect(resolved).toEqual([]);
    writes[0]!.done.resolve(['1', '2']);
    await Promise.all(first);
    await turn();
    expect(resolved).toEqual(['a:1', 'b:2']);
    expect(writes.map((write) => write.ids)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    writes[1]!.done.resolve(['3', '4']);
    await Promise.all(second);
    expect(resolved).toEqual(['a:1', 'b:2', 'c:3', 'd:4']);
  });
});

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(`the update log on ${kind}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await openTestDatabase(kind);
    });
    afterAll(() => db.close());

    it('stores several documents’ updates in one statement, with their ids in the order given', async () => {
      const { user } = await testUserWithSession(db);
      const documents = new DocumentStore(db);
      const a = (await documents.create(user.id, 'A', EMPTY)).id;
      const b = (await documents.create(user.id, 'B', EMPTY)).id;
      const updates = [a, b, a].map((documentId, i) => ({
        documentId,
        update: new Uint8Array([i, 0, 255]),
      }));
      const ids = await new YjsStore(db).appendAll(updates);
      const { rows } = await db.query<{ id: string; document_id: string; data: string }>(
        `SELECT id::text AS id, document_id, encode(data, 'hex') AS data
           FROM document_yjs_updates WHERE id = ANY($1::bigint[]) ORDER BY id`,
        [`{${ids.join(',')}}`],
      );
      expect(rows.map((row) => row.id)).toEqual(ids);
      expect(rows.map((row) => [row.document_id, row.data])).toEqual([
        [a, '0000ff'],
        [b, '0100ff'],
        [a, '0200ff'],
      ]);
    });

    it('refuses only the update of a document deleted for good when it shared a write', async () => {
      const { user } = await testUserWithSession(db);
      const documents = new DocumentStore(db);
      const kept = (await documents.create(user.id, 'Kept', EMPTY)).id;
      const gone = (await documents.create(user.id, 'Gone', EMPTY)).id;
      await db.query('DELETE FROM documents WHERE id = $1', [gone]);
      const log = new UpdateLog(new YjsStore(db));
      // The first goes alone; the next two wait for it and are written together.
      const first = log.append(kept, new Uint8Array([1]));
      const together = [
        log.append(gone, new Uint8Array([2])),
        log.append(kept, new Uint8Array([3])),
      ];
      await first;
      await expect(together[0]).rejects.toThrow();
      const id = await together[1]!;
      const { rows } = await db.query<{ document_id: string }>(
        'SELECT document_id FROM document_yjs_updates WHERE id = $1::bigint',
        [id],
      );
      expect(rows).toEqual([{ document_id: kept }]);
    });
  });

  describe.skipIf(skipReason(kind) !== undefined)(`live updates under load on ${kind}`, () => {
    const open: CollabClient[] = [];
    let db: Database;
    const inserts: string[] = [];
    let server: Awaited<ReturnType<typeof startTestServer>>;
    beforeAll(async () => {
      const real = await openTestDatabase(kind);
      // The real database, counting the statements that append to the update log.
      db = {
        ...real,
        query: (sql, params) => {
          if (sql.includes('INSERT INTO document_yjs_updates')) inserts.push(sql);
          return real.query(sql, params);
        },
      };
      server = await startTestServer(db);
    });
    afterEach(() => {
      for (const client of open.splice(0)) client.destroy();
    });
    afterAll(async () => {
      await server.close();
      await db.close();
    });

    it('commits updates of many documents arriving together in fewer writes, each saved after its commit', async () => {
      const { user, token } = await testUserWithSession(db);
      const client = new TestClient(server, token);
      const cookie = `${sessionCookieName(server.url)}=${client.token}`;
      const documents = new DocumentStore(db);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await documents.create(user.id, `D${i}`, EMPTY)).id);
      for (const id of ids) open.push(connectClient(server.url, cookie, id));
      await Promise.all(open.map((collab) => collab.synced));
      inserts.length = 0;
      open.forEach((collab, i) => appendParagraph(collab, `typed in ${i}`));
      await Promise.all(open.map((collab) => collab.saved()));
      // Saved means committed: every update is in the log, and none waited for a pause.
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = ANY($1::uuid[])',
        [`{${ids.join(',')}}`],
      );
      expect(rows[0]!.n).toBe(20);
      expect(inserts.length).toBeLessThanOrEqual(10);
    });

    it('commits updates of one document from several writers arriving together in one write', async () => {
      const { user, token } = await testUserWithSession(db);
      const cookie = `${sessionCookieName(server.url)}=${token}`;
      const { id } = await new DocumentStore(db).create(user.id, 'Shared', EMPTY);
      for (let i = 0; i < 4; i++) open.push(connectClient(server.url, cookie, id));
      await Promise.all(open.map((collab) => collab.synced));
      inserts.length = 0;
      open.forEach((collab, i) => appendParagraph(collab, `writer ${i}`));
      await Promise.all(open.map((collab) => collab.saved()));
      // Each writer's paragraph reaches every writer: all four were applied.
      for (const collab of open) {
        await until(() => collab.blocks().filter((text) => text.startsWith('writer')).length === 4);
      }
      // Checked one after another, but none waited for another's commit to be checked.
      expect(inserts.length).toBeLessThanOrEqual(2);
    });
  });
}
