import { Hono } from 'hono';
import { documentIdSchema } from '../../common/api/documents.ts';
import {
  backlinksQuerySchema,
  renameLinksRequestSchema,
  resolveLinksRequestSchema,
  type BacklinksResponse,
  type RenameLinksResponse,
  type ResolveLinksResponse,
} from '../../common/api/links.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { LinkStore } from '../links/linkStore.ts';
import { limitBody, parseWith, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';

/** Room for the most targets a resolve may ask about, each at its longest. */
const RESOLVE_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The wikilinks API (docs/PRODUCT.md "Markdown"): resolving targets, backlinks, and updating
 * links after a rename; mounted behind `requireSession` and the CSRF check.
 */
export function linkRoutes(services: Services): Hono<AppEnv> {
  const links = new LinkStore(services.db);
  const app = new Hono<AppEnv>();
  const idOf = (raw: string) => {
    const parsed = documentIdSchema.safeParse(raw);
    if (!parsed.success) throw NotFoundError('There is no such document.');
    return parsed.data;
  };

  app.post('/api/links/resolve', limitBody(RESOLVE_BODY_BYTES, 'The request'), async (c) => {
    const { targets } = await readJson(c, resolveLinksRequestSchema);
    const documents = await links.resolve(c.get('session').user.id, targets);
    return c.json<ResolveLinksResponse>({ documents });
  });

  app.get('/api/documents/:id/backlinks', async (c) => {
    const { title } = parseWith(backlinksQuerySchema, c.req.query());
    const user = c.get('session').user.id;
    const backlinks = await links.backlinks(user, idOf(c.req.param('id')), title);
    if (!backlinks) throw NotFoundError('There is no such document.');
    return c.json<BacklinksResponse>({ backlinks });
  });

  app.post('/api/documents/:id/rename-links', limitBody(64 * 1024, 'The request'), async (c) => {
    const { from } = await readJson(c, renameLinksRequestSchema);
    const user = c.get('session').user.id;
    const collab = services.collab;
    // Which documents name the old title is read from stored content: a link typed a moment ago
    // in an open document is found too.
    await collab?.flushOpenedBy(user);
    const result = await links.renameLinks(
      user,
      idOf(c.req.param('id')),
      from,
      collab && ((id, edit) => collab.change(id, edit, user)),
    );
    if (!result) throw NotFoundError('There is no such document.');
    if (result === 'unwritable') {
      throw InvalidRequestError(
        'Links cannot name this title: a wikilink cannot hold [ ] | # or ^, nor an empty title.',
      );
    }
    return c.json<RenameLinksResponse>(result);
  });

  return app;
}
