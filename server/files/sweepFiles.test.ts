import { Readable } from 'node:stream';
import { beforeEach, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CONTENT_FIELD } from '../collab/yjsContent.ts';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testUser } from '../test/users.ts';
import { FileStore } from './fileStore.ts';
import { PostgresFileStorage } from './postgresFileStorage.ts';
import { VersionStore } from '../versions/versionStore.ts';
import { sweepFiles } from './sweepFiles.ts';

const TWO_HOURS_AGO = "now() - interval '2 hours'";

describeEachDatabase('sweeping files', (getDb: () => Database) => {
  let storage: PostgresFileStorage;
  let files: FileStore;
  let owner: string;

  beforeEach(async () => {
    storage = new PostgresFileStorage(getDb());
    files = new FileStore(getDb());
    owner = (await testUser(getDb())).id;
  });

  /** A file of `ownerId`, ready unless `pending`, uploaded `age` ago (an SQL expression). */
  async function file(options: { age?: string; pending?: boolean; ownerId?: string } = {}) {
    const id = await files.createPending(options.ownerId ?? owner, 'a.png', 'image/png');
    const bytes = await storage.put(id, Readable.from([Buffer.from('not really a png')]));
    if (!options.pending) {
      await files.markReady(id, { bytes, width: 1, height: 1, sha256: 'x' });
    }
    if (options.age)
      await getDb().query(`UPDATE files SET created_at = ${options.age} WHERE id = $1`, [id]);
    return id;
  }

  /** A document of `ownerId` showing the image `/files/<fileId>`, in the trash when `trashed`. */
  async function documentShowing(
    fileId: string,
    options: { trashed?: boolean; ownerId?: string } = {},
  ) {
    const content = {
      type: 'doc',
      content: [{ type: 'image', attrs: { src: `/files/${fileId}`, alt: null, title: null } }],
    };
    await getDb().query(
      `INSERT INTO documents (owner_id, title, content, deleted_at)
       VALUES ($1, 'With a picture', $2::jsonb, ${options.trashed ? 'now()' : 'NULL'})`,
      [options.ownerId ?? owner, JSON.stringify(content)],
    );
  }

  const exists = async (id: string) =>
    (await getDb().query('SELECT 1 FROM files WHERE id = $1', [id])).rows.length === 1;
  const chunks = async (id: string) =>
    (await getDb().query('SELECT 1 FROM file_chunks WHERE file_id = $1', [id])).rows.length;

  it('removes an old file that no document references, bytes and all', async () => {
    const orphan = await file({ age: TWO_HOURS_AGO });
    expect(await sweepFiles(getDb(), storage)).toBe(1);
    expect(await exists(orphan)).toBe(false);
    expect(await chunks(orphan)).toBe(0);
  });

  it('keeps a file that a live document, a trashed one or someone else’s references', async () => {
    const live = await file({ age: TWO_HOURS_AGO });
    await documentShowing(live);
    const trashed = await file({ age: TWO_HOURS_AGO });
    await documentShowing(trashed, { trashed: true });
    const elsewhere = await file({ age: TWO_HOURS_AGO });
    await documentShowing(elsewhere, { ownerId: (await testUser(getDb(), 'Bo')).id });
    expect(await sweepFiles(getDb(), storage)).toBe(0);
    for (const id of [live, trashed, elsewhere]) {
      expect(await exists(id)).toBe(true);
      expect(await chunks(id)).toBe(1);
    }
  });

  it('keeps a file uploaded in the last hour, referenced or not', async () => {
    const fresh = await file({ age: "now() - interval '59 minutes'" });
    expect(await sweepFiles(getDb(), storage)).toBe(0);
    expect(await exists(fresh)).toBe(true);
  });

  it('removes a pending upload that a crash left behind, once it is an hour old', async () => {
    const halfDone = await file({ pending: true, age: TWO_HOURS_AGO });
    const inProgress = await file({ pending: true });
    expect(await sweepFiles(getDb(), storage)).toBe(1);
    expect(await exists(halfDone)).toBe(false);
    expect(await chunks(halfDone)).toBe(0);
    expect(await exists(inProgress)).toBe(true);
  });

  it('finds a reference written as an absolute address, as a Markdown import leaves it', async () => {
    const id = await file({ age: TWO_HOURS_AGO });
    await getDb().query(
      `INSERT INTO documents (owner_id, title, content) VALUES ($1, 't', $2::jsonb)`,
      [
        owner,
        JSON.stringify({
          type: 'doc',
          content: [
            {
              type: 'image',
              attrs: { src: `https://write.example.com/files/${id.toUpperCase()}` },
            },
          ],
        }),
      ],
    );
    expect(await sweepFiles(getDb(), storage)).toBe(0);
    expect(await exists(id)).toBe(true);
  });

  it('keeps a file that only a kept version still shows, until the version goes', async () => {
    const id = await file({ age: TWO_HOURS_AGO });
    await documentShowing(id);
    const { rows } = await getDb().query<{ id: string }>(
      'SELECT id FROM documents WHERE owner_id = $1 ORDER BY created_at DESC LIMIT 1',
      [owner],
    );
    const documentId = rows[0]!.id;
    const doc = new Y.Doc();
    const image = new Y.XmlElement('image');
    image.setAttribute('src', `/files/${id}`);
    doc.getXmlFragment(CONTENT_FIELD).insert(0, [image]);
    await new VersionStore(getDb()).keep(documentId, doc, { kind: 'auto' });
    // The document no longer shows the image; the version does.
    await getDb().query(
      `UPDATE documents SET content = '{"type":"doc","content":[]}'::jsonb WHERE id = $1`,
      [documentId],
    );
    expect(await sweepFiles(getDb(), storage)).toBe(0);
    expect(await exists(id)).toBe(true);
    await getDb().query('DELETE FROM document_versions WHERE document_id = $1', [documentId]);
    expect(await sweepFiles(getDb(), storage)).toBe(1);
    expect(await exists(id)).toBe(false);
  });
});
