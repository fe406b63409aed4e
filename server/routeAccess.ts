/**
 * Who may call a route (docs/PRODUCT.md "Sharing"):
 * - `public`: anyone, no session read;
 * - `session`: anyone signed in, about their own things (or a socket whose documents are admitted
 *   one by one by documentAccess);
 * - `viewer`, `editor`, `owner`: at least that role in the document of the path, as
 *   server/documents/access.ts decides; anyone else gets the 404 of a missing document;
 * - `token`: whoever holds an unguessable token from an address (a published page, a link).
 */
export type AccessRule = 'public' | 'session' | 'viewer' | 'editor' | 'owner' | 'token';

/** A route's rule and why, in one line. */
export type RouteRule = readonly [rule: AccessRule, reason: string];

/**
 * Every route of the app, as `METHOD /path` exactly as registered in Hono (`ALL` for `app.all`),
 * with its rule. server/routeAccess.test.ts fails for a route missing here or a line without a
 * route; server/routes/roleMatrix.test.ts calls every viewer, editor and owner route as each role.
 */
export const ROUTE_ACCESS = {
  'GET /healthz': ['public', 'the load balancer’s health check, nothing read'],
  'GET /auth/login': ['public', 'starts sign-in'],
  'GET /auth/callback': ['public', 'the identity provider’s answer, checked by openid-client'],
  'GET /auth/signed-out': ['public', 'the page after signing out'],
  'GET /p/page.css': ['public', 'the published page’s style sheet, the same for every page'],
  'GET /p/live.js': ['public', 'the published page’s polling script, the same for every page'],
  'GET /p/:token': ['token', 'a published page, found by its address'],
  'GET /p/:token/content': ['token', 'a published page’s article, found by its address'],
  'GET /p/:token/files/:fileId': ['token', 'an image the published page shows'],
  'ALL /p/*': ['public', 'the one 404 page of anything else under /p'],
  'ALL /p': ['public', 'the one 404 page of anything else under /p'],
  'POST /api/ai/generate': ['session', 'sends only the text it is given: no document id'],
  'GET /api/me': ['session', 'who is signed in'],
  'POST /api/session/logout': ['session', 'ends one’s own session'],
  'GET /api/documents': ['session', 'one’s own documents, the trash, shared ones, search'],
  'POST /api/documents': ['session', 'creates a document of one’s own'],
  'GET /api/documents/:id': ['viewer', 'reads it; the trash its owner alone'],
  'PATCH /api/documents/:id': ['editor', 'saves its title or content'],
  'DELETE /api/documents/:id': ['owner', 'moves it to the trash'],
  'GET /api/documents/:id/versions': ['editor', 'its versions, a page at a time'],
  'POST /api/documents/:id/versions': ['editor', 'keeps its state now, named or before a restore'],
  'GET /api/documents/:id/versions/:versionId': ['editor', 'one version with its content'],
  'PATCH /api/documents/:id/versions/:versionId': ['editor', 'names one of its versions'],
  'GET /api/documents/:id/authorship': ['editor', 'who wrote what in it now'],
  'GET /api/documents/:id/versions/:versionId/authorship': [
    'editor',
    'who wrote what in a version',
  ],
  'POST /api/documents/:id/restore': ['owner', 'brings it back from the trash'],
  'DELETE /api/documents/:id/permanent': ['owner', 'deletes it for good'],
  'GET /api/documents/:id/export.md': ['viewer', 'reads it as Markdown'],
  'POST /api/links/resolve': ['session', 'finds titles among the documents one may read'],
  'GET /api/documents/:id/backlinks': ['viewer', 'lists the readable documents linking to it'],
  'POST /api/documents/:id/rename-links': ['editor', 'follows a rename one may make'],
  'GET /api/people': ['session', 'finds an account by address, counted per person'],
  'GET /api/documents/:id/sharing': ['owner', 'who it is shared with'],
  'PUT /api/documents/:id/sharing/people': ['owner', 'shares it with a person'],
  'PATCH /api/documents/:id/sharing/people/:userId': ['owner', 'changes a person’s role'],
  'DELETE /api/documents/:id/sharing/people/:userId': ['owner', 'takes a person out'],
  'PUT /api/documents/:id/sharing/link': ['owner', 'turns its link on or sets its role'],
  'POST /api/documents/:id/sharing/link/reset': ['owner', 'gives its link a new address'],
  'DELETE /api/documents/:id/sharing/link': ['owner', 'turns its link off'],
  'PUT /api/documents/:id/sharing/publish': ['owner', 'publishes it'],
  'DELETE /api/documents/:id/sharing/publish': ['owner', 'unpublishes it'],
  'POST /api/share-links/join': ['token', 'a signed-in person with a link’s token joins'],
  'POST /api/files': ['session', 'uploads a file of one’s own'],
  'GET /files/:id': ['viewer', 'of a document that shows it (or its uploader); 404 to others'],
  'GET /api/config': ['session', 'the server’s limits'],
  'POST /api/vault/documents': ['session', 'imports documents of one’s own'],
  'GET /api/vault/documents': ['session', 'one’s own documents only'],
  'POST /api/vault/markdown': ['session', 'one’s own documents only, whatever ids are sent'],
  'GET /api/collab': ['session', 'the socket; each document admitted by documentAccess'],
  'ALL /api/*': ['session', 'the 404 of an API endpoint that does not exist'],
  'ALL /assets/*': ['public', 'the 404 of a built asset that does not exist'],
  'GET /*': ['public', 'the app’s pages (without a session: to sign-in) and static files'],
} as const satisfies Record<string, RouteRule>;

/** A route as `METHOD /path`. */
export type DeclaredRoute = keyof typeof ROUTE_ACCESS;
