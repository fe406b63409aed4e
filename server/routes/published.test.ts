import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, expect, it } from 'vitest';
import type { DocumentContent, DocumentRecord } from '../../common/api/documents.ts';
import { uploadedFileSchema, type UploadedFile } from '../../common/api/files.ts';
import { filterStyle } from '../../common/editor/html/style.ts';
import { isAllowedLinkUrl } from '../../common/editor/url.ts';
import {
  appendParagraph,
  connectClient,
  cookieOf,
  until,
  type CollabClient,
} from '../collab/test/collabClient.ts';
import type { Database } from '../db/database.ts';
import { isPageImageUrl } from '../published/pageUrls.ts';
import { ShareTokens } from '../sharing/tokens.ts';
import { pngImage } from '../test/images.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import type { PageContentResponse } from './published.ts';

/** The part of jsdom used here (it ships no types). */
interface Jsdom {
  JSDOM: new (html: string) => { window: { document: Document } };
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as Jsdom;

const fixtures = (
  JSON.parse(
    readFileSync(new URL('../../test-corpus/xss/dompurify-fixtures.json', import.meta.url), 'utf8'),
  ) as { cases: { payload: string }[] }
).cases.map((fixture) => fixture.payload);

/** Raw HTML that tries to leave its node: tags left open, end tags of the page's elements. */
const ESCAPES = [
  '</div></article></main></body></html><p style="position:fixed;top:0">outside</p>',
  '<div><section>left open',
  '<b>bold that would run on',
  '<a href="https://example.com/">a link left open',
  '<table><tr><td>a cell left open',
  '<ul><li>an item left open',
  '<!-- a comment to the end',
  '<details><summary>open',
];

/** The document's last block in the hostile test: the article must end with it, whole. */
const LAST = 'The last paragraph.';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const doc = (...content: object[]) => ({ type: 'doc', content }) as DocumentContent;

const open: CollabClient[] = [];
afterEach(() => {
  for (const client of open.splice(0)) client.destroy();
});

async function createDocument(
  client: TestClient,
  title: string,
  content: DocumentContent,
): Promise<DocumentRecord> {
  const res = await client.request('POST', '/api/documents', { json: { title, content } });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { document: DocumentRecord }).document;
}

/** Publishes a document as the publishing routes do (server/sharing/tokens.ts); its token. */
async function publish(
  db: Database,
  documentId: string,
  options: { indexable?: boolean; expiresAt?: Date | null } = {},
): Promise<string> {
  const { nonce, token, hash } = (await ShareTokens.load(db)).issue('page');
  await db.query(
    `INSERT INTO published_pages (document_id, nonce, token_hash, indexable, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [documentId, nonce, hash, options.indexable ?? false, options.expiresAt ?? null],
  );
  return token;
}

async function upload(client: TestClient): Promise<UploadedFile> {
  const res = await client.request('POST', '/api/files?name=picture.png', {
    body: (await pngImage(8, 8)) as unknown as string,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  expect(res.status).toBe(201);
  return uploadedFileSchema.parse(await res.json());
}

/** What the unsafe parts of a published page are, in words; empty when it is safe. */
function unsafeParts(html: string): string[] {
  const { document } = new JSDOM(html).window;
  const problems: string[] = [];
  const scripts = [...document.querySelectorAll('script')].map((s) => s.outerHTML);
  if (scripts.join() !== '<script src="/p/live.js" defer=""></script>') problems.push(...scripts);
  for (const element of document.querySelectorAll(
    'iframe, object, embed, style, base, form, frame, template, svg, annotation-xml, body meta, body link',
  )) {
    problems.push(`<${element.localName}>`);
  }
  for (const element of document.querySelectorAll('*')) {
    for (const { name, value } of element.attributes) {
      const where = `${element.localName}[${name}=${JSON.stringify(value)}]`;
      if (name.startsWith('on') || name === 'srcdoc') problems.push(where);
      if (
        name === 'style' &&
        (/position/i.test(value) || !filterStyle(element.localName, value).unchanged)
      ) {
        problems.push(where);
      }
      if (
        ['href', 'action', 'formaction', 'xlink:href', 'cite'].includes(name) &&
        !isAllowedLinkUrl(value)
      ) {
        problems.push(where);
      }
      const loads = element.localName !== 'script' && element.localName !== 'link';
      if (loads && ['src', 'poster', 'background'].includes(name) && !isPageImageUrl(value)) {
        problems.push(where);
      }
    }
  }
  // Nothing of the document's is drawn outside its column: the page holds the title, the notice
  // and the article, and everything else is inside the article.
  const outside = [...document.body.querySelectorAll(':scope > *, :scope > main > *')]
    .map((element) => `${element.localName}.${element.className}`)
    .join(' ');
  if (outside !== 'main.page h1.page-title p.page-notice article.page-content') {
    problems.push(`outside the article: ${outside}`);
  }
  const last = document.querySelector('article.page-content > :last-child');
  if (last?.outerHTML !== `<p>${LAST}</p>`) {
    problems.push(`the article ends in ${last?.outerHTML.slice(0, 200)}`);
  }
  return problems;
}

describeWithServer('the published page', (context) => {
  const page = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, context().server.url), { headers, redirect: 'manual' });

  it('shows the title and the content as HTML to anyone, under a strict policy', async () => {
    const { server, db } = context();
    const { client, user } = await signedInUser(server, db, 'Grace');
    const document = await createDocument(
      client,
      'Field notes',
      doc(paragraph('Observed three herons.'), {
        type: 'heading',
        attrs: { level: 2 },
        content: [{ type: 'text', text: 'Later' }],
      }),
    );
    const token = await publish(db, document.id);

    const res = await page(`/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<title>Field notes</title>');
    expect(html).toContain('<h1 class="page-title">Field notes</h1>');
    expect(html).toContain('<p>Observed three herons.</p><h2>Later</h2>');
    const policy = new Map(
      (res.headers.get('Content-Security-Policy') ?? '')
        .split('; ')
        .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]),
    );
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.has('frame-src')).toBe(false);
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('Set-Cookie')).toBeNull();
    // No editor bundle and nothing of the account.
    expect(html).not.toContain('/assets/');
    expect(html).not.toContain(user.email);
    expect(html).not.toContain('Grace');
    const script = await page('/p/live.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect((await page('/p/page.css')).headers.get('Content-Type')).toBe('text/css; charset=utf-8');
  });

  it('asks search engines not to index it unless the owner allows it', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const hidden = await publish(db, (await createDocument(client, 'A', doc(paragraph('a')))).id);
    const listed = await publish(db, (await createDocument(client, 'B', doc(paragraph('b')))).id, {
      indexable: true,
    });

    const hiddenRes = await page(`/p/${hidden}`);
    expect(hiddenRes.headers.get('X-Robots-Tag')).toBe('noindex');
    expect(await hiddenRes.text()).toContain('<meta name="robots" content="noindex">');
    const listedRes = await page(`/p/${listed}`);
    expect(listedRes.headers.get('X-Robots-Tag')).toBeNull();
    expect(await listedRes.text()).not.toContain('name="robots"');
  });

  it('stops at its expiry', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const hour = 60 * 60 * 1000;
    const expired = await publish(db, (await createDocument(client, 'Old', doc())).id, {
      expiresAt: new Date(Date.now() - hour),
    });
    const current = await publish(db, (await createDocument(client, 'New', doc())).id, {
      expiresAt: new Date(Date.now() + hour),
    });

    expect((await page(`/p/${expired}`)).status).toBe(404);
    expect((await page(`/p/${expired}/content`)).status).toBe(404);
    expect((await page(`/p/${current}`)).status).toBe(200);
  });

  it('is gone once unpublished, trashed or deleted', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const documents = await Promise.all(
      ['Unpublished', 'Trashed', 'Deleted'].map((title) => createDocument(client, title, doc())),
    );
    const [unpublished, trashed, deleted] = await Promise.all(
      documents.map((document) => publish(db, document.id)),
    );
    for (const token of [unpublished, trashed, deleted]) {
      expect((await page(`/p/${token}`)).status).toBe(200);
    }

    await db.query('DELETE FROM published_pages WHERE document_id = $1', [documents[0]!.id]);
    expect((await client.request('DELETE', `/api/documents/${documents[1]!.id}`)).status).toBe(204);
    await client.request('DELETE', `/api/documents/${documents[2]!.id}`);
    const purged = await client.request('DELETE', `/api/documents/${documents[2]!.id}/permanent`);
    expect(purged.status).toBe(204);

    for (const token of [unpublished, trashed, deleted]) {
      const res = await page(`/p/${token}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('This page is not published');
    }
  });

  it('answers the same 404 page for any address that is no page, never a 500', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const token = await publish(db, (await createDocument(client, 'Real', doc())).id);
    const missing = await (await page(`/p/${'A'.repeat(43)}`)).text();
    expect(missing).toContain('This page is not published');

    const paths = [
      `/p/${'A'.repeat(43)}`,
      `/p/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `/p/${token.slice(1)}`,
      `/p/${token}x`,
      `/p/${'x'.repeat(5000)}`,
      `/p/${encodeURIComponent('ünïcødé✓'.repeat(6))}`,
      `/p/%F0%9F%92%A9${token.slice(2)}`,
      `/p/%E0%A4%A`,
      '/p/..%2F..%2Fetc%2Fpasswd',
      `/p/${token}/..%2F..%2Fapi%2Fme`,
      `/p/${token}/files/..%2F..%2Fetc%2Fpasswd`,
      `/p/${token}/files/not-an-id`,
      `/p/${token}/nothing`,
      '/p/',
      '/p',
    ];
    for (const path of paths) {
      const res = await page(path, { Accept: 'text/html' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Content-Type'), path).toBe('text/html; charset=utf-8');
      expect(await res.text(), path).toBe(missing);
    }
    // Past the app's longest URL, the guard in front of every route refuses it first.
    const oversized = await page(`/p/${'A'.repeat(10_000)}`);
    expect(oversized.status).toBeGreaterThanOrEqual(400);
    expect(oversized.status).toBeLessThan(500);
  });

  it('serves the uploaded images its document shows, and no other file', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const { client: stranger } = await signedInUser(server, db, 'Mallory');
    const shown = await upload(client);
    const inRawHtml = await upload(client);
    const notShown = await upload(client);
    const strangers = await upload(stranger);
    const document = await createDocument(
      client,
      'Pictures',
      doc(
        { type: 'image', attrs: { src: shown.url, alt: 'shown' } },
        { type: 'htmlBlock', attrs: { html: `<p><img src="${inRawHtml.url}" alt="raw"></p>` } },
        { type: 'image', attrs: { src: strangers.url, alt: 'not theirs' } },
        paragraph(`${notShown.url} is only text`),
      ),
    );
    const token = await publish(db, document.id);

    const html = await (await page(`/p/${token}`)).text();
    expect(html).toContain(`src="/p/${token}/files/${shown.id}"`);
    expect(html).toContain(`src="/p/${token}/files/${inRawHtml.id}"`);
    expect(html).not.toContain(`src="${shown.url}"`);
    for (const file of [shown, inRawHtml]) {
      const res = await page(`/p/${token}/files/${file.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('image/png');
      expect(res.headers.get('Set-Cookie')).toBeNull();
      expect((await res.arrayBuffer()).byteLength).toBe(file.bytes);
    }
    const partial = await page(`/p/${token}/files/${shown.id}`, { Range: 'bytes=0-3' });
    expect(partial.status).toBe(206);
    expect((await partial.arrayBuffer()).byteLength).toBe(4);
    for (const file of [notShown, strangers]) {
      expect((await page(`/p/${token}/files/${file.id}`)).status).toBe(404);
    }
    // The file's own address still needs its owner's session.
    expect((await page(shown.url)).status).toBe(404);

    await db.query('DELETE FROM published_pages WHERE document_id = $1', [document.id]);
    expect((await page(`/p/${token}/files/${shown.id}`)).status).toBe(404);
  });

  it('gives its script what live editors typed, and 304 while nothing changed', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'Live', doc(paragraph('First line.')));
    const token = await publish(db, document.id);
    const content = async (etag?: string) => {
      const res = await page(`/p/${token}/content`, etag ? { 'If-None-Match': etag } : {});
      const body = res.status === 200 ? ((await res.json()) as PageContentResponse) : null;
      return { res, body };
    };
    const live = connectClient(server.url, cookieOf(client), document.id);
    open.push(live);
    await live.synced;
    appendParagraph(live, 'Typed a moment ago.');
    await live.saved();
    // Acknowledged means logged, not yet in documents.content: the page stores it for its readers.
    const first = await content();
    expect(first.body?.html).toBe('<p>First line.</p><p>Typed a moment ago.</p>');
    const etag = first.res.headers.get('ETag')!;
    expect((await content(etag)).res.status).toBe(304);

    // Readers polling together store a document's live edits at most once a second.
    appendParagraph(live, 'And one more.');
    await live.saved();
    await until(async () => (await content(etag)).res.status === 200);
    expect((await content()).body?.html).toContain('<p>And one more.</p>');
  });

  it('never writes script, handlers, script URLs or positioned styles from a document', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const document = await createDocument(client, 'Hostile', doc(paragraph('x')));
    const nodes = [...fixtures, ...ESCAPES].flatMap((payload) => [
      { type: 'htmlBlock', attrs: { html: payload } },
      {
        type: 'paragraph',
        content: [
          { type: 'htmlInline', attrs: { html: payload } },
          {
            type: 'text',
            text: payload,
            marks: [{ type: 'link', attrs: { href: payload, title: payload } }],
          },
          { type: 'inlineImage', attrs: { src: payload, alt: payload, title: payload } },
          {
            type: 'text',
            text: 'styled',
            marks: [{ type: 'textStyle', attrs: { color: payload } }],
          },
        ],
      },
      { type: 'image', attrs: { src: payload, alt: payload } },
      {
        type: 'codeBlock',
        attrs: { language: payload },
        content: [{ type: 'text', text: payload }],
      },
    ]);
    // Stored as it is, as content saved before a rule: the page applies the rules when it reads.
    await db.query('UPDATE documents SET content = $2::jsonb WHERE id = $1', [
      document.id,
      JSON.stringify(doc(...nodes, paragraph(LAST))),
    ]);
    const token = await publish(db, document.id);

    const res = await page(`/p/${token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(unsafeParts(html)).toEqual([]);
    // The script puts the article's HTML from /content in place of the page's.
    const live = (await (await page(`/p/${token}/content`)).json()) as PageContentResponse;
    const swapped = html.replace(
      /(<article[^>]*>)[\s\S]*(<\/article>)/,
      (_all, start: string, end: string) => `${start}${live.html}${end}`,
    );
    expect(swapped).not.toBe(html.replace(/<article[\s\S]*<\/article>/, ''));
    expect(unsafeParts(swapped)).toEqual([]);
  });
});
