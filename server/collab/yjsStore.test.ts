import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Database } from '../db/database.ts';
import { DocumentStore } from '../documents/documentStore.ts';
import { validateContent } from '../documents/validateContent.ts';
import { DATABASE_KINDS, openTestDatabase, skipReason } from '../test/databases.ts';
import { testUserWithSession } from '../test/users.ts';
import { contentOfYDoc, CONTENT_FIELD } from './yjsContent.ts';
import { YjsStore } from './yjsStore.ts';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
/** About 1 MB of JSON: 5,000 paragraphs. */
const bigDocument = {
  type: 'doc' as const,
  content: Array.from({ length: 5_000 }, (_, i) =>
    paragraph(`Paragraph ${i} ${'lorem ipsum dolor sit amet '.repeat(7)}`),
  ),
};

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(`Yjs state in the database on ${kind}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await openTestDatabase(kind);
    });
    afterAll(() => db.close());

    it('converts once, loads from snapshot and log, and compacts the log away', async () => {
      const { user } = await testUserWithSession(db);
      const documents = new DocumentStore(db);
      const { id } = await documents.create(user.id, 'Big', validateContent(bigDocument));
      const store = new YjsStore(db);
      const [, json] = await timed(() => documents.get(user.id, id));
      const [first, convert] = await timed(() => store.load(id));
      expect(contentOfYDoc(first!.doc).content).toHaveLength(5_000);
      const [again, snapshotOnly] = await timed(() => store.load(id));
      // Converted once: the second load reads the stored snapshot, identical.
      expect(Buffer.from(again!.snapshot).equals(Buffer.from(first!.snapshot))).toBe(true);

      // 500 keystrokes in the log, as a document has before its compaction.
      const editor = again!.doc;
      const text = (editor.getXmlFragment(CONTENT_FIELD).get(2_500) as Y.XmlElement).get(
        0,
      ) as Y.XmlText;
      let appended = 0;
      for (let i = 0; i < 500; i += 1) {
        const before = Y.encodeStateVector(editor);
        text.insert(0, 'x');
        const update = Y.encodeStateAsUpdate(editor, before);
        appended += update.byteLength;
        await store.append(id, update);
      }
      const [withLog, loadWithLog] = await timed(() => store.load(id));
      expect(withLog!.updateIds).toHaveLength(500);
      // The state's size as the size limit counts it: the snapshot's and the updates' bytes.
      expect(again!.bytes).toBe(again!.snapshot.byteLength);
      expect(withLog!.bytes).toBe(withLog!.snapshot.byteLength + appended);
      // Into a given Y.Doc (the live server's own), the same state, in that very doc.
      const target = new Y.Doc();
      const into = await store.load(id, { into: target });
      expect(into!.doc).toBe(target);
      expect(Buffer.from(Y.encodeStateAsUpdate(target))).toEqual(
        Buffer.from(Y.encodeStateAsUpdate(withLog!.doc)),
      );
      expect(text.toString()).toBe(
        (withLog!.doc.getXmlFragment(CONTENT_FIELD).get(2_500) as Y.XmlElement).get(0).toString(),
      );
      const [, compaction] = await timed(() =>
        store.compact(id, {
          state: Y.encodeStateAsUpdate(withLog!.doc),
          previous: withLog!.snapshot,
          updateIds: withLog!.updateIds,
          content: contentOfYDoc(withLog!.doc),
        }),
      );
      const [compacted, loadCompacted] = await timed(() => store.load(id));
      expect(compacted!.updateIds).toEqual([]);
      expect(contentOfYDoc(compacted!.doc)).toEqual(contentOfYDoc(withLog!.doc));
      const stored = await documents.get(user.id, id);
      expect(stored!.content).toEqual(contentOfYDoc(withLog!.doc));
      console.info(
        `${kind}, 1 MB document: JSON read ${json.toFixed(0)} ms; first open (convert) ${convert.toFixed(0)} ms; ` +
          `load from snapshot ${snapshotOnly.toFixed(0)} ms; with 500 logged updates ${loadWithLog.toFixed(0)} ms; ` +
          `compaction ${compaction.toFixed(0)} ms; load after it ${loadCompacted.toFixed(0)} ms`,
      );
    }, 60_000);

    it('converts a document opened by two instances at once only once', async () => {
      const { user } = await testUserWithSession(db);
      const documents = new DocumentStore(db);
      const { id } = await documents.create(
        user.id,
        'Opened twice',
        validateContent({ type: 'doc', content: [paragraph('only once')] }),
      );
      const [a, b] = await Promise.all([new YjsStore(db).load(id), new YjsStore(db).load(id)]);
      expect(Buffer.from(a!.snapshot).equals(Buffer.from(b!.snapshot))).toBe(true);
      // Had each converted on its own, merging the two would hold the paragraph twice.
      const merged = new Y.Doc();
      Y.applyUpdate(merged, Y.encodeStateAsUpdate(a!.doc));
      Y.applyUpdate(merged, Y.encodeStateAsUpdate(b!.doc));
      expect(contentOfYDoc(merged).content).toHaveLength(1);
    });

    it('merges a snapshot another instance wrote meanwhile instead of replacing it', async () => {
      const { user } = await testUserWithSession(db);
      const documents = new DocumentStore(db);
      const { id } = await documents.create(
        user.id,
        'Two instances',
        validateContent({ type: 'doc', content: [paragraph('start')] }),
      );
      const store = new YjsStore(db);
      const a = (await store.load(id))!;
      const b = (await store.load(id))!;
      const add = (doc: Y.Doc, words: string) => {
        const element = new Y.XmlElement('paragraph');
        element.insert(0, [new Y.XmlText(words)]);
        doc.getXmlFragment(CONTENT_FIELD).push([element]);
      };
      add(a.doc, 'from a');
      add(b.doc, 'from b');
      await store.compact(id, {
        state: Y.encodeStateAsUpdate(b.doc),
        previous: b.snapshot,
        updateIds: [],
        content: null,
      });
      await store.compact(id, {
        state: Y.encodeStateAsUpdate(a.doc),
        previous: a.snapshot,
        updateIds: [],
        content: null,
      });
      const merged = (await store.load(id))!;
      const texts = merged.doc
        .getXmlFragment(CONTENT_FIELD)
        .toArray()
        .map((block) => (block as Y.XmlElement).get(0).toString());
      expect(texts).toEqual(expect.arrayContaining(['start', 'from a', 'from b']));
    });
  });
}
