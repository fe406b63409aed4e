import { z } from 'zod';
import { documentContentSchema } from './documents.ts';

/**
 * Version history (docs/PRODUCT.md "Version history"): a document's past states, kept by the
 * server from its live Yjs state. Editors and the owner see and use history; a viewer, and anyone
 * else, gets the 404 of a missing document on every route here.
 */

/** How a version came to be kept. */
export const VERSION_KINDS = [
  /** By the server: after a pause in editing, when the last writer left, or every 30 minutes. */
  'auto',
  /** By a person, with a name ("Sent to legal"): never thinned. */
  'named',
  /** The state just before someone restored an older version, kept first. */
  'restore',
] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

/** Longest name a version may have. */
export const MAX_VERSION_NAME = 200;

/** A version's name as typed: trimmed, not empty, at most {@link MAX_VERSION_NAME} characters. */
export const versionNameSchema = z
  .string()
  .trim()
  .min(1, 'A version needs a name.')
  .max(MAX_VERSION_NAME, `A version's name has at most ${MAX_VERSION_NAME} characters.`)
  // Control characters would be drawn as nothing or break the list's lines.
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'A version name is one line of text.');

/** A version id as it appears in a path: a positive whole number, as a string. */
export const versionIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,17}$/, { message: 'Not a version id.' });

/** Someone who wrote in a version, as the server recorded them (not a name a client declared). */
export const versionAuthorSchema = z.object({ id: z.string(), name: z.string() });
export type VersionAuthor = z.infer<typeof versionAuthorSchema>;

/** One version as the history panel lists it. */
export const versionSummarySchema = z.object({
  id: z.string(),
  /** When it was kept, ISO. */
  createdAt: z.string(),
  kind: z.enum(VERSION_KINDS),
  /** Its name; null for an automatic version. */
  name: z.string().nullable(),
  /** Who kept it by hand (named, restore); null for an automatic one. */
  keptBy: versionAuthorSchema.nullable(),
  /** The people whose edits are in it since the version before, from the server's own record. */
  authors: z.array(versionAuthorSchema),
  /** Characters written and removed since the version before (the first: its whole text). */
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;

/** Most versions one page of the list holds. */
export const MAX_VERSIONS_PAGE = 100;

/**
 * `GET /api/documents/:id/versions?before=<versionId>&limit=` — versions newest first, a page at
 * a time: `before` is the last id of the page before.
 */
export const listVersionsQuerySchema = z.object({
  before: versionIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_VERSIONS_PAGE).default(50),
});
export type ListVersionsQuery = z.input<typeof listVersionsQuerySchema>;

export const listVersionsResponseSchema = z.object({
  versions: z.array(versionSummarySchema),
  /** The `before` of the next page, or null at the first version. */
  next: z.string().nullable(),
});
export type ListVersionsResponse = z.infer<typeof listVersionsResponseSchema>;

/** `GET /api/documents/:id/versions/:versionId` — one version with its content, to view or export. */
export const versionResponseSchema = z.object({
  version: versionSummarySchema,
  content: documentContentSchema,
});
export type VersionResponse = z.infer<typeof versionResponseSchema>;

/**
 * `POST /api/documents/:id/versions` — keeps the document as it is now (its live state, what was
 * typed a moment ago included): with a name, as a named version; with `restoring`, as the version
 * kept before that version is restored (the editor then applies it as one change of its own, so
 * that it merges with what others type and is one undo step). Answers 201 with the version; when
 * nothing changed since the newest version, that version (named, if a name was given).
 */
export const keepVersionRequestSchema = z.union([
  z.object({ name: versionNameSchema }).strict(),
  z.object({ restoring: versionIdSchema }).strict(),
]);
export type KeepVersionRequest = z.input<typeof keepVersionRequestSchema>;

/** `PATCH /api/documents/:id/versions/:versionId` — names a version, or renames it. */
export const nameVersionRequestSchema = z.object({ name: versionNameSchema }).strict();
export type NameVersionRequest = z.input<typeof nameVersionRequestSchema>;

export const versionSummaryResponseSchema = z.object({ version: versionSummarySchema });
export type VersionSummaryResponse = z.infer<typeof versionSummaryResponseSchema>;

/**
 * Who wrote what (docs/PRODUCT.md "Version history"): `GET /api/documents/:id/authorship` (the
 * document as it is now) and `GET /api/documents/:id/versions/:versionId/authorship`. Each run of
 * text is named by the person whose Yjs client wrote it, from the server's own record.
 */
export const authorshipResponseSchema = z.object({
  content: documentContentSchema,
  /** The people named by `runs`, each once. */
  authors: z.array(versionAuthorSchema),
  /**
   * `[block, from, to, author]` runs, in document order. `block` is the index of a top-level
   * block of `content`; `from` and `to` are ProseMirror positions relative to the start of that
   * block's content (0 is just inside the block node: a paragraph "ab" has its text at 0..2; in
   * a nested list item the opening tokens of the nested nodes count, as ProseMirror counts them).
   * `author` indexes `authors`, or is -1 for text written by a client the server has no record
   * of (shown as "Unknown"). Only text and inline leaf nodes (images, math, hard breaks) have
   * runs; adjacent runs of one author within a block are merged. Text whose place the
   * sanitiser changed (an image it removed from a line) may have none.
   */
  runs: z.array(
    z.tuple([
      z.number().int().nonnegative(),
      z.number().int().nonnegative(),
      z.number().int().nonnegative(),
      z.number().int().min(-1),
    ]),
  ),
});
export type AuthorshipResponse = z.infer<typeof authorshipResponseSchema>;
