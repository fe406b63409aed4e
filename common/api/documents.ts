import { z } from 'zod';
import { folderProblem } from '../vault/folderPath.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { ROLES } from './sharing.ts';

/**
 * A document's content as it travels: ProseMirror JSON with a `doc` at the top. Only the outline
 * is checked here; the server checks the rest against the editor schema (422 `invalid_document`).
 */
export const documentContentSchema = z.looseObject({
  type: z.literal('doc'),
  content: z.array(z.unknown()).optional(),
});

/** A document's content. */
export type DocumentContent = z.infer<typeof documentContentSchema>;

/** A title: any text up to the limit, spaces at the ends trimmed. */
export const titleSchema = z
  .string()
  .trim()
  .max(DEFAULT_LIMITS.titleChars, `A title has at most ${DEFAULT_LIMITS.titleChars} characters.`);

/**
 * A folder path such as `Projects/2026` ('' for the top): never absolute, never `..`, no control
 * characters, bounded in length and depth (common/vault/folderPath.ts has the rules).
 */
export const folderSchema = z.string().superRefine((folder, context) => {
  const problem = folderProblem(folder);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** A document id in a path. */
export const documentIdSchema = z.uuid({ message: 'Not a document id.' });

/** One row of the sidebar or the trash. */
export const documentSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Its folder path, '' (or absent, from an older server) at the top. */
  folder: z.string().optional(),
  /** The first words of the text, for the list. */
  excerpt: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When it went to the trash; null for a live document. */
  deletedAt: z.string().nullable(),
  /** The reader's role in it (docs/PRODUCT.md "Sharing"); absent means the reader owns it. */
  role: z.enum(ROLES).optional(),
  /** Whose it is, when that is not the reader: someone shared it with them. */
  owner: z.object({ name: z.string(), email: z.string() }).optional(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

/** A document without its content: what a create answers when the content is not echoed. */
export const documentMetaSchema = documentSummarySchema.omit({ excerpt: true });
export type DocumentMeta = z.infer<typeof documentMetaSchema>;

/** A whole document. */
export const documentSchema = documentMetaSchema.extend({
  content: documentContentSchema,
});
export type DocumentRecord = z.infer<typeof documentSchema>;

/** `GET /api/documents?q=&trash=1` — most recently changed first. */
export const listDocumentsQuerySchema = z.object({
  /** Full-text search over titles and text. */
  q: z.string().trim().max(500, 'A search has at most 500 characters.').optional(),
  /** `1` lists the trash instead of the live documents. */
  trash: z.enum(['0', '1']).optional(),
  /**
   * `1` lists the documents others shared with the reader (each with `role` and `owner`) instead
   * of the reader's own. A search (`q`) looks through both.
   */
  shared: z.enum(['0', '1']).optional(),
});
export type ListDocumentsQuery = z.infer<typeof listDocumentsQuerySchema>;

export const listDocumentsResponseSchema = z.object({
  documents: z.array(documentSummarySchema),
});
export type ListDocumentsResponse = z.infer<typeof listDocumentsResponseSchema>;

/**
 * `POST /api/documents` — a new document, empty or with content (an imported file). With an `id`
 * chosen by the client the create can be repeated safely: if that writer already has a document
 * under the id, the answer is 200 with it, and nothing is written.
 */
export const createDocumentRequestSchema = z.object({
  /** The new document's id (a random UUID); the server picks one when absent. */
  id: documentIdSchema.optional(),
  title: titleSchema.default(''),
  content: documentContentSchema.optional(),
  /**
   * The document's Yjs state (one update, base64), from a tab that made the document and is
   * editing it live already: the server checks it like any live update, derives the content from
   * it and stores both, so the first open needs no conversion (docs/ARCHITECTURE.md "Live
   * collaboration"). With `content` too, both must hold the same document.
   */
  yjsState: z.base64('Not base64.').optional(),
  /** The folder to create it in; the top when absent. */
  folder: folderSchema.default(''),
});
export type CreateDocumentRequest = z.input<typeof createDocumentRequestSchema>;

/** `POST /api/documents?echo=0`: no content in the answer (the client has it: megabytes, maybe). */
export const createDocumentQuerySchema = z.object({
  /** `0` answers with {@link createdDocumentResponseSchema}, without the content. */
  echo: z.enum(['0', '1']).optional(),
});
export type CreateDocumentQuery = z.infer<typeof createDocumentQuerySchema>;

/** The answer to `POST /api/documents?echo=0`. */
export const createdDocumentResponseSchema = z.object({ document: documentMetaSchema });
export type CreatedDocumentResponse = z.infer<typeof createdDocumentResponseSchema>;

/**
 * `PATCH /api/documents/:id` — a save. `baseVersion` is the version the edit started from; if the
 * server has moved on, the answer is 409 `version_conflict` with the server's copy as `current`.
 */
export const updateDocumentRequestSchema = z
  .object({
    baseVersion: z.number().int().positive(),
    title: titleSchema.optional(),
    content: documentContentSchema.optional(),
  })
  .refine((body) => body.title !== undefined || body.content !== undefined, {
    message: 'Send a title, content, or both.',
  });
export type UpdateDocumentRequest = z.input<typeof updateDocumentRequestSchema>;

/** The answer to a save: the new version, without echoing the content back. */
export const saveResultSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type SaveResult = z.infer<typeof saveResultSchema>;

export const documentResponseSchema = z.object({ document: documentSchema });
export type DocumentResponse = z.infer<typeof documentResponseSchema>;

/** The `current` field of a 409: the server's copy to choose against. */
export const versionConflictSchema = z.object({
  error: z.looseObject({ code: z.literal('version_conflict'), current: documentSchema }),
});
