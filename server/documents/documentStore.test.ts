import { expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testUser } from '../test/users.ts';
import { DocumentStore } from './documentStore.ts';
import { validateContent } from './validateContent.ts';

const doc = (text: string) =>
  validateContent({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
  });

const newOwner = async (db: Database) => (await testUser(db)).id;

describeEachDatabase('DocumentStore.index', (getDb) => {
  it('sweeps in the background only documents left alone for 30 s', async () => {
    const db = getDb();
    const store = new DocumentStore(db);
    const owner = await newOwner(db);
    const { id } = await store.create(owner, 'Notes', doc('first words'));
    const saved = await store.update(owner, id, { baseVersion: 1, content: doc('zebra crossing') });
    expect(saved.outcome).toBe('saved');
    const indexedVersion = async () =>
      (
        await db.query<{ v: number }>('SELECT indexed_version AS v FROM documents WHERE id = $1', [
          id,
        ])
      ).rows[0]!.v;

    // The background sweep passes over a document saved a moment ago…
    await store.index();
    expect(await indexedVersion()).toBe(1);
    // …and takes it once it has been left alone for half a minute.
    await db.query(
      `UPDATE documents SET updated_at = now() - interval '31 seconds' WHERE id = $1`,
      [id],
    );
    await store.index();
    expect(await indexedVersion()).toBe(2);
  });

  it('indexes an owner’s latest words before listing or searching them, however recent', async () => {
    const db = getDb();
    const store = new DocumentStore(db);
    const owner = await newOwner(db);
    const { id } = await store.create(owner, 'Notes', doc('first words'));
    await store.update(owner, id, { baseVersion: 1, content: doc('zebra crossing') });
    const found = await store.list(owner, { trash: false, search: 'zebra' });
    expect(found.map((summary) => summary.id)).toEqual([id]);
    const [listed] = await store.list(owner, { trash: false });
    expect(listed?.excerpt).toBe('zebra crossing');
  });
});
