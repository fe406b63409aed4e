import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Database } from '../db/database.ts';
import { YjsStore } from '../collab/yjsStore.ts';
import { contentOfYDoc, CONTENT_FIELD } from '../collab/yjsContent.ts';
import { DocumentStore } from '../documents/documentStore.ts';
import { validateContent } from '../documents/validateContent.ts';
import { DATABASE_KINDS, openTestDatabase, skipReason } from '../test/databases.ts';
import { testUserWithSession } from '../test/users.ts';
import { fileIdsOf, VersionStore } from './versionStore.ts';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** The text of block `index` of a live document. */
function blockText(doc: Y.Doc, index: number): Y.XmlText {
  return (doc.getXmlFragment(CONTENT_FIELD).get(index) as Y.XmlElement).get(0) as Y.XmlText;
}

/** A second Yjs client of `doc`: what another writer's edits look like. */
function otherWriter(doc: Y.Doc): Y.Doc {
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  return other;
}

const sync = (from: Y.Doc, to: Y.Doc) =>
  Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)));

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(`versions on ${kind}`, () => {
    let db: Database;
    let store: VersionStore;
    beforeAll(async () => {
      db = await openTestDatabase(kind);
      store = new VersionStore(db);
    });
    afterAll(() => db.close());

    /** A live document of a new owner's holding `texts`, as the engine loads it. */
    async function liveDocument(...texts: string[]) {
      const { user } = await testUserWithSession(db);
      const content = validateContent({ type: 'doc', content: texts.map(paragraph) });
      const { id } = await new DocumentStore(db).create(user.id, 'Versions', content);
      const loaded = await new YjsStore(db).load(id);
      return { id, user, doc: loaded!.doc };
    }

    it('gives back each version as it was, from keyframes and diffs, newest first', async () => {
      const { id, doc } = await liveDocument('One.', 'Two.', 'Three.');
      const kept: { id: string; content: unknown }[] = [];
      for (let round = 0; round < 6; round++) {
        blockText(doc, round % 2).insert(0, `Round ${round}. `);
        if (round === 3) doc.getXmlFragment(CONTENT_FIELD).delete(1, 1);
        const version = await store.keep(id, doc, { kind: 'auto' });
        kept.push({ id: version!.id, content: contentOfYDoc(doc) });
      }
      const { rows } = await db.query<{ base_id: string | null }>(
        'SELECT base_id::text AS base_id FROM document_versions WHERE document_id = $1 ORDER BY id',
        [id],
      );
      // A keyframe, then diffs on it: small changes to a small document.
      expect(rows[0]!.base_id).toBeNull();
      expect(rows.slice(1).every((row) => row.base_id !== null)).toBe(true);
      for (const version of kept) {
        expect((await store.read(id, version.id))?.content).toEqual(version.content);
      }
      const first = await store.list(id, { limit: 4 });
      expect(first.versions.map((v) => v.id)).toEqual(
        kept
          .slice(2)
          .map((v) => v.id)
          .reverse(),
      );
      const second = await store.list(id, { before: first.next!, limit: 4 });
      expect(second.versions.map((v) => v.id)).toEqual(
        kept
          .slice(0, 2)
          .map((v) => v.id)
          .reverse(),
      );
      expect(second.next).toBeNull();
    });

    it('keeps nothing when nothing changed, but names the newest when asked', async () => {
      const { id, user, doc } = await liveDocument('Same.');
      const first = await store.keep(id, doc, { kind: 'auto' });
      const again = await store.keep(id, doc, { kind: 'auto' });
      expect(again?.id).toBe(first?.id);
      const named = await store.keep(id, doc, { kind: 'named', name: 'Draft', keptBy: user.id });
      expect(named).toMatchObject({ id: first?.id, kind: 'named', name: 'Draft' });
      expect(named?.keptBy?.id).toBe(user.id);
      // A second name on the same content is a version of its own: the first name stays.
      const renamedAgain = await store.keep(id, doc, { kind: 'named', name: 'Final' });
      expect(renamedAgain?.id).not.toBe(first?.id);
      expect((await store.list(id, { limit: 10 })).versions.map((v) => v.name)).toEqual([
        'Final',
        'Draft',
      ]);
    });

    it('counts what was written and removed since the version before', async () => {
      const { id, doc } = await liveDocument('Hello world.');
      const first = await store.keep(id, doc, { kind: 'auto' });
      expect(first).toMatchObject({ added: 'Hello world.'.length, removed: 0 });
      blockText(doc, 0).delete(0, 6); // "Hello "
      blockText(doc, 0).insert(0, 'Dear ');
      blockText(doc, 0).insert(0, 'typo');
      blockText(doc, 0).delete(0, 4); // typed and gone again: counts for nothing
      const second = await store.keep(id, doc, { kind: 'auto' });
      expect(second).toMatchObject({ added: 'Dear '.length, removed: 'Hello '.length });
    });

    it('keeps the moment it was asked for, whatever the live document takes meanwhile', async () => {
      const { id, doc } = await liveDocument('One.');
      await store.keep(id, doc, { kind: 'auto' });
      blockText(doc, 0).insert(4, ' Two.');
      const asked = contentOfYDoc(doc);
      const keeping = store.keep(id, doc, { kind: 'named', name: 'Asked' });
      // The engine applies writers' updates to the live document while a version is written.
      blockText(doc, 0).insert(9, ' Three.');
      const version = await keeping;
      expect(version).toMatchObject({ added: ' Two.'.length });
      expect((await store.read(id, version!.id))?.content).toEqual(asked);
      // The next version holds, and counts, what came meanwhile.
      const next = await store.keep(id, doc, { kind: 'auto' });
      expect(next).toMatchObject({ added: ' Three.'.length });
      expect((await store.read(id, next!.id))?.content).toEqual(contentOfYDoc(doc));
    });

    it('names as authors the accounts the server recorded for the clients that wrote', async () => {
      const { id, user, doc } = await liveDocument('Shared.');
      const { user: bob } = await testUserWithSession(db);
      const { user: eve } = await testUserWithSession(db);
      await store.keep(id, doc, { kind: 'auto' });
      const bobs = otherWriter(doc);
      blockText(bobs, 0).insert(0, 'Bob was here. ');
      sync(bobs, doc);
      await store.recordClients(id, bob.id, [bobs.clientID]);
      // Someone else claiming Bob's client later changes nothing: the first record stands.
      await store.recordClients(id, eve.id, [bobs.clientID]);
      const version = await store.keep(id, doc, { kind: 'auto', writers: [user.id] });
      expect(version?.authors.map((a) => a.id).sort()).toEqual([bob.id, user.id].sort());
      expect(version?.authors.map((a) => a.id)).not.toContain(eve.id);
    });

    it('thins automatic versions with age and keeps named ones and keyframes in use', async () => {
      // Long enough that each small change stays a diff on the first keyframe.
      const { id, doc } = await liveDocument(`Thin. ${'Words to keep. '.repeat(200)}`);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        blockText(doc, 0).insert(0, `${i} `);
        ids.push(
          (await store.keep(id, doc, {
            kind: i === 3 ? 'named' : 'auto',
            name: i === 3 ? 'Kept' : null,
          }))!.id,
        );
      }
      // Two days ago within one hour: only the newest of that hour, the named one, and the
      // keyframe the others are diffs of stay.
      await db.query(
        `UPDATE document_versions SET created_at = now() - interval '2 days' + (id % 8) * interval '1 second'
          WHERE document_id = $1`,
        [id],
      );
      const removed = await store.thin();
      const left = (await store.list(id, { limit: 20 })).versions.map((v) => v.id);
      expect(removed).toBeGreaterThan(0);
      expect(left).toContain(ids[0]); // the keyframe
      expect(left).toContain(ids[3]); // named
      expect(left).toContain(ids[7]); // the newest of its hour
      expect(left).not.toContain(ids[5]);
      for (const versionId of left) expect(await store.read(id, versionId)).not.toBeNull();
    });

    it('reads no version of another document, and lists the files a version names', async () => {
      const { id, doc } = await liveDocument('Mine.');
      const { id: otherId } = await liveDocument('Theirs.');
      const version = await store.keep(id, doc, { kind: 'auto' });
      expect(await store.read(otherId, version!.id)).toBeNull();
      expect(await store.rename(otherId, version!.id, 'Stolen', randomUUID())).toBeNull();
      const file = randomUUID();
      expect(
        fileIdsOf({
          type: 'doc',
          content: [{ type: 'image', attrs: { src: `/files/${file.toUpperCase()}` } }],
        }),
      ).toEqual([file]);
    });
  });
}
