import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentContent, DocumentRecord } from '../../common/api/documents.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';
import { useLiveClients } from './test/collabClient.ts';
import { CONTENT_FIELD, yDocFromContent } from './yjsContent.ts';

const paragraphs = (...texts: string[]): DocumentContent => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const stateOf = (doc: Y.Doc) => base64(Y.encodeStateAsUpdate(doc));

const { live } = useLiveClients();

/** Sends a create with a Yjs state; answers the status and the error code, if any. */
async function createWithState(client: TestClient, body: Record<string, unknown>) {
  const res = await client.request('POST', '/api/documents?echo=0', {
    json: { id: randomUUID(), title: 'Made here', ...body },
  });
  const answer = (await res.json()) as {
    error?: { code: string; message: string };
    document?: DocumentRecord;
  };
  return {
    status: res.status,
    code: answer.error?.code,
    message: answer.error?.message,
    document: answer.document,
  };
}

describeWithServer(
  'a create that brings the Yjs state of a document made in a tab',
  (context) => {
    it('stores the row and the state together, so the first open converts and transfers nothing', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const made = yDocFromContent(paragraphs('imported', 'second'));
      const id = randomUUID();
      const res = await client.request('POST', '/api/documents?echo=0', {
        json: { id, title: 'Imported', yjsState: stateOf(made) },
      });
      expect(res.status).toBe(201);
      // On disk before anyone opens it: the state as sent, and the content derived from it.
      const { rows } = await db.query<{ state: Uint8Array | string; has_yjs: boolean }>(
        `SELECT encode(y.state, 'hex') AS state, d.has_yjs FROM document_yjs y
           JOIN documents d ON d.id = y.document_id WHERE y.document_id = $1`,
        [id],
      );
      expect(rows[0]).toEqual({
        state: Buffer.from(Y.encodeStateAsUpdate(made)).toString('hex'),
        has_yjs: true,
      });
      const read = await client.request('GET', `/api/documents/${id}`);
      const stored = ((await read.json()) as { document: DocumentRecord }).document;
      expect(stored.content).toEqual(paragraphs('imported', 'second'));

      // The tab keeps editing the same Y.Doc: its sync finds nothing to send either way.
      const collab = live(client, id, { doc: made });
      await collab.synced;
      expect(collab.blocks()).toEqual(['imported', 'second']);
      const updates = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
        [id],
      );
      expect(updates.rows[0]!.n).toBe(0);
      // Another tab opens what the first one made.
      const other = live(client, id);
      await other.synced;
      expect(other.blocks()).toEqual(['imported', 'second']);
    });

    it('is idempotent: a repeated create answers with the stored document and writes nothing', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const id = randomUUID();
      const body = { id, title: 'Once', yjsState: stateOf(yDocFromContent(paragraphs('one'))) };
      const first = await client.request('POST', '/api/documents?echo=0', { json: body });
      expect(first.status).toBe(201);
      const again = await client.request('POST', '/api/documents?echo=0', {
        json: { ...body, yjsState: stateOf(yDocFromContent(paragraphs('other'))) },
      });
      expect(again.status).toBe(200);
      const collab = live(client, id);
      await collab.synced;
      expect(collab.blocks()).toEqual(['one']);
    });

    it('refuses bytes that are no Yjs update, and base64 that is none, with 4xx', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const garbage = await createWithState(client, {
        yjsState: base64(new Uint8Array([1, 200, 7, 9, 255, 255, 255, 3])),
      });
      expect([garbage.status, garbage.code]).toEqual([422, 'invalid_document']);
      const notBase64 = await createWithState(client, { yjsState: '**not base64**' });
      expect([notBase64.status, notBase64.code]).toEqual([400, 'invalid_request']);
    });

    it('refuses a state the editor could not show, storing nothing', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const hostile = new Y.Doc();
      const block = new Y.XmlElement('noSuchBlock');
      hostile.getXmlFragment(CONTENT_FIELD).insert(0, [block]);
      const id = randomUUID();
      const unknown = await createWithState(client, { id, yjsState: stateOf(hostile) });
      expect([unknown.status, unknown.code]).toEqual([422, 'invalid_document']);
      const outside = new Y.Doc();
      outside.getMap('elsewhere').set('x', 1);
      const elsewhere = await createWithState(client, { yjsState: stateOf(outside) });
      expect([elsewhere.status, elsewhere.code]).toEqual([422, 'invalid_document']);
      const link = yDocFromContent({
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: 'click',
                marks: [{ type: 'link', attrs: { href: 'https://example.com' } }],
              },
            ],
          },
        ],
      });
      const text = (link.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement).get(0) as Y.XmlText;
      text.format(0, 5, { link: { href: 'javascript:alert(1)' } });
      const script = await createWithState(client, { yjsState: stateOf(link) });
      expect([script.status, script.code]).toEqual([422, 'invalid_document']);
      const { rows } = await db.query('SELECT 1 FROM documents WHERE id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('refuses content that differs from the state sent with it', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      const same = await createWithState(client, {
        content: paragraphs('agreed'),
        yjsState: stateOf(yDocFromContent(paragraphs('agreed'))),
      });
      expect(same.status).toBe(201);
      const differ = await createWithState(client, {
        content: paragraphs('what REST shows'),
        yjsState: stateOf(yDocFromContent(paragraphs('what editors show'))),
      });
      expect([differ.status, differ.code]).toEqual([400, 'invalid_request']);
    });

    it('refuses a state over twice the document limit, or content derived over the limit, with 413', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db);
      // Over the state bound (2 × 64 KB) and within the body limit.
      const big = new Y.Doc();
      const text = new Y.XmlText();
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [text]);
      big.getXmlFragment(CONTENT_FIELD).insert(0, [paragraph]);
      text.insert(0, 'x'.repeat(140 * 1024));
      const tooBig = await createWithState(client, { yjsState: stateOf(big) });
      expect([tooBig.status, tooBig.code]).toEqual([413, 'payload_too_large']);
      expect(tooBig.message).toMatch(/shared state/);
      // Within the state bound and the body limit, but its content is over the document limit
      // (JSON spends more bytes on a paragraph than Yjs does).
      const content = paragraphs(
        ...Array.from({ length: 1000 }, (_, i) => `line ${i} ${'y'.repeat(20)}`),
      );
      const state = stateOf(yDocFromContent(content));
      expect(state.length).toBeLessThan(100 * 1024);
      const overContent = await createWithState(client, { yjsState: state });
      expect([overContent.status, overContent.code]).toEqual([413, 'payload_too_large']);
      const stillJson = await client.request('POST', '/api/documents', {
        json: { title: 'Plain', content: paragraphs('the JSON-only create still works') },
      });
      expect(stillJson.status).toBe(201);
    });
  },
  { documentMaxBytes: 64 * 1024 },
);
