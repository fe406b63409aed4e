import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord, DocumentSummary } from '../../common/api/documents.ts';
import type { RunningServer } from '../startServer.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const doc = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });

describeWithServer('the documents API', (context) => {
  let server: RunningServer;
  const getDb = () => context().db;
  let ada: TestClient;

  beforeAll(async () => {
    server = context().server;
    ada = (await signedInUser(server, getDb(), 'Ada')).client;
  });

  async function create(client: TestClient, title: string, content: object = doc('Hello')) {
    const res = await client.request('POST', '/api/documents', { json: { title, content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  async function read(client: TestClient, id: string) {
    const res = await client.request('GET', `/api/documents/${id}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }
  async function list(client: TestClient, query = '') {
    const res = await client.request('GET', `/api/documents${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { documents: DocumentSummary[] }).documents;
  }

  it('creates a document at version 1 and reads it back', async () => {
    const created = await create(ada, 'Notes', doc('First line', 'Second line'));
    expect(created).toMatchObject({ title: 'Notes', version: 1, deletedAt: null });
    const again = await read(ada, created.id);
    expect(again.content).toEqual(doc('First line', 'Second line'));
  });

  it('creates an empty document when no content is sent', async () => {
    const res = await ada.request('POST', '/api/documents', { json: {} });
    expect(res.status).toBe(201);
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document.title).toBe('');
    expect(document.content).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
  });

  it('creates under an id the client chose, and answers a repeated create with the stored copy', async () => {
    const id = randomUUID();
    const first = await ada.request('POST', '/api/documents?echo=0', {
      json: { id, title: 'Imported', content: doc('first send') },
    });
    expect(first.status).toBe(201);
    const created = ((await first.json()) as { document: Record<string, unknown> }).document;
    expect(created).toMatchObject({ id, title: 'Imported', version: 1, deletedAt: null });
    expect(created).not.toHaveProperty('content');

    // A retry whose first answer was lost: nothing is written, the stored document comes back.
    const retry = await ada.request('POST', '/api/documents', {
      json: { id, title: 'Other', content: doc('second send') },
    });
    expect(retry.status).toBe(200);
    const again = ((await retry.json()) as { document: DocumentRecord }).document;
    expect(again).toMatchObject({ id, title: 'Imported', version: 1, content: doc('first send') });
    expect((await list(ada)).filter((row) => row.id === id)).toHaveLength(1);
    expect(await read(ada, id)).toMatchObject({ version: 1, content: doc('first send') });
  });

  it("refuses an id another writer's document has, revealing nothing of it", async () => {
    const { client: bob } = await signedInUser(server, getDb(), 'Bob');
    const bobs = await create(bob, 'Secret plans', doc('for Bob only'));
    const res = await ada.request('POST', '/api/documents', {
      json: { id: bobs.id, title: 'Mine', content: doc('probe') },
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'invalid_request', message: 'This id is taken.' },
    });
    expect(text).not.toContain('Secret');
    expect(text).not.toContain('Bob');
    expect(await read(bob, bobs.id)).toMatchObject({ title: 'Secret plans', version: 1 });
    expect((await ada.request('GET', `/api/documents/${bobs.id}`)).status).toBe(404);
  });

  it('refuses an id that is not a UUID, and an unknown echo', async () => {
    for (const id of ['nope', '1234', "'; DROP TABLE documents; --", 42]) {
      const res = await ada.request('POST', '/api/documents', { json: { id, title: 'x' } });
      expect(res.status, String(id)).toBe(400);
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code, String(id)).toBe('invalid_request');
    }
    const echo = await ada.request('POST', '/api/documents?echo=no', { json: { title: 'x' } });
    expect(echo.status).toBe(400);
  });

  it('lists the most recently changed first, with an excerpt of the text', async () => {
    const { client } = await signedInUser(server, getDb(), 'Lister');
    const older = await create(client, 'Older', doc('alpha   beta', 'gamma'));
    const newer = await create(client, 'Newer');
    let rows = await list(client);
    expect(rows.map((row) => row.id)).toEqual([newer.id, older.id]);
    const save = await client.request('PATCH', `/api/documents/${older.id}`, {
      json: { baseVersion: 1, content: doc('changed text') },
    });
    expect(save.status).toBe(200);
    rows = await list(client);
    expect(rows.map((row) => row.id)).toEqual([older.id, newer.id]);
    expect(rows[0]!.excerpt).toBe('changed text');
  });

  it('saves on top of the version it was based on and counts versions up', async () => {
    const created = await create(ada, 'Draft');
    const res = await ada.request('PATCH', `/api/documents/${created.id}`, {
      json: { baseVersion: 1, title: 'Final', content: doc('Edited') },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: created.id, version: 2 });
    expect(await read(ada, created.id)).toMatchObject({
      title: 'Final',
      version: 2,
      content: doc('Edited'),
    });
  });

  it('answers a stale save with 409 and the server copy, and keeps the server copy', async () => {
    const created = await create(ada, 'Shared');
    const first = await ada.request('PATCH', `/api/documents/${created.id}`, {
      json: { baseVersion: 1, content: doc('from tab one') },
    });
    expect(first.status).toBe(200);
    const stale = await ada.request('PATCH', `/api/documents/${created.id}`, {
      json: { baseVersion: 1, content: doc('from tab two') },
    });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: { code: string; current: DocumentRecord } };
    expect(body.error.code).toBe('version_conflict');
    expect(body.error.current).toMatchObject({ version: 2, content: doc('from tab one') });
    expect((await read(ada, created.id)).content).toEqual(doc('from tab one'));
  });

  it('moves to the trash, restores, and deletes forever only from the trash', async () => {
    const created = await create(ada, 'Disposable');
    const early = await ada.request('DELETE', `/api/documents/${created.id}/permanent`);
    expect(early.status).toBe(400);
    expect((await ada.request('DELETE', `/api/documents/${created.id}`)).status).toBe(204);
    expect((await list(ada)).some((row) => row.id === created.id)).toBe(false);
    expect((await list(ada, '?trash=1')).map((row) => row.id)).toContain(created.id);
    const save = await ada.request('PATCH', `/api/documents/${created.id}`, {
      json: { baseVersion: 1, content: doc('into the trash') },
    });
    expect(save.status).toBe(404);
    const restore = await ada.request('POST', `/api/documents/${created.id}/restore`);
    expect(restore.status).toBe(200);
    expect((await list(ada)).map((row) => row.id)).toContain(created.id);
    expect((await ada.request('DELETE', `/api/documents/${created.id}`)).status).toBe(204);
    expect((await ada.request('DELETE', `/api/documents/${created.id}/permanent`)).status).toBe(
      204,
    );
    expect((await ada.request('GET', `/api/documents/${created.id}`)).status).toBe(404);
  });

  it('finds documents by words of the title or the text, as a prefix', async () => {
    const { client } = await signedInUser(server, getDb(), 'Searcher');
    const recipe = await create(client, 'Grandmother recipes', doc('Lemon tart with meringue'));
    await create(client, 'Travel', doc('Trains across Europe'));
    expect((await list(client, '?q=lemo')).map((row) => row.id)).toEqual([recipe.id]);
    expect((await list(client, '?q=GRANDMOTHER%20tart')).map((row) => row.id)).toEqual([recipe.id]);
    expect(await list(client, '?q=nothing-like-this')).toEqual([]);
  });

  it('treats hostile search text as words, and refuses an oversized one', async () => {
    for (const q of ["'&|!:*()<>", "x' OR 1=1 --", '\\', '🙂', '%00']) {
      const res = await ada.request('GET', `/api/documents?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    const long = await ada.request('GET', `/api/documents?q=${'a'.repeat(10_000)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('exports Markdown with a file name made from the title', async () => {
    const created = await create(ada, 'Q3 "plan": draft/2', {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Plan' }] },
        paragraph('Ship it.'),
      ],
    });
    const res = await ada.request('GET', `/api/documents/${created.id}/export.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Q3 plan draft 2.md')}`,
    );
    expect(await res.text()).toBe('# Plan\n\nShip it.\n');
  });

  it('rejects malformed JSON, an oversize body and an invalid document, leaving the copy as it was', async () => {
    const created = await create(ada, 'Precious', doc('keep me'));
    const path = `/api/documents/${created.id}`;
    const cases: [string, Parameters<TestClient['request']>[2], number, string][] = [
      [
        'malformed JSON',
        {
          body: '{"baseVersion": 1, "content": {',
          headers: { 'Content-Type': 'application/json' },
        },
        400,
        'invalid_request',
      ],
      [
        'no document at the top',
        { json: { baseVersion: 1, content: { type: 'paragraph' } } },
        400,
        'invalid_request',
      ],
      [
        'an unknown node',
        { json: { baseVersion: 1, content: { type: 'doc', content: [{ type: 'script' }] } } },
        422,
        'invalid_document',
      ],
      [
        'text at the top level',
        {
          json: {
            baseVersion: 1,
            content: { type: 'doc', content: [{ type: 'text', text: 'x' }] },
          },
        },
        422,
        'invalid_document',
      ],
      [
        'a heading of level 9',
        {
          json: {
            baseVersion: 1,
            content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 9 } }] },
          },
        },
        422,
        'invalid_document',
      ],
      [
        'an attribute holding an object',
        {
          json: {
            baseVersion: 1,
            content: {
              type: 'doc',
              content: [{ type: 'codeBlock', attrs: { language: { toString: 'x' } } }],
            },
          },
        },
        422,
        'invalid_document',
      ],
      [
        'a numbered list starting below zero',
        {
          json: {
            baseVersion: 1,
            content: {
              type: 'doc',
              content: [
                {
                  type: 'orderedList',
                  attrs: { start: -1 },
                  content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }],
                },
              ],
            },
          },
        },
        422,
        'invalid_document',
      ],
      [
        'a title of 201 characters',
        { json: { baseVersion: 1, title: 'x'.repeat(201) } },
        400,
        'invalid_request',
      ],
      [
        'a version that is not a number',
        { json: { baseVersion: '1', title: 'x' } },
        400,
        'invalid_request',
      ],
      [
        'an oversize document',
        { json: { baseVersion: 1, content: doc('x'.repeat(6 * 1024 * 1024)) } },
        413,
        'payload_too_large',
      ],
    ];
    for (const [name, options, status, code] of cases) {
      const res = await ada.request('PATCH', path, options);
      expect(res.status, name).toBe(status);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, name).toBe(code);
      expect(body.error.message.length, name).toBeGreaterThan(0);
    }
    expect(await read(ada, created.id)).toMatchObject({
      version: 1,
      title: 'Precious',
      content: doc('keep me'),
    });
  });

  /** `content` in `levels` quotes, as JSON text: JSON.stringify itself overflows at this depth. */
  const nestedQuotesJson = (levels: number, content = '{"type":"paragraph"}') =>
    '{"type":"blockquote","content":['.repeat(levels) + content + ']}'.repeat(levels);
  const sendText = (body: string) => ({ body, headers: { 'Content-Type': 'application/json' } });

  it('refuses a document nested 20,000 quotes deep with 422, on create and on save, saying why', async () => {
    const deep = `{"type":"doc","content":[${nestedQuotesJson(20_000)}]}`;
    const created = await create(ada, 'Shallow', doc('keep me'));
    const requests: [string, string, string][] = [
      ['POST', '/api/documents', `{"title":"Deep","content":${deep}}`],
      ['PATCH', `/api/documents/${created.id}`, `{"baseVersion":1,"content":${deep}}`],
    ];
    for (const [method, path, body] of requests) {
      const res = await ada.request(method, path, sendText(body));
      expect(res.status, method).toBe(422);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code, method).toBe('invalid_document');
      expect(error.message, method).toBe(
        'The document nests 20,001 levels deep in its block 1 from the top; ' +
          'Inkwell accepts at most 100 levels of blocks inside one another.',
      );
    }
    expect(await read(ada, created.id)).toMatchObject({ version: 1, content: doc('keep me') });
  });

  it('keeps a document nested exactly as deep as the limit', async () => {
    const content = `{"type":"doc","content":[${nestedQuotesJson(99)}]}`;
    const res = await ada.request('POST', '/api/documents', sendText(`{"content":${content}}`));
    expect(res.status).toBe(201);
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document.content).toEqual(JSON.parse(content));
  });

  it('takes javascript: links and hostile HTML out before storing', async () => {
    const created = await create(ada, 'Links', {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'click',
              marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
            },
          ],
        },
        { type: 'htmlBlock', attrs: { html: '<img src=x onerror="alert(1)">' } },
      ],
    });
    const stored = JSON.stringify((await read(ada, created.id)).content);
    expect(stored).not.toContain('javascript:');
    expect(stored).not.toContain('onerror');
    expect(stored).toContain('click');
  });

  it('refuses a NUL character in a title or the text with 400, on create and on save, keeping the copy', async () => {
    const created = await create(ada, 'Clean', doc('keep me'));
    const attempts: [string, string, object][] = [
      ['POST', '/api/documents', { title: 'a\u0000b' }],
      ['POST', '/api/documents', { title: 'ok', content: doc('a\u0000b') }],
      ['PATCH', `/api/documents/${created.id}`, { baseVersion: 1, title: 'x\u0000' }],
      ['PATCH', `/api/documents/${created.id}`, { baseVersion: 1, content: doc('\u0000') }],
    ];
    for (const [method, path, json] of attempts) {
      const res = await ada.request(method, path, { json });
      expect(res.status, `${method} ${JSON.stringify(json)}`).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toMatch(/NUL|U\+0000/);
    }
    const again = await read(ada, created.id);
    expect(again).toMatchObject({ title: 'Clean', version: 1 });
    expect(again.content).toEqual(doc('keep me'));
  });

  it('answers 404 for ids that are not ids', async () => {
    for (const id of [
      'nope',
      "1'; DROP TABLE documents; --",
      '00000000-0000-0000-0000-000000000000',
    ]) {
      const res = await ada.request('GET', `/api/documents/${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(404);
    }
  });
});

describe('fileNameOf', async () => {
  const { fileNameOf } = await import('./documents.ts');
  it('keeps readable titles and replaces what file systems refuse', () => {
    expect(fileNameOf('Plan')).toBe('Plan.md');
    expect(fileNameOf('a/b\\c:d*e?f"g<h>i|j')).toBe('a b c d e f g h i j.md');
    expect(fileNameOf('   ')).toBe('Untitled.md');
    expect(fileNameOf('..hidden')).toBe('hidden.md');
    expect(fileNameOf('line\nbreak')).toBe('line break.md');
  });
});
