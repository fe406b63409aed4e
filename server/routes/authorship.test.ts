import { randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import {
  authorshipResponseSchema,
  listVersionsResponseSchema,
  versionSummaryResponseSchema,
  type AuthorshipResponse,
} from '../../common/api/versions.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import {
  appendParagraph,
  createDocument,
  until,
  useLiveClients,
} from '../collab/test/collabClient.ts';
import { yDocFromContent } from '../collab/yjsContent.ts';
import {
  describeWithServer,
  signedInUser,
  startTestServer,
  TestClient,
} from '../test/testServer.ts';
import { SLOW_VERSIONS } from '../test/versionTiming.ts';
import { shareWith } from '../test/users.ts';
import { VersionStore } from '../versions/versionStore.ts';

/*
 * Who wrote what (docs/PRODUCT.md "Version history"): each run of text named by the account the
 * server recorded for the Yjs client that wrote it, now and in a version, across compaction and
 * a restart; the server's own writes named for whom it made them; editors and the owner only.
 */

const { live } = useLiveClients();

const paragraphs = (...texts: string[]) => ({
  type: 'doc' as const,
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

/** An authorship answer as [writer, text] runs, the text read from the answer's own content. */
function named(answer: AuthorshipResponse): [string, string][] {
  const doc = inkwellSchema().nodeFromJSON(answer.content);
  return answer.runs.map(([block, from, to, author]) => [
    author === -1 ? 'Unknown' : answer.authors[author]!.name,
    doc.child(block).content.textBetween(from, to),
  ]);
}

async function authorship(client: TestClient, path: string): Promise<[string, string][]> {
  const res = await client.request('GET', path);
  expect(res.status, await res.clone().text()).toBe(200);
  return named(authorshipResponseSchema.parse(await res.json()));
}

/**
 * Waits for the answer to be `expected`, then checks it: the record of a client is written just
 * after its first update is acknowledged.
 */
async function expectAuthorship(client: TestClient, path: string, expected: [string, string][]) {
  await until(
    async () => JSON.stringify(await authorship(client, path)) === JSON.stringify(expected),
  ).catch(() => undefined);
  expect(await authorship(client, path)).toEqual(expected);
}

describeWithServer(
  'who wrote what',
  (context) => {
    it('names each writer for their own text, after compaction and after a restart', async () => {
      const { server, db } = context();
      const olive = await signedInUser(server, db, 'Olive');
      const bob = await signedInUser(server, db, 'Bob');
      const document = await createDocument(olive.client, 'Plans.');
      await shareWith(db, document.id, bob.user.id, 'editor');
      const hers = live(olive.client, document.id);
      const his = live(bob.client, document.id);
      await Promise.all([hers.synced, his.synced]);
      appendParagraph(hers, 'Olive writes.');
      await hers.saved();
      await until(() => his.blocks().length === 2);
      appendParagraph(his, 'Bob writes.');
      await his.saved();

      const now = `/api/documents/${document.id}/authorship`;
      // The first paragraph was the owner's JSON, converted by the server on the first open.
      const expected: [string, string][] = [
        ['Olive', 'Plans.'],
        ['Olive', 'Olive writes.'],
        ['Bob', 'Bob writes.'],
      ];
      await expectAuthorship(olive.client, now, expected);
      expect(await authorship(bob.client, now)).toEqual(expected);

      // A REST read folds the update log into the snapshot.
      expect((await olive.client.request('GET', `/api/documents/${document.id}`)).status).toBe(200);
      const { rows } = await db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM document_yjs_updates WHERE document_id = $1',
        [document.id],
      );
      expect(rows[0]!.count).toBe(0);
      expect(await authorship(olive.client, now)).toEqual(expected);

      // Both leave (a version is kept), and another server opens the database.
      hers.destroy();
      his.destroy();
      const versionsPath = `/api/documents/${document.id}/versions`;
      let versionId: string | undefined;
      await until(async () => {
        const res = await olive.client.request('GET', versionsPath);
        versionId = listVersionsResponseSchema.parse(await res.json()).versions[0]?.id;
        return versionId !== undefined;
      });
      const restarted = await startTestServer(db, SLOW_VERSIONS);
      try {
        const again = new TestClient(restarted, olive.client.token);
        expect(await authorship(again, now)).toEqual(expected);
        expect(await authorship(again, `${versionsPath}/${versionId}/authorship`)).toEqual(
          expected,
        );
      } finally {
        await restarted.close();
      }
    });

    it('names the person for whom the server wrote: a save by REST, a create with its state', async () => {
      const { server, db } = context();
      const olive = await signedInUser(server, db, 'Olive');
      const bob = await signedInUser(server, db, 'Bob');
      const document = await createDocument(olive.client, 'Kept.');
      await shareWith(db, document.id, bob.user.id, 'editor');
      // Olive's open converts it; Bob then saves content by REST into the live document.
      const hers = live(olive.client, document.id);
      await hers.synced;
      const saved = await bob.client.request('PATCH', `/api/documents/${document.id}`, {
        json: { baseVersion: document.version, content: paragraphs('Kept.', 'Sent by Bob.') },
      });
      expect(saved.status).toBe(200);
      await expectAuthorship(olive.client, `/api/documents/${document.id}/authorship`, [
        ['Olive', 'Kept.'],
        ['Bob', 'Sent by Bob.'],
      ]);

      const id = randomUUID();
      const made = yDocFromContent(paragraphs('Made in a tab.'));
      const created = await bob.client.request('POST', '/api/documents?echo=0', {
        json: {
          id,
          title: 'Made',
          yjsState: Buffer.from(Y.encodeStateAsUpdate(made)).toString('base64'),
        },
      });
      expect(created.status).toBe(201);
      expect(await authorship(bob.client, `/api/documents/${id}/authorship`)).toEqual([
        ['Bob', 'Made in a tab.'],
      ]);
    });

    it('answers only editors and the owner, and every hostile id with a 404', async () => {
      const { server, db } = context();
      const olive = await signedInUser(server, db, 'Olive');
      const viewer = await signedInUser(server, db, 'Vera');
      const stranger = await signedInUser(server, db, 'Stan');
      const document = await createDocument(olive.client, 'Private.');
      await shareWith(db, document.id, viewer.user.id, 'viewer');
      const versions = `/api/documents/${document.id}/versions`;
      const kept = await olive.client.request('POST', versions, { json: { name: 'One' } });
      const { id: versionId } = versionSummaryResponseSchema.parse(await kept.json()).version;
      const now = `/api/documents/${document.id}/authorship`;
      const then = `${versions}/${versionId}/authorship`;
      expect(await authorship(olive.client, then)).toEqual([['Olive', 'Private.']]);

      for (const client of [viewer.client, stranger.client]) {
        for (const path of [now, then]) {
          expect((await client.request('GET', path)).status, path).toBe(404);
        }
      }
      // An id in capitals is the same document, opened live by the one name the engine knows.
      const opened = vi.spyOn(server.services.collab!.hocuspocus, 'openDirectConnection');
      const capitals = `/api/documents/${document.id.toUpperCase()}/authorship`;
      expect(await authorship(olive.client, capitals)).toEqual([['Olive', 'Private.']]);
      expect(opened.mock.calls.map(([name]) => name)).toEqual([document.id]);
      opened.mockRestore();
      for (const path of [
        `${versions}/abc/authorship`,
        `${versions}/0/authorship`,
        `${versions}/-1/authorship`,
        `${versions}/99999999999999999999/authorship`,
        `${versions}/999999999999999999/authorship`,
        `/api/documents/${randomUUID()}/authorship`,
        `/api/documents/junk/authorship`,
        `/api/documents/${document.id}x/authorship`,
        `/api/documents/%27%3B%20drop%20table/versions/${versionId}/authorship`,
      ]) {
        const res = await olive.client.request('GET', path);
        expect(res.status, `${path}: ${await res.text()}`).toBe(404);
      }
    });

    it('reads a version holding hostile content back sanitised, its runs on what remains', async () => {
      const { server, db } = context();
      const olive = await signedInUser(server, db, 'Olive');
      const document = await createDocument(olive.client, 'Start.');
      // Straight into a version's state, past every check a save or a live update makes.
      const hostile = yDocFromContent({
        type: 'doc',
        content: [
          { type: 'htmlBlock', attrs: { html: '<img src=x onerror="alert(1)">' } },
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: 'click',
                marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
              },
              { type: 'inlineImage', attrs: { src: 'javascript:alert(1)', alt: '' } },
              { type: 'text', text: ' here' },
            ],
          },
        ],
      });
      const kept = await new VersionStore(db).keep(document.id, hostile, { kind: 'auto' });
      const res = await olive.client.request(
        'GET',
        `/api/documents/${document.id}/versions/${kept!.id}/authorship`,
      );
      expect(res.status).toBe(200);
      const answer = authorshipResponseSchema.parse(await res.json());
      const text = JSON.stringify(answer.content);
      expect(text).not.toContain('onerror');
      expect(text).not.toContain('javascript:');
      // Nobody recorded the client that wrote it.
      expect(named(answer)).toEqual([['Unknown', 'click here']]);
    });
  },
  SLOW_VERSIONS,
);
