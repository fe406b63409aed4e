import { Hono, type Context } from 'hono';
import {
  createDocumentQuerySchema,
  createDocumentRequestSchema,
  documentIdSchema,
  listDocumentsQuerySchema,
  updateDocumentRequestSchema,
  type CreatedDocumentResponse,
  type DocumentContent,
  type DocumentResponse,
  type ListDocumentsResponse,
} from '../../common/api/documents.ts';
import { serializeMarkdown } from '../../common/editor/markdown/serializeMarkdown.ts';
import { checkCreateState } from '../collab/createState.ts';
import { YjsStore } from '../collab/yjsStore.ts';
import { DocumentStore } from '../documents/documentStore.ts';
import { sweepFiles } from '../files/sweepFiles.ts';
import { documentNode, EMPTY_DOCUMENT, validateContent } from '../documents/validateContent.ts';
import {
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  VersionConflictError,
} from '../errors.ts';
import { formatBytes, limitBody, parseWith, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';

/** Room for the title and the fields around the content in a request body. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The documents API (docs/PRODUCT.md "API and errors"); mounted behind `requireSession` and the
 * CSRF check.
 */
export function documentRoutes(services: Services): Hono<AppEnv> {
  const store = new DocumentStore(services.db);
  const maxBytes = services.config.documentMaxBytes;
  const bodyLimit = limitBody(maxBytes + ENVELOPE_BYTES, 'The document');
  // A create may bring the Yjs state instead: up to twice the limit (as a live document may
  // grow), in base64.
  const createBodyLimit = limitBody(
    Math.ceil((2 * maxBytes * 4) / 3) + ENVELOPE_BYTES,
    'The document',
  );
  const yjsStore = new YjsStore(services.db);
  const app = new Hono<AppEnv>();

  /** Content within the size limit and the editor schema. */
  const checkContent = (content: DocumentContent) => {
    // The body limit has already bounded what validation may be handed.
    const valid = validateContent(content);
    if (Buffer.byteLength(valid.jsonText) > maxBytes) {
      throw PayloadTooLargeError(`The document is larger than ${formatBytes(maxBytes)}.`);
    }
    return valid;
  };
  // A malformed id cannot name a document; answering 404 keeps ids opaque.
  const idOf = (raw: string) => {
    const parsed = documentIdSchema.safeParse(raw);
    if (!parsed.success) throw NotFoundError('There is no such document.');
    return parsed.data;
  };
  // Who asks; what they may do with a document is the stores' question (server/documents/access.ts).
  const userOf = (c: Context<AppEnv>) => c.get('session').user.id;

  app.get('/api/documents', async (c) => {
    const query = parseWith(listDocumentsQuerySchema, c.req.query());
    const documents = await store.list(userOf(c), {
      trash: query.trash === '1',
      search: query.q || undefined,
      shared: query.shared === '1',
    });
    return c.json<ListDocumentsResponse>({ documents });
  });

  app.post('/api/documents', createBodyLimit, async (c) => {
    const { echo } = parseWith(createDocumentQuerySchema, c.req.query());
    const body = await readJson(c, createDocumentRequestSchema);
    if (body.yjsState !== undefined && body.id === undefined) {
      throw InvalidRequestError('A document sent with its shared state needs its id.');
    }
    // With its Yjs state, the content is what the state holds (checked like a live update).
    const state =
      body.yjsState === undefined
        ? undefined
        : checkCreateState(body.yjsState, { maxStateBytes: 2 * maxBytes, content: body.content });
    const content = checkContent(state?.content ?? body.content ?? EMPTY_DOCUMENT);
    const owner = userOf(c);
    const created =
      body.id === undefined
        ? {
            outcome: 'created' as const,
            document: await store.create(owner, body.title, content, body.folder),
          }
        : state
          ? // The row and its state in one transaction: the first open loads it, converting nothing.
            await services.db.transaction(async (tx) => {
              const outcome = await new DocumentStore(tx).createWithId(
                owner,
                body.id!,
                body.title,
                content,
                body.folder,
              );
              // Without live collaboration nothing would keep the state current: JSON only.
              if (outcome.outcome === 'created' && services.collab) {
                await yjsStore.insertNew(tx, body.id!, state.state, owner);
              }
              return outcome;
            })
          : await store.createWithId(owner, body.id, body.title, content, body.folder);
    // The same answer whoever holds the id and whatever it is: nothing about it is revealed.
    if (created.outcome === 'taken') throw InvalidRequestError('This id is taken.');
    const status = created.outcome === 'created' ? 201 : 200;
    if (echo === '0')
      return c.json<CreatedDocumentResponse>({ document: created.document }, status);
    // A repeated create answers with the stored content, which the first request sent.
    const document =
      created.outcome === 'created'
        ? { ...created.document, content: content.json }
        : await store.get(owner, created.document.id);
    if (!document) throw NotFoundError('There is no such document.');
    return c.json<DocumentResponse>({ document }, status);
  });

  /** Live sockets that lost the document close; the change itself is done, so a failure is only logged. */
  const accessChanged = (id: string) =>
    services.collab
      ?.accessChanged(id)
      .catch((error: unknown) =>
        services.logger.warn('Closing revoked live connections failed.', { err: error }),
      );

  /** The document as stored, after what its live editors typed on this instance was stored too. */
  const current = async (c: Context<AppEnv>) => {
    const id = idOf(c.req.param('id') ?? '');
    const document = await store.get(userOf(c), id);
    if (document && services.collab) {
      await services.collab.flush(id);
      return store.get(userOf(c), id);
    }
    return document;
  };

  app.get('/api/documents/:id', async (c) => {
    const document = await current(c);
    if (!document) throw NotFoundError('There is no such document.');
    return c.json<DocumentResponse>({ document });
  });

  app.patch('/api/documents/:id', bodyLimit, async (c) => {
    const id = idOf(c.req.param('id'));
    const body = await readJson(c, updateDocumentRequestSchema);
    const content = body.content ? checkContent(body.content) : undefined;
    const saved = await store.update(userOf(c), id, {
      baseVersion: body.baseVersion,
      title: body.title,
      content,
      // A live document's content is its Yjs state: the new content goes in as a change to it.
      unlessLive: content !== undefined && services.collab !== undefined,
    });
    if (saved.outcome === 'missing')
      throw NotFoundError('The document was deleted or moved to the trash.');
    if (saved.outcome === 'stale') throw VersionConflictError(saved.current);
    if (saved.outcome === 'live' && content) {
      await services.collab!.applyContent(id, content.json, userOf(c));
      const after = await store.get(userOf(c), id);
      if (!after) throw NotFoundError('The document was deleted or moved to the trash.');
      return c.json({ id, version: after.version, updatedAt: after.updatedAt });
    }
    return c.json(saved.result);
  });

  app.delete('/api/documents/:id', async (c) => {
    const id = idOf(c.req.param('id'));
    if (!(await store.trash(userOf(c), id))) {
      throw NotFoundError('There is no such document.');
    }
    // Nobody may keep editing a document in the trash, on any instance (admission refuses it too).
    await accessChanged(id);
    return c.body(null, 204);
  });

  app.post('/api/documents/:id/restore', async (c) => {
    const restored = await store.restore(userOf(c), idOf(c.req.param('id')));
    if (!restored) throw NotFoundError('There is no such document in the trash.');
    return c.json(restored);
  });

  app.delete('/api/documents/:id/permanent', async (c) => {
    const id = idOf(c.req.param('id'));
    const outcome = await store.purge(userOf(c), id);
    if (outcome === 'missing') throw NotFoundError('There is no such document.');
    if (outcome === 'live') throw InvalidRequestError('Move the document to the trash first.');
    await accessChanged(id);
    // Its images go now, not at the hourly sweep, unless another document (or the trash) holds them.
    sweepFiles(services.db, services.files).catch((error: unknown) =>
      services.logger.warn('Sweeping files failed.', { err: error }),
    );
    return c.body(null, 204);
  });

  app.get('/api/documents/:id/export.md', async (c) => {
    const document = await current(c);
    if (!document) throw NotFoundError('There is no such document.');
    const markdown = serializeMarkdown(
      documentNode(validateContent(document.content, { stored: true })),
    );
    const name = fileNameOf(document.title);
    c.header('Content-Type', 'text/markdown; charset=utf-8');
    c.header(
      'Content-Disposition',
      `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    c.header('Cache-Control', 'no-store');
    return c.body(markdown);
  });

  return app;
}

/** A file name from a title: characters file systems refuse become spaces; "Untitled" if none is left. */
export function fileNameOf(title: string): string {
  const cleaned = title
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 120);
  return `${cleaned || 'Untitled'}.md`;
}
