import { z } from 'zod';
import { documentContentSchema, documentIdSchema, folderSchema, titleSchema } from './documents.ts';

/** Most documents in one `POST /api/vault/documents`; the client sends a vault in batches. */
export const VAULT_BATCH_DOCUMENTS = 200;
/** Most documents whose Markdown one `POST /api/vault/markdown` asks for. */
export const VAULT_EXPORT_BATCH = 100;

/** One document of an imported vault, under an id the client chose (so a retry is harmless). */
export const vaultDocumentSchema = z.object({
  id: documentIdSchema,
  title: titleSchema,
  folder: folderSchema,
  content: documentContentSchema,
});
export type VaultDocument = z.input<typeof vaultDocumentSchema>;

/** `POST /api/vault/documents` — a batch of an import. */
export const vaultImportRequestSchema = z.object({
  documents: z
    .array(vaultDocumentSchema)
    .min(1, 'Send at least one document.')
    .max(VAULT_BATCH_DOCUMENTS, `Send at most ${VAULT_BATCH_DOCUMENTS} documents at a time.`),
});

/** What became of one document of a batch. */
export const vaultImportResultSchema = z.object({
  id: z.string(),
  /** `created`; `existing` (a repeated batch; nothing written); `refused` (see `message`). */
  outcome: z.enum(['created', 'existing', 'refused']),
  /** Why it was refused, as a sentence for people. */
  message: z.string().optional(),
});
export type VaultImportResult = z.infer<typeof vaultImportResultSchema>;

/** The answer to `POST /api/vault/documents`: one result per document sent, in order. */
export const vaultImportResponseSchema = z.object({ results: z.array(vaultImportResultSchema) });
export type VaultImportResponse = z.infer<typeof vaultImportResponseSchema>;

/** `GET /api/vault/documents?folder=` — what an export writes: live documents in a folder and below. */
export const vaultListQuerySchema = z.object({
  /** The folder to export; everything when absent or ''. */
  folder: folderSchema.optional(),
});

/** A document as an export names it. */
export const vaultEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  folder: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VaultEntry = z.infer<typeof vaultEntrySchema>;

export const vaultListResponseSchema = z.object({ documents: z.array(vaultEntrySchema) });
export type VaultListResponse = z.infer<typeof vaultListResponseSchema>;

/** `POST /api/vault/markdown` — the Markdown of a batch of documents. */
export const vaultMarkdownRequestSchema = z.object({
  ids: z
    .array(documentIdSchema)
    .min(1, 'Ask for at least one document.')
    .max(VAULT_EXPORT_BATCH, `Ask for at most ${VAULT_EXPORT_BATCH} documents at a time.`),
});

/**
 * The answer: each live document asked for that exists (a missing one is left out), up to about
 * 2 MB of Markdown; `later` lists the ids left for another request, so that one request never
 * holds the server's thread for long.
 */
export const vaultMarkdownResponseSchema = z.object({
  files: z.array(
    z.object({
      id: z.string(),
      markdown: z.string(),
      /**
       * The images its embeds show (`![[diagram.png]]` of an imported vault): each target as
       * written and the uploaded file's address, which the Markdown does not hold; absent when
       * there are none.
       */
      embeds: z.array(z.object({ target: z.string(), src: z.string() })).optional(),
    }),
  ),
  later: z.array(z.string()),
});
export type VaultMarkdownResponse = z.infer<typeof vaultMarkdownResponseSchema>;
