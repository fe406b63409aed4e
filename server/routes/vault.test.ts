import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord, DocumentSummary } from '../../common/api/documents.ts';
import type {
  VaultImportResponse,
  VaultListResponse,
  VaultMarkdownResponse,
} from '../../common/api/vault.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const doc = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });
const note = (title: string, folder: string, text = title) => ({
  id: randomUUID(),
  title,
  folder,
  content: doc(text),
});

const BAD_FOLDERS: [string, RegExp][] = [
  ['../../etc', /“\.\.”/],
  ['/absolute', /cannot start with “\/”/],
  ['a//b', /empty folder name/],
  ['trailing/', /empty folder name/],
  ['a\\b', /not “\\”/],
  ['line\nbreak', /control characters/],
  // Refused by the body check on create (no text holds U+0000), by the folder rule on import.
  ['nul\u0000', /control characters|a NUL character \(U\+0000\)/],
  [Array(33).fill('d').join('/'), /nest at most 32/],
  ['x'.repeat(1001), /at most 1000 characters/],
];

describeWithServer('the folder field and the vault API', (context) => {
  let ada: TestClient;

  beforeAll(async () => {
    ada = (await signedInUser(context().server, context().db, 'Ada')).client;
  });

  async function importBatch(client: TestClient, documents: unknown[]) {
    const res = await client.request('POST', '/api/vault/documents', { json: { documents } });
    expect(res.status).toBe(200);
    return ((await res.json()) as VaultImportResponse).results;
  }
  async function listVault(client: TestClient, folder?: string) {
    const query = folder === undefined ? '' : `?folder=${encodeURIComponent(folder)}`;
    const res = await client.request('GET', `/api/vault/documents${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as VaultListResponse).documents;
  }

  it('creates a document in a folder and lists it with its folder', async () => {
    const res = await ada.request('POST', '/api/documents', {
      json: { title: 'Plan', folder: 'Projects/2026', content: doc('go') },
    });
    expect(res.status).toBe(201);
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document.folder).toBe('Projects/2026');
    const listed = await ada.request('GET', '/api/documents');
    const { documents } = (await listed.json()) as { documents: DocumentSummary[] };
    expect(documents.find((row) => row.id === document.id)?.folder).toBe('Projects/2026');
  });

  it('puts a document created without a folder at the top', async () => {
    const res = await ada.request('POST', '/api/documents', { json: { title: 'Loose' } });
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document.folder).toBe('');
  });

  it('refuses every malformed folder with 400 and the reason, on create and on import', async () => {
    for (const [folder, reason] of BAD_FOLDERS) {
      const res = await ada.request('POST', '/api/documents', { json: { title: 'x', folder } });
      expect(res.status, JSON.stringify(folder)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toMatch(reason);
      const batch = await ada.request('POST', '/api/vault/documents', {
        json: { documents: [note('x', folder)] },
      });
      expect(batch.status, JSON.stringify(folder)).toBe(400);
    }
    const wrongType = await ada.request('POST', '/api/documents', { json: { folder: 42 } });
    expect(wrongType.status).toBe(400);
  });

  it('keeps the same rules in the database, for writers other than the API', async () => {
    const { client: max } = await signedInUser(context().server, context().db, 'Max');
    const row = note('Row', 'ok');
    await importBatch(max, [row]);
    // PostgreSQL text cannot hold a NUL at all, so that one never gets as far as the check.
    for (const [folder] of BAD_FOLDERS.filter(([f]) => !f.includes('\u0000'))) {
      await expect(
        context().db.query('UPDATE documents SET folder = $2 WHERE id = $1', [row.id, folder]),
        JSON.stringify(folder),
      ).rejects.toThrow(/documents_folder_shape/);
    }
  });

  it('refuses a malformed folder in an export listing with 400', async () => {
    const res = await ada.request('GET', '/api/vault/documents?folder=..%2Fx');
    expect(res.status).toBe(400);
  });

  it('imports a batch, answers a repeated batch as existing, and refuses one bad note alone', async () => {
    const { client: eve } = await signedInUser(context().server, context().db, 'Eve');
    const good = [note('A', 'Vault'), note('B', 'Vault/Sub')];
    const invalid = {
      ...note('Broken', 'Vault'),
      content: { type: 'doc', content: [{ type: 'nope' }] },
    };
    const results = await importBatch(eve, [...good, invalid]);
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'refused']);
    expect(results[2]!.message).toBeTruthy();
    const again = await importBatch(eve, good);
    expect(again.map((r) => r.outcome)).toEqual(['existing', 'existing']);
    const listed = await listVault(eve);
    expect(listed.map((d) => [d.folder, d.title])).toEqual([
      ['Vault', 'A'],
      ['Vault/Sub', 'B'],
    ]);
  });

  it('refuses a note whose title or text PostgreSQL cannot store, importing the rest', async () => {
    const { client: ned } = await signedInUser(context().server, context().db, 'Ned');
    const results = await importBatch(ned, [
      note('ok', 'x'),
      note('nul\u0000title', 'x'),
      note('nul text', 'x', 'a\u0000b'),
      note('also ok', 'x'),
      note('backslash', 'x', 'a literal \\u0000 is text'),
    ]);
    expect(results.map((r) => r.outcome)).toEqual([
      'created',
      'refused',
      'refused',
      'created',
      'created',
    ]);
    expect(results[1]!.message).toMatch(/NUL/);
  });

  it('refuses a batch with the same id twice, or with too many documents', async () => {
    const one = note('A', '');
    const twice = await ada.request('POST', '/api/vault/documents', {
      json: { documents: [one, one] },
    });
    expect(twice.status).toBe(400);
    const many = Array.from({ length: 201 }, () => note('n', ''));
    const tooMany = await ada.request('POST', '/api/vault/documents', {
      json: { documents: many },
    });
    expect(tooMany.status).toBe(400);
  });

  it("refuses an id another writer's document has, as that note's outcome", async () => {
    const { client: bob } = await signedInUser(context().server, context().db, 'Bob');
    const bobs = note('Secret', 'Private');
    await importBatch(bob, [bobs]);
    const results = await importBatch(ada, [{ ...bobs, title: 'Mine' }]);
    expect(results[0]).toMatchObject({ outcome: 'refused', message: 'This id is taken.' });
  });

  it('lists one folder and below, not a sibling whose name starts the same, nor the trash', async () => {
    const { client: kim } = await signedInUser(context().server, context().db, 'Kim');
    const trashed = note('Gone', 'Work');
    await importBatch(kim, [
      note('In', 'Work'),
      note('Deeper', 'Work/Old'),
      note('Sibling', 'Workshop'),
      note('Percent', 'W%'),
      trashed,
    ]);
    expect((await kim.request('DELETE', `/api/documents/${trashed.id}`)).status).toBe(204);
    expect((await listVault(kim, 'Work')).map((d) => d.title)).toEqual(['In', 'Deeper']);
    expect((await listVault(kim, 'W%')).map((d) => d.title)).toEqual(['Percent']);
    expect(await listVault(kim, '')).toHaveLength(4);
  });

  it('leaves documents past about 2 MB of Markdown for a later request', async () => {
    const { client: ora } = await signedInUser(context().server, context().db, 'Ora');
    const big = (n: number) => note(`big ${n}`, 'x', `${n} ${'word '.repeat(220_000)}`);
    const notes = [big(1), big(2), big(3)];
    for (const one of notes) await importBatch(ora, [one]);
    const ids = notes.map((n) => n.id);
    const res = await ora.request('POST', '/api/vault/markdown', { json: { ids } });
    const first = (await res.json()) as VaultMarkdownResponse;
    expect(first.files).toHaveLength(2);
    expect(first.later).toHaveLength(1);
    const again = await ora.request('POST', '/api/vault/markdown', { json: { ids: first.later } });
    const second = (await again.json()) as VaultMarkdownResponse;
    expect(second).toMatchObject({ files: [{ id: first.later[0] }], later: [] });
    expect(new Set([...first.files, ...second.files].map((f) => f.id))).toEqual(new Set(ids));
  });

  it('names the images a note’s embeds show beside its Markdown, which keeps the embeds as written', async () => {
    const { client: eve } = await signedInUser(context().server, context().db, 'Eve');
    const src = '/files/0b0e8f0e-52f4-4f2a-9d35-6a3f4c1b2d3e';
    const embed = (target: string, withSrc: boolean) => ({
      type: 'wikilink',
      attrs: { target, fragment: '', alias: null, embed: true, ...(withSrc ? { src } : {}) },
    });
    const shown = {
      id: randomUUID(),
      title: 'Shown',
      folder: '',
      content: {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              embed('diagram.png', true),
              embed('diagram.png', true),
              embed('x.pdf', false),
            ],
          },
        ],
      },
    };
    const plain = note('Plain', '');
    await importBatch(eve, [shown, plain]);
    const res = await eve.request('POST', '/api/vault/markdown', {
      json: { ids: [shown.id, plain.id] },
    });
    const { files } = (await res.json()) as VaultMarkdownResponse;
    const byId = new Map(files.map((file) => [file.id, file]));
    expect(byId.get(shown.id)).toEqual({
      id: shown.id,
      markdown: '![[diagram.png]]![[diagram.png]]![[x.pdf]]\n',
      embeds: [{ target: 'diagram.png', src }],
    });
    expect(byId.get(plain.id)).not.toHaveProperty('embeds');
  });

  it("returns the Markdown of one's own documents only", async () => {
    const { client: lea } = await signedInUser(context().server, context().db, 'Lea');
    const mine = note('Mine', 'x', 'Hello *there*');
    await importBatch(lea, [mine]);
    const theirs = note('Theirs', '');
    await importBatch(ada, [theirs]);
    const res = await lea.request('POST', '/api/vault/markdown', {
      json: { ids: [mine.id, theirs.id, randomUUID()] },
    });
    expect(res.status).toBe(200);
    const { files, later } = (await res.json()) as VaultMarkdownResponse;
    expect(later).toEqual([]);
    expect(files).toEqual([{ id: mine.id, markdown: 'Hello \\*there\\*\n' }]);
    const bad = await lea.request('POST', '/api/vault/markdown', { json: { ids: ['../x'] } });
    expect(bad.status).toBe(400);
  });
});
