import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { uploadedFileSchema } from '../../common/api/files.ts';
import { ROLES, type Role, type SharingState } from '../../common/api/sharing.ts';
import { versionSummaryResponseSchema } from '../../common/api/versions.ts';
import type { SessionUser } from '../auth/sessions.ts';
import { ROUTE_ACCESS, type DeclaredRoute, type RouteRule } from '../routeAccess.ts';
import type { RunningServer } from '../startServer.ts';
import { pngImage } from '../test/images.ts';
import {
  describeWithServer,
  signedInUser,
  TestClient,
  type RequestOptions,
} from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';

/** A valid body for each route that reads one, so that only access can refuse a request. */
const BODIES: Partial<Record<DeclaredRoute, (people: People) => unknown>> = {
  'PATCH /api/documents/:id': () => ({ baseVersion: 1, title: 'Matrix' }),
  'POST /api/documents/:id/rename-links': () => ({ from: 'Before' }),
  'PUT /api/documents/:id/sharing/people': (people) => ({
    email: people.other.user.email,
    role: 'viewer',
  }),
  'PATCH /api/documents/:id/sharing/people/:userId': () => ({ role: 'editor' }),
  'PUT /api/documents/:id/sharing/link': () => ({ role: 'editor' }),
  'PUT /api/documents/:id/sharing/publish': () => ({ indexable: false, expiresAt: null }),
  'POST /api/documents/:id/versions': () => ({ name: 'Matrix' }),
  'PATCH /api/documents/:id/versions/:versionId': () => ({ name: 'Renamed' }),
};

/** Routes whose owner acts on a document in the trash. */
const IN_TRASH = new Set<DeclaredRoute>([
  'POST /api/documents/:id/restore',
  'DELETE /api/documents/:id/permanent',
]);

type Account = { user: SessionUser; client: TestClient };
interface People {
  owner: Account;
  editor: Account;
  viewer: Account;
  linkEditor: Account;
  oldLinkMember: Account;
  other: Account;
}

/** Each caller with the role they hold, least first: whoever may change things goes last. */
const CALLERS: readonly { name: keyof People | 'anonymous'; role: Role | null }[] = [
  { name: 'anonymous', role: null },
  { name: 'other', role: null },
  { name: 'oldLinkMember', role: null },
  { name: 'viewer', role: 'viewer' },
  { name: 'linkEditor', role: 'editor' },
  { name: 'editor', role: 'editor' },
  { name: 'owner', role: 'owner' },
];

const DOCUMENT_ROUTES = (Object.entries(ROUTE_ACCESS) as [DeclaredRoute, RouteRule][]).flatMap(
  ([route, [rule]]) =>
    rule === 'viewer' || rule === 'editor' || rule === 'owner' ? [{ route, rule }] : [],
);

describeWithServer('every document route as every role', (context) => {
  let server: RunningServer;
  let people: People;
  let png: Buffer;
  const getDb = () => context().db;

  beforeAll(async () => {
    server = context().server;
    const person = (name: string) => signedInUser(server, getDb(), name);
    people = {
      owner: await person('Owner'),
      editor: await person('Editor'),
      viewer: await person('Viewer'),
      linkEditor: await person('Link editor'),
      oldLinkMember: await person('Old link member'),
      other: await person('Other'),
    };
    png = await pngImage(20, 10);
  });

  /**
   * A document of the owner's showing a file of its own (a route may share the document with
   * someone else, who must not then read the file another route checks), with every way in this
   * test calls through.
   */
  async function sharedDocument(
    trashed: boolean,
  ): Promise<{ id: string; fileId: string; versionId: string }> {
    const { owner, editor, viewer, linkEditor, oldLinkMember } = people;
    const upload = await owner.client.request('POST', '/api/files?name=a.png', {
      body: png as unknown as string,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(upload.status).toBe(201);
    const fileId = uploadedFileSchema.parse(await upload.json()).id;
    const created = await owner.client.request('POST', '/api/documents', {
      json: {
        title: 'Matrix',
        content: { type: 'doc', content: [{ type: 'image', attrs: { src: `/files/${fileId}` } }] },
      },
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { document: DocumentRecord }).document;
    const kept = await owner.client.request('POST', `/api/documents/${id}/versions`, {
      json: { name: 'First' },
    });
    expect(kept.status).toBe(201);
    const versionId = versionSummaryResponseSchema.parse(await kept.json()).version.id;
    const db = getDb();
    await shareWith(db, id, editor.user.id, 'editor');
    await shareWith(db, id, viewer.user.id, 'viewer');
    const link = await owner.client.request('PUT', `/api/documents/${id}/sharing/link`, {
      json: { role: 'editor' },
    });
    const { url } = ((await link.json()) as SharingState).link!;
    const joined = await linkEditor.client.request('POST', '/api/share-links/join', {
      json: { token: url.slice(url.lastIndexOf('/') + 1) },
    });
    expect(joined.status).toBe(200);
    // Came in through a link the document has since replaced: the hash is no longer its link's.
    await db.query(
      'INSERT INTO share_link_members (document_id, user_id, token_hash) VALUES ($1, $2, $3)',
      [id, oldLinkMember.user.id, randomBytes(32)],
    );
    if (trashed) {
      expect((await owner.client.request('DELETE', `/api/documents/${id}`)).status).toBe(204);
    }
    return { id, fileId, versionId };
  }

  /** The route's path for a document and its file (`/files/:id` names the file). */
  const pathOf = (route: string, documentId: string, fileId: string, versionId: string) =>
    route
      .slice(route.indexOf(' ') + 1)
      .replace(':id', route.includes(' /files/') ? fileId : documentId)
      .replace(':userId', people.viewer.user.id)
      .replace(':versionId', versionId);

  it.each(DOCUMENT_ROUTES)('$route: $rule and above; anyone else as if missing', async (row) => {
    const { route, rule } = row;
    const method = route.slice(0, route.indexOf(' '));
    const body = BODIES[route]?.(people);
    const options: RequestOptions = body === undefined ? {} : { json: body };
    const { id, fileId, versionId } = await sharedDocument(IN_TRASH.has(route));
    // What the owner hears about a document (or file) that does not exist: refusals must match.
    const missingPath = pathOf(route, randomUUID(), randomUUID(), versionId);
    const missing = await people.owner.client.request(method, missingPath, options);
    expect(missing.status, `${route} of a missing document`).toBe(404);
    const missingBody = await missing.text();

    for (const caller of CALLERS) {
      const client =
        caller.name === 'anonymous'
          ? new TestClient(server, undefined)
          : people[caller.name].client;
      const res = await client.request(method, pathOf(route, id, fileId, versionId), options);
      const text = await res.text();
      const allowed = caller.role !== null && ROLES.indexOf(caller.role) >= ROLES.indexOf(rule);
      const label = `${route} as ${caller.name}: ${res.status} ${text.slice(0, 200)}`;
      if (allowed) {
        expect([401, 403, 404], label).not.toContain(res.status);
      } else if (caller.name === 'anonymous' && route.includes(' /api/')) {
        expect(res.status, label).toBe(401);
      } else {
        expect(res.status, label).toBe(404);
        expect(text, label).toBe(missingBody);
      }
    }
  });
});
