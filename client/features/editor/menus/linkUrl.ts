import { isAllowedLinkUrl } from '../../../../common/editor/url.ts';

/** Shown when a link points at a scheme that docs/PRODUCT.md "Links and URLs" rejects. */
export const BLOCKED_LINK_MESSAGE =
  'Links to javascript:, vbscript:, file: and data: addresses are blocked because they can run code or read your files.';

/** Shown when the typed address has spaces inside it. */
export const SPACES_LINK_MESSAGE = 'A link address cannot contain spaces.';

/** What the link popover does with what was typed. */
export type LinkInput =
  { kind: 'remove' } | { kind: 'apply'; href: string } | { kind: 'invalid'; message: string };

const EMAIL = /^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$/;
/** A host name with a dot (or localhost), an optional port, then a path, query or fragment. */
const BARE_HOST = /^(?:localhost|[^\s/?#:@]+\.[^\s/?#:@.]+)(?::\d+)?(?:[/?#]|$)/i;

/** Adds the scheme people leave out: `example.com`, `//example.com` and `me@example.com`. */
export function completeHref(value: string): string {
  if (EMAIL.test(value)) return `mailto:${value}`;
  if (value.startsWith('//')) return `https:${value}`;
  if (BARE_HOST.test(value)) return `https://${value}`;
  return value;
}

/**
 * Reads the link popover's field: empty removes the link, a bare domain gets `https://`, an
 * e-mail address gets `mailto:`, and a URL breaking the link rule of docs/PRODUCT.md "Links and
 * URLs" is refused with the reason.
 */
export function parseLinkInput(raw: string): LinkInput {
  const value = raw.trim();
  if (value === '') return { kind: 'remove' };
  if (!isAllowedLinkUrl(value)) return { kind: 'invalid', message: BLOCKED_LINK_MESSAGE };
  if (/\s/.test(value)) return { kind: 'invalid', message: SPACES_LINK_MESSAGE };
  return { kind: 'apply', href: completeHref(value) };
}
