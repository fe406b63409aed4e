import { z } from 'zod';

/**
 * Sharing (docs/PRODUCT.md "Sharing"): people brought into a document with a role, a link for
 * people who sign in, and a published page anyone may read. Only the owner manages any of it.
 */

/** Roles in order: each may do what the ones before it may. The owner's is never granted. */
export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an owner can give: to a person, or to everyone who comes through the link. */
export const grantedRoleSchema = z.enum(['viewer', 'editor'], {
  message: 'A role is viewer or editor.',
});
export type GrantedRole = z.infer<typeof grantedRoleSchema>;

/** Whether `role` may do what `needed` may (a missing role may do nothing). */
export function roleAtLeast(role: Role | null | undefined, needed: Role): boolean {
  return role !== null && role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** The higher of two roles; a missing one counts for nothing. */
export function higherRole(a: Role | null, b: Role | null): Role | null {
  if (a === null) return b;
  if (b === null) return a;
  return ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b;
}

/** An e-mail address as typed into the share dialog. */
export const emailSchema = z
  .string()
  .trim()
  .max(320, 'An e-mail address has at most 320 characters.')
  .pipe(z.email({ message: 'Not an e-mail address.' }));

/** `GET /api/people?email=` — the account with exactly this address, to show before sharing. */
export const findPersonQuerySchema = z.object({ email: emailSchema });

/** A person with an account here, as the share dialog shows them. */
export const personSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
});
export type Person = z.infer<typeof personSchema>;

export const findPersonResponseSchema = z.object({ person: personSchema });
export type FindPersonResponse = z.infer<typeof findPersonResponseSchema>;

/** Someone the document is shared with. */
export const shareSchema = personSchema.extend({ role: grantedRoleSchema });
export type Share = z.infer<typeof shareSchema>;

/** The document's link for people who sign in; the address is shown to the owner only. */
export const shareLinkSchema = z.object({
  role: grantedRoleSchema,
  /** The whole address to copy, `<origin>/s/<token>`. */
  url: z.string(),
  createdAt: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** The published page, when there is one. */
export const publishedPageSchema = z.object({
  /** The whole address, `<origin>/p/<token>`. */
  url: z.string(),
  /** Whether search engines may index it; off unless the owner turns it on. */
  indexable: z.boolean(),
  /** When it stops being served, or null for never. */
  expiresAt: z.string().nullable(),
  publishedAt: z.string(),
});
export type PublishedPage = z.infer<typeof publishedPageSchema>;

/**
 * `GET /api/documents/:id/sharing` (owner only; 404 for anyone else) and the answer to every
 * change below: who has the document, its link and its published page.
 */
export const sharingStateSchema = z.object({
  owner: personSchema,
  people: z.array(shareSchema),
  link: shareLinkSchema.nullable(),
  published: publishedPageSchema.nullable(),
});
export type SharingState = z.infer<typeof sharingStateSchema>;

/** `PUT /api/documents/:id/sharing/people` — shares with the account of `email`, or changes its role. */
export const sharePersonRequestSchema = z.object({ email: emailSchema, role: grantedRoleSchema });
export type SharePersonRequest = z.input<typeof sharePersonRequestSchema>;

/** `PATCH /api/documents/:id/sharing/people/:userId` — a new role for someone already in. */
export const changeRoleRequestSchema = z.object({ role: grantedRoleSchema });
export type ChangeRoleRequest = z.input<typeof changeRoleRequestSchema>;

/**
 * `PUT /api/documents/:id/sharing/link` — turns the link on with this role, or changes the role
 * of the link there is (its address stays). `POST .../link/reset` makes a new address, which
 * stops the old one and everyone who came in through it; `DELETE .../link` turns it off.
 */
export const setLinkRequestSchema = z.object({ role: grantedRoleSchema });
export type SetLinkRequest = z.input<typeof setLinkRequestSchema>;

/** Longest expiry an owner may set from now: ten years. */
export const MAX_PUBLISH_DAYS = 3650;

/**
 * `PUT /api/documents/:id/sharing/publish` — publishes the document, or changes the published
 * page's settings (its address stays); `DELETE .../publish` unpublishes at once.
 */
export const publishRequestSchema = z.object({
  indexable: z.boolean().default(false),
  /** An ISO time in the future, or null for no expiry. */
  expiresAt: z.iso
    .datetime({ offset: true, message: 'An expiry is a date and time.' })
    .nullable()
    .default(null),
});
export type PublishRequest = z.input<typeof publishRequestSchema>;

/** A link or page token as it appears in an address: 43 characters of base64url (256 bits). */
export const shareTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'Not a share link.' });

/** `POST /api/share-links/join` — the signed-in person comes in through a document's link. */
export const joinLinkRequestSchema = z.object({ token: shareTokenSchema });
export type JoinLinkRequest = z.input<typeof joinLinkRequestSchema>;

export const joinLinkResponseSchema = z.object({ documentId: z.string(), role: z.enum(ROLES) });
export type JoinLinkResponse = z.infer<typeof joinLinkResponseSchema>;
