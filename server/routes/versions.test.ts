import { expect, it } from 'vitest';
import {
  listVersionsResponseSchema,
  MAX_VERSION_NAME,
  versionResponseSchema,
  versionSummaryResponseSchema,
  type VersionSummary,
} from '../../common/api/versions.ts';
import {
  appendParagraph,
  createDocument,
  until,
  useLiveClients,
} from '../collab/test/collabClient.ts';
import { yDocFromContent } from '../collab/yjsContent.ts';
import type { TestClient } from '../test/testServer.ts';
import { describeWithServer, signedInUser, startTestServer } from '../test/testServer.ts';
import { QUICK_VERSIONS, SLOW_VERSIONS } from '../test/versionTiming.ts';
import { shareWith } from '../test/users.ts';
import { VersionStore } from '../versions/versionStore.ts';

/*
 * Version history over HTTP and the live socket (docs/PRODUCT.md "Version history"): versions
 * kept by the server after a pause and when the last writer leaves, named by hand from the live
 * state, authors from the server's own record; and every input refused with a 4xx.
 */

const { live } = useLiveClients();

async function versionsOf(client: TestClient, id: string): Promise<VersionSummary[]> {
  const res = await client.request('GET', `/api/documents/${id}/versions`);
  expect(res.status).toBe(200);
  return listVersionsResponseSchema.parse(await res.json()).versions;
}

async function contentText(client: TestClient, id: string, versionId: string): Promise<string> {
  const res = await client.request('GET', `/api/documents/${id}/versions/${versionId}`);
  expect(res.status).toBe(200);
  return JSON.stringify(versionResponseSchema.parse(await res.json()).content);
}

describeWithServer(
  'versions kept after a pause in editing',
  (context) => {
    it('names the writers the server recorded for the socket, whatever they declare', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const bob = await signedInUser(server, db, 'Bob');
      const document = await createDocument(owner.client, 'Plans.');
      await shareWith(db, document.id, bob.user.id, 'editor');
      const bobs = live(bob.client, document.id);
      await bobs.synced;
      // Bob's presence says he is Olive: the server's record goes by his session.
      bobs.provider.setAwarenessField('user', { name: 'Olive', color: '#000000' });
      appendParagraph(bobs, 'Bob adds a line.');
      await bobs.saved();
      let versions: VersionSummary[] = [];
      await until(async () => (versions = await versionsOf(owner.client, document.id)).length > 0);
      expect(versions[0]).toMatchObject({ kind: 'auto', name: null, keptBy: null });
      // The first version holds the whole text: Bob's line, and Olive's, converted from her JSON
      // at the first open.
      expect(versions[0]!.authors).toEqual([
        { id: bob.user.id, name: 'Bob' },
        { id: owner.user.id, name: 'Olive' },
      ]);
      expect(versions[0]!.added).toBeGreaterThanOrEqual('Bob adds a line.'.length);
      expect(await contentText(owner.client, document.id, versions[0]!.id)).toContain(
        'Bob adds a line.',
      );
      // Nothing typed since: the next pause keeps nothing new.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await versionsOf(owner.client, document.id)).toHaveLength(1);
    });
  },
  QUICK_VERSIONS,
);

describeWithServer(
  'versions kept by hand and when the last writer leaves',
  (context) => {
    it('keeps one when the last writer leaves, and keeps it across a restart', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const document = await createDocument(owner.client, 'Before.');
      const mine = live(owner.client, document.id);
      await mine.synced;
      appendParagraph(mine, 'Typed, then gone.');
      await mine.saved();
      expect(await versionsOf(owner.client, document.id)).toEqual([]);
      mine.destroy();
      let versions: VersionSummary[] = [];
      await until(async () => (versions = await versionsOf(owner.client, document.id)).length > 0);
      expect(versions[0]!.authors.map((author) => author.name)).toEqual(['Olive']);

      // Another server on the same database: the version and its authors are there.
      const restarted = await startTestServer(db, SLOW_VERSIONS);
      try {
        const again = new (owner.client.constructor as typeof TestClient)(
          restarted,
          owner.client.token,
        );
        expect(await versionsOf(again, document.id)).toEqual(versions);
      } finally {
        await restarted.close();
      }
    });

    it('names the live state, typed a moment ago included, and keeps one before a restore', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const document = await createDocument(owner.client, 'First draft.');
      const mine = live(owner.client, document.id);
      await mine.synced;
      appendParagraph(mine, 'Just typed.');
      await mine.saved();
      const named = await owner.client.request('POST', `/api/documents/${document.id}/versions`, {
        json: { name: '  Sent to legal  ' },
      });
      expect(named.status).toBe(201);
      const draft = versionSummaryResponseSchema.parse(await named.json()).version;
      expect(draft).toMatchObject({ kind: 'named', name: 'Sent to legal' });
      expect(draft.keptBy?.id).toBe(owner.user.id);
      expect(await contentText(owner.client, document.id, draft.id)).toContain('Just typed.');

      appendParagraph(mine, 'After legal.');
      await mine.saved();
      const before = await owner.client.request('POST', `/api/documents/${document.id}/versions`, {
        json: { restoring: draft.id },
      });
      expect(before.status).toBe(201);
      const kept = versionSummaryResponseSchema.parse(await before.json()).version;
      expect(kept.kind).toBe('restore');
      expect(await contentText(owner.client, document.id, kept.id)).toContain('After legal.');

      const renamed = await owner.client.request(
        'PATCH',
        `/api/documents/${document.id}/versions/${kept.id}`,
        { json: { name: 'Before going back' } },
      );
      expect(renamed.status).toBe(200);
      expect((await versionsOf(owner.client, document.id)).map((v) => v.name)).toEqual([
        'Before going back',
        'Sent to legal',
      ]);
    });

    it('keeps every version whole when the update log is folded into the snapshot', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const document = await createDocument(owner.client, 'Start.');
      const mine = live(owner.client, document.id);
      await mine.synced;
      const kept: { id: string; text: string }[] = [];
      for (const line of ['One.', 'Two.', 'Three.']) {
        appendParagraph(mine, line);
        await mine.saved();
        const res = await owner.client.request('POST', `/api/documents/${document.id}/versions`, {
          json: { name: `After ${line}` },
        });
        expect(res.status).toBe(201);
        const { id } = versionSummaryResponseSchema.parse(await res.json()).version;
        kept.push({ id, text: await contentText(owner.client, document.id, id) });
      }
      appendParagraph(mine, 'Four.');
      await mine.saved();
      // A REST read folds the log into the snapshot: the updates each version was kept from go.
      expect((await owner.client.request('GET', `/api/documents/${document.id}`)).status).toBe(200);
      const { rows } = await db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM document_yjs_updates WHERE document_id = $1',
        [document.id],
      );
      expect(rows[0]!.count).toBe(0);
      for (const version of kept) {
        expect(await contentText(owner.client, document.id, version.id)).toBe(version.text);
      }
      expect(kept[0]!.text).toContain('One.');
      expect(kept[0]!.text).not.toContain('Two.');
      expect(kept[2]!.text).not.toContain('Four.');
    });

    it('answers every hostile request with a 4xx and changes nothing', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const document = await createDocument(owner.client, 'Guarded.');
      const other = await createDocument(owner.client, 'Elsewhere.');
      const path = `/api/documents/${document.id}/versions`;
      const kept = await owner.client.request('POST', path, { json: { name: 'One' } });
      const version = versionSummaryResponseSchema.parse(await kept.json()).version;
      const elsewhere = await owner.client.request('POST', `/api/documents/${other.id}/versions`, {
        json: { name: 'Two' },
      });
      const foreign = versionSummaryResponseSchema.parse(await elsewhere.json()).version;
      const deep = `${'{"name":'.repeat(400)}"x"${'}'.repeat(400)}`;
      const json = { 'Content-Type': 'application/json' };

      const cases: [string, string, Parameters<TestClient['request']>[2], number][] = [
        ['POST', path, { json: { name: '' } }, 400],
        ['POST', path, { json: { name: 'x'.repeat(MAX_VERSION_NAME + 1) } }, 400],
        ['POST', path, { json: { name: 'line\nbreak' } }, 400],
        ['POST', path, { json: { name: 'Both', restoring: version.id } }, 400],
        ['POST', path, { json: { name: 42 } }, 400],
        ['POST', path, { json: { restoring: foreign.id } }, 404],
        ['POST', path, { json: { restoring: '99999999999' } }, 404],
        ['POST', path, { body: deep, headers: json }, 400],
        [
          'POST',
          path,
          { body: '{"name": "unterminated', headers: { 'Content-Type': 'application/json' } },
          400,
        ],
        ['POST', path, { json: { name: 'x'.repeat(10_000) } }, 413],
        ['GET', `${path}?limit=100000`, {}, 400],
        ['GET', `${path}?limit=-1`, {}, 400],
        ['GET', `${path}?before=drop%20table`, {}, 400],
        ['GET', `${path}/0`, {}, 404],
        ['GET', `${path}/-1`, {}, 404],
        ['GET', `${path}/1e5`, {}, 404],
        ['GET', `${path}/${'9'.repeat(30)}`, {}, 404],
        ['GET', `${path}/${foreign.id}`, {}, 404],
        ['PATCH', `${path}/${foreign.id}`, { json: { name: 'Taken' } }, 404],
        ['PATCH', `${path}/${version.id}`, { json: { name: '\u0000' } }, 400],
        ['PATCH', `${path}/${version.id}`, { json: {} }, 400],
      ];
      for (const [method, url, options, status] of cases) {
        const res = await owner.client.request(method, url, options);
        expect(
          res.status,
          `${method} ${url.slice(0, 80)} ${JSON.stringify(options).slice(0, 80)}`,
        ).toBe(status);
      }
      expect((await versionsOf(owner.client, document.id)).map((v) => v.name)).toEqual(['One']);
    });

    it('reads a version holding hostile content back sanitised', async () => {
      const { server, db } = context();
      const owner = await signedInUser(server, db, 'Olive');
      const document = await createDocument(owner.client, 'Start.');
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
            ],
          },
        ],
      });
      const kept = await new VersionStore(db).keep(document.id, hostile, { kind: 'auto' });
      const text = await contentText(owner.client, document.id, kept!.id);
      expect(text).toContain('click');
      expect(text).not.toContain('onerror');
      expect(text).not.toContain('javascript:');
    });
  },
  SLOW_VERSIONS,
);
