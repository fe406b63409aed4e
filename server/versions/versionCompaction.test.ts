import { SLOW_VERSIONS } from '../test/versionTiming.ts';
import { expect, it } from 'vitest';
import type { DocumentContent } from '../../common/api/documents.ts';
import {
  listVersionsResponseSchema,
  versionResponseSchema,
  versionSummaryResponseSchema,
  type VersionSummary,
} from '../../common/api/versions.ts';
import { COMPACT_AFTER_UPDATES } from '../collab/collabEngine.ts';
import {
  appendParagraph,
  createDocument,
  until,
  useLiveClients,
  type CollabClient,
} from '../collab/test/collabClient.ts';
import { storedUpdates } from '../collab/test/collabMessages.ts';
import { CONTENT_FIELD } from '../collab/yjsContent.ts';
import { describeWithServer, signedInUser, type TestClient } from '../test/testServer.ts';

/*
 * docs/PRODUCT.md "Version history": compacting a live document's update log (folding it into the
 * snapshot and deleting its rows) never loses a version, nor changes what one holds; versions
 * kept from the compacted state, diffs against keyframes kept before, read back as they were.
 */

const { live } = useLiveClients();

/** The text of each top-level block, as the live client's `blocks()` gives it. */
function blocksOf(content: DocumentContent): string[] {
  return ((content.content ?? []) as Array<{ content?: Array<{ text?: string }> }>).map((block) =>
    (block.content ?? []).map((inline) => inline.text ?? '').join(''),
  );
}

async function allVersions(client: TestClient, id: string): Promise<VersionSummary[]> {
  const versions: VersionSummary[] = [];
  for (let before: string | null = ''; before !== null;) {
    const res = await client.request(
      'GET',
      `/api/documents/${id}/versions?limit=100${before ? `&before=${before}` : ''}`,
    );
    expect(res.status).toBe(200);
    const page = listVersionsResponseSchema.parse(await res.json());
    versions.push(...page.versions);
    before = page.next;
  }
  return versions;
}

describeWithServer(
  'versions through compactions of the update log',
  (context) => {
    it('reads every version back as it was kept, after compactions and a reload', async () => {
      const { server, db } = context();
      const { client } = await signedInUser(server, db, 'Olive');
      const document = await createDocument(client, 'Start.');
      const versionsPath = `/api/documents/${document.id}/versions`;
      let writer: CollabClient = live(client, document.id);
      await writer.synced;

      /** Each version kept, with the blocks the writer had when it asked for it. */
      const kept = new Map<string, string[]>();
      const keep = async (name: string) => {
        await writer.saved();
        const blocks = writer.blocks();
        const res = await client.request('POST', versionsPath, { json: { name } });
        expect(res.status).toBe(201);
        const { version } = versionSummaryResponseSchema.parse(await res.json());
        kept.set(version.id, blocks);
        return version.id;
      };
      const type = async (count: number, prefix: string) => {
        for (let line = 0; line < count; line += 1) {
          appendParagraph(writer, `${prefix} ${line}`);
          await writer.saved();
          // Under the socket's flood limit (MAX_MESSAGES_PER_SECOND).
          await new Promise((pause) => setTimeout(pause, 5));
        }
      };
      // Deleted text is what Yjs garbage-collects from the live state, and so from snapshots.
      const remove = async (index: number, count: number) => {
        writer.doc.getXmlFragment(CONTENT_FIELD).delete(index, count);
        await writer.saved();
      };

      await type(20, 'first');
      await keep('First');
      await remove(3, 10);
      await type(5, 'second');
      await keep('Second');
      // Past COMPACT_AFTER_UPDATES updates: the log is folded in while editing goes on.
      for (let round = 0; round < 6; round += 1) {
        await type(100, `round ${round}`);
        await remove(1 + round * 10, 20);
        await keep(`Round ${round}`);
      }
      await until(async () => (await storedUpdates(db, document.id)) < COMPACT_AFTER_UPDATES);
      await remove(0, 50);
      const beforeReload = await keep('Compacted');

      // The writer leaves: the document is stored whole, its log emptied, and it unloads.
      writer.destroy();
      await until(async () => (await storedUpdates(db, document.id)) === 0);
      await until(() => !server.services.collab!.hocuspocus.documents.has(document.id));
      writer = live(client, document.id);
      await writer.synced;
      await remove(0, 20);
      await type(5, 'reloaded');
      const afterReload = await keep('Reloaded');

      // The version kept from the reloaded state is a diff against a keyframe kept before.
      const { rows } = await db.query<{ base_id: string | null }>(
        'SELECT base_id::text AS base_id FROM document_versions WHERE id = $1',
        [afterReload],
      );
      expect(rows[0]?.base_id).not.toBeNull();
      expect(BigInt(rows[0]!.base_id!)).toBeLessThanOrEqual(BigInt(beforeReload));

      const versions = await allVersions(client, document.id);
      expect(versions.map((version) => version.id)).toEqual(
        expect.arrayContaining([...kept.keys()]),
      );
      for (const version of versions) {
        const res = await client.request('GET', `${versionsPath}/${version.id}`);
        expect(res.status, `version ${version.id}`).toBe(200);
        const { content } = versionResponseSchema.parse(await res.json());
        const blocks = kept.get(version.id);
        if (blocks) expect(blocksOf(content), `version ${version.id}`).toEqual(blocks);
      }
    }, 60_000);
  },
  SLOW_VERSIONS,
);
