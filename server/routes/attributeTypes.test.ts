import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import type { VaultImportResponse, VaultMarkdownResponse } from '../../common/api/vault.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';

const SCRIPT = ['javascript:alert(1)'];
const text = (value: string, marks?: unknown[]) => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });
const doc = (...content: unknown[]) => ({ type: 'doc', content });
const item = (type: string, attrs: unknown) => ({
  type,
  attrs,
  content: [paragraph(text('task'))],
});

/** Documents with one attribute of the wrong type, and the attribute the refusal names. */
const MISTYPED: [string, object][] = [
  ['link.href', doc(paragraph(text('click', [{ type: 'link', attrs: { href: SCRIPT } }])))],
  ['link.title', doc(paragraph(text('x', [{ type: 'link', attrs: { href: '/a', title: {} } }])))],
  ['image.src', doc({ type: 'image', attrs: { src: SCRIPT } })],
  ['inlineImage.alt', doc(paragraph({ type: 'inlineImage', attrs: { src: '/a.png', alt: 7 } }))],
  ['youtube.src', doc({ type: 'youtube', attrs: { src: SCRIPT } })],
  ['heading.level', doc({ type: 'heading', attrs: { level: '2' }, content: [text('Title')] })],
  ['codeBlock.language', doc({ type: 'codeBlock', attrs: { language: { name: 'ts' } } })],
  ['taskItem.checked', doc({ type: 'taskList', content: [item('taskItem', { checked: 'true' })] })],
  [
    'tableCell.colspan',
    doc({
      type: 'table',
      content: [{ type: 'tableRow', content: [item('tableCell', { colspan: 'two' })] }],
    }),
  ],
  [
    'tableCell.colspan',
    doc({
      type: 'table',
      content: [{ type: 'tableRow', content: [item('tableCell', { colspan: 1_000_000_000 })] }],
    }),
  ],
  ['wikilink.embed', doc(paragraph({ type: 'wikilink', attrs: { target: 'a', embed: 'yes' } }))],
];

describeWithServer('the type of every attribute over HTTP', (context) => {
  let ada: TestClient;

  beforeAll(async () => {
    ada = (await signedInUser(context().server, context().db, 'Ada')).client;
  });

  async function expectRefused(res: Response, attribute: string) {
    expect(res.status, attribute).toBe(422);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code, attribute).toBe('invalid_document');
    expect(error.message, attribute).toContain(`${attribute} must be`);
  }

  async function create(content: object): Promise<DocumentRecord> {
    const res = await ada.request('POST', '/api/documents', { json: { title: 'Kept', content } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { document: DocumentRecord }).document;
  }

  it('refuses a create or a save with an attribute of the wrong type, keeping the copy', async () => {
    const kept = await create(doc(paragraph(text('keep me'))));
    for (const [attribute, content] of MISTYPED) {
      await expectRefused(
        await ada.request('POST', '/api/documents', { json: { title: 'x', content } }),
        attribute,
      );
      await expectRefused(
        await ada.request('PATCH', `/api/documents/${kept.id}`, {
          json: { baseVersion: 1, content },
        }),
        attribute,
      );
    }
    const res = await ada.request('GET', `/api/documents/${kept.id}`);
    const { document } = (await res.json()) as { document: DocumentRecord };
    expect(document).toMatchObject({ version: 1, content: doc(paragraph(text('keep me'))) });
  });

  it('refuses such a note of a vault batch, and stores the others', async () => {
    const good = {
      id: randomUUID(),
      title: 'Good',
      folder: '',
      content: doc(paragraph(text('ok'))),
    };
    const bad = MISTYPED.map(([, content], index) => ({
      id: randomUUID(),
      title: `Bad ${index}`,
      folder: '',
      content,
    }));
    const res = await ada.request('POST', '/api/vault/documents', {
      json: { documents: [good, ...bad] },
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as VaultImportResponse;
    expect(results[0]).toEqual({ id: good.id, outcome: 'created' });
    results.slice(1).forEach((result, index) => {
      const attribute = MISTYPED[index]![0];
      expect(result, attribute).toMatchObject({ outcome: 'refused' });
      expect(result.outcome === 'refused' && result.message, attribute).toContain(
        `${attribute} must be`,
      );
    });
  });

  it('exports a document stored with such attributes before the rule, repaired, not with a 500', async () => {
    const stored = await create(doc(paragraph(text('placeholder'))));
    const old = doc(
      { type: 'heading', attrs: { level: 'x' }, content: [text('Old')] },
      paragraph(text('click', [{ type: 'link', attrs: { href: SCRIPT } }]), text(' and '), {
        type: 'inlineImage',
        attrs: { src: SCRIPT, alt: 'badge' },
      }),
      { type: 'codeBlock', attrs: { language: { name: 'ts' } }, content: [text('x = 1')] },
    );
    await context().db.query('UPDATE documents SET content = $1 WHERE id = $2', [
      JSON.stringify(old),
      stored.id,
    ]);
    const markdown = '# Old\n\n[click](<>) and badge\n\n```\nx = 1\n```\n';
    const res = await ada.request('GET', `/api/documents/${stored.id}/export.md`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(markdown);
    const vault = await ada.request('POST', '/api/vault/markdown', { json: { ids: [stored.id] } });
    expect(vault.status).toBe(200);
    const { files } = (await vault.json()) as VaultMarkdownResponse;
    expect(files).toEqual([{ id: stored.id, markdown }]);
  });
});
