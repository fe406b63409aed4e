import { Hono, type Context } from 'hono';
import { documentIdSchema } from '../../common/api/documents.ts';
import { roleAtLeast } from '../../common/api/sharing.ts';
import {
  keepVersionRequestSchema,
  listVersionsQuerySchema,
  nameVersionRequestSchema,
  versionIdSchema,
  type AuthorshipResponse,
  type ListVersionsResponse,
  type VersionResponse,
  type VersionSummaryResponse,
} from '../../common/api/versions.ts';
import { documentRole } from '../documents/access.ts';
import { validateContent } from '../documents/validateContent.ts';
import { YjsStore } from '../collab/yjsStore.ts';
import { NotFoundError } from '../errors.ts';
import { limitBody, parseWith, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';
import { authorshipResponse } from '../versions/authorship.ts';
import { VersionStore, type KeepRequest } from '../versions/versionStore.ts';

/** A version request body is a name or a version id. */
const BODY_BYTES = 4 * 1024;

const missingDocument = () => NotFoundError('There is no such document.');
const missingVersion = () => NotFoundError('The document has no such version.');

/**
 * Version history (docs/PRODUCT.md "Version history"): editors and the owner list, read, keep and
 * name a document's versions, and see who wrote what; anyone else gets the 404 of a missing
 * document. Mounted behind `requireSession` and the CSRF check.
 */
export function versionRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const bodyLimit = limitBody(BODY_BYTES, 'The request');
  const versions = services.collab?.versions ?? new VersionStore(services.db);
  /**
   * Keeps the document as it is now: from its live state through the engine, or, in an app
   * without one, from the stored state.
   */
  const keep = async (id: string, request: KeepRequest) => {
    if (services.collab) return services.collab.keepVersion(id, request);
    const loaded = await new YjsStore(services.db).load(id);
    return loaded ? versions.keep(id, loaded.doc, request) : null;
  };
  /**
   * Who wrote what in the document as it is now: in its live state through the engine, or, in an
   * app without one, in the stored state. Null when the document is gone.
   */
  const authorshipNow = async (id: string) => {
    if (services.collab) {
      return services.collab.readLive(id, async (doc) =>
        authorshipResponse(doc, await versions.writersOf(id)),
      );
    }
    const loaded = await new YjsStore(services.db).load(id);
    return loaded ? authorshipResponse(loaded.doc, await versions.writersOf(id)) : null;
  };
  /** The document of the path, once the caller is found to be its editor or owner. */
  const documentOf = async (c: Context<AppEnv>) => {
    const parsed = documentIdSchema.safeParse(c.req.param('id'));
    if (!parsed.success) throw missingDocument();
    const role = await documentRole(services.db, c.get('session').user.id, parsed.data);
    if (!roleAtLeast(role, 'editor')) throw missingDocument();
    // As the engine names live documents: another spelling would open a second live copy.
    return parsed.data.toLowerCase();
  };
  const versionOf = (c: Context<AppEnv>) => {
    const parsed = versionIdSchema.safeParse(c.req.param('versionId'));
    if (!parsed.success) throw missingVersion();
    return parsed.data;
  };

  app.get('/api/documents/:id/versions', async (c) => {
    const id = await documentOf(c);
    const { before, limit } = parseWith(listVersionsQuerySchema, c.req.query());
    return c.json<ListVersionsResponse>(await versions.list(id, { before, limit }));
  });

  app.get('/api/documents/:id/versions/:versionId', async (c) => {
    const id = await documentOf(c);
    const read = await versions.read(id, versionOf(c));
    if (!read) throw missingVersion();
    // As any stored content is read back (an export does the same): through the sanitiser and
    // the schema, whatever the Yjs state held.
    const { json } = validateContent(read.content, { stored: true });
    return c.json<VersionResponse>({ version: read.version, content: json });
  });

  app.get('/api/documents/:id/authorship', async (c) => {
    const authorship = await authorshipNow(await documentOf(c));
    if (!authorship) throw missingDocument();
    return c.json<AuthorshipResponse>(authorship);
  });

  app.get('/api/documents/:id/versions/:versionId/authorship', async (c) => {
    const id = await documentOf(c);
    const doc = await versions.state(id, versionOf(c));
    if (!doc) throw missingVersion();
    try {
      // The content as the version route reads it: through the sanitiser and the schema.
      return c.json<AuthorshipResponse>(authorshipResponse(doc, await versions.writersOf(id)));
    } finally {
      doc.destroy();
    }
  });

  app.post('/api/documents/:id/versions', bodyLimit, async (c) => {
    const id = await documentOf(c);
    const body = await readJson(c, keepVersionRequestSchema);
    const keptBy = c.get('session').user.id;
    if ('restoring' in body && !(await versions.summary(id, body.restoring))) {
      throw missingVersion();
    }
    const version = await keep(
      id,
      'name' in body ? { kind: 'named', name: body.name, keptBy } : { kind: 'restore', keptBy },
    );
    if (!version) throw missingDocument();
    return c.json<VersionSummaryResponse>({ version }, 201);
  });

  app.patch('/api/documents/:id/versions/:versionId', bodyLimit, async (c) => {
    const id = await documentOf(c);
    const versionId = versionOf(c);
    const { name } = await readJson(c, nameVersionRequestSchema);
    const version = await versions.rename(id, versionId, name, c.get('session').user.id);
    if (!version) throw missingVersion();
    return c.json<VersionSummaryResponse>({ version });
  });

  return app;
}
