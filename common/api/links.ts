import { z } from 'zod';
import { MAX_WIKILINK_CHARS } from '../editor/dialects/wikilink/wikilinkSyntax.ts';
import { MAX_RESOLVE_TARGETS } from '../editor/dialects/wikilink/wikilinkTarget.ts';
import { titleSchema } from './documents.ts';

/**
 * The wikilinks API (docs/PRODUCT.md "Markdown"): which of the writer's documents a link finds,
 * which documents link to one, and updating those links when it is renamed. Only the writer's own
 * documents are ever looked at.
 */

export { MAX_RESOLVE_TARGETS };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A wikilink's target as written (`Title`, `folder/Note.md`); no wikilink holds a control character. */
export const linkTargetSchema = z
  .string()
  .max(MAX_WIKILINK_CHARS, `A link target has at most ${MAX_WIKILINK_CHARS} characters.`)
  .refine((target) => !CONTROL.test(target), 'A link target has no control characters.');

/** `POST /api/links/resolve` — the documents that these targets find. */
export const resolveLinksRequestSchema = z.object({
  targets: z
    .array(linkTargetSchema)
    .max(MAX_RESOLVE_TARGETS, `Ask about at most ${MAX_RESOLVE_TARGETS} targets at once.`),
});
export type ResolveLinksRequest = z.input<typeof resolveLinksRequestSchema>;

/** A document a link finds. */
export const linkedDocumentSchema = z.object({ id: z.string(), title: z.string() });
export type LinkedDocument = z.infer<typeof linkedDocumentSchema>;

/** The answer: for each target asked about, in order, its document or null. */
export const resolveLinksResponseSchema = z.object({
  documents: z.array(linkedDocumentSchema.nullable()),
});
export type ResolveLinksResponse = z.infer<typeof resolveLinksResponseSchema>;

/**
 * `GET /api/documents/:id/backlinks?title=` — the writer's documents that link to this one. With
 * `title`, those whose links found it under that title (its title before a rename).
 */
export const backlinksQuerySchema = z.object({ title: titleSchema.optional() });
export type BacklinksQuery = z.infer<typeof backlinksQuerySchema>;

/** One document that links here. */
export const backlinkSchema = linkedDocumentSchema.extend({
  /** How many of its links point here. */
  links: z.number().int(),
});
export type Backlink = z.infer<typeof backlinkSchema>;

export const backlinksResponseSchema = z.object({ backlinks: z.array(backlinkSchema) });
export type BacklinksResponse = z.infer<typeof backlinksResponseSchema>;

/**
 * `POST /api/documents/:id/rename-links` — the document was renamed from `from`: the links that
 * found it under that title, in the writer's other documents, now name its current title.
 * Documents without Yjs state change in one transaction, each going up a version; in one with
 * Yjs state only the links change, in its live state, merging with what its editors type.
 */
export const renameLinksRequestSchema = z.object({
  from: titleSchema.refine((title) => title !== '', 'Say which title the links use.'),
});
export type RenameLinksRequest = z.input<typeof renameLinksRequestSchema>;

/** What a rename changed. */
export const renameLinksResponseSchema = z.object({
  /** Documents changed. */
  documents: z.number().int(),
  /** Links rewritten in them. */
  links: z.number().int(),
});
export type RenameLinksResponse = z.infer<typeof renameLinksResponseSchema>;
