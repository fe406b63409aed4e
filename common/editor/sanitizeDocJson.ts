import type { JSONContent } from '@tiptap/core';
import { sanitizeHtml } from './html/sanitize.ts';
import { isAllowedImageUrl, isAllowedLinkUrl, parseYoutubeUrl } from './url.ts';

type Json = Record<string, unknown>;

const INLINE_TYPES = new Set(['text', 'inlineImage', 'htmlInline', 'hardBreak']);
const IMAGE_TYPES = new Set(['image', 'inlineImage']);
const HTML_TYPES = new Set(['htmlBlock', 'htmlInline']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function attr(node: Json, name: string): string {
  const attrs = node.attrs;
  const value = isObject(attrs) ? attrs[name] : undefined;
  return typeof value === 'string' ? value : '';
}

/** Whether a node may stay: images and videos must pass the URL rule of DESIGN §4. */
function keepNode(node: Json): boolean {
  if (typeof node.type !== 'string') return false;
  if (IMAGE_TYPES.has(node.type)) return isAllowedImageUrl(attr(node, 'src'));
  if (node.type === 'youtube') return parseYoutubeUrl(attr(node, 'src')) !== null;
  if (HTML_TYPES.has(node.type)) return sanitizeHtml(attr(node, 'html')) !== '';
  return true;
}

/** A rejected image inside a line leaves its alt text, as a rejected link leaves its text. */
function replacement(node: Json): Json[] {
  const alt = node.type === 'inlineImage' ? attr(node, 'alt') : '';
  return alt ? [{ type: 'text', text: alt }] : [];
}

/** A link mark whose target breaks the rule is dropped; its text stays. */
function keepMark(mark: unknown): boolean {
  if (!isObject(mark) || typeof mark.type !== 'string') return false;
  return mark.type !== 'link' || isAllowedLinkUrl(attr(mark, 'href'));
}

function cleanNode(node: Json): JSONContent {
  const copy: Json = { ...node };
  if (typeof node.type === 'string' && HTML_TYPES.has(node.type)) {
    copy.attrs = {
      ...(isObject(node.attrs) ? node.attrs : {}),
      html: sanitizeHtml(attr(node, 'html')),
    };
  }
  if (Array.isArray(node.marks)) {
    const marks = node.marks.filter(keepMark);
    if (marks.length > 0) copy.marks = marks;
    else delete copy.marks;
  }
  if (Array.isArray(node.content)) {
    const children = node.content.filter(isObject);
    const kept = children.flatMap((child) =>
      keepNode(child) ? [cleanNode(child)] : (replacement(child) as JSONContent[]),
    );
    const wasBlockContainer = children.some(
      (child) => typeof child.type === 'string' && !INLINE_TYPES.has(child.type),
    );
    // A quote or cell whose only image was dropped would be invalid empty; an empty line is not.
    copy.content = kept.length === 0 && wasBlockContainer ? [{ type: 'paragraph' }] : kept;
  }
  return copy as JSONContent;
}

/**
 * A copy of document JSON from outside (the server, IndexedDB, a file) with the link rule of
 * DESIGN §4 applied: link marks with a rejected URL are removed (their text stays), images with a
 * rejected source (an inline one leaves its alt text) and videos that are not YouTube are
 * removed, and raw HTML is sanitised again. Null when `json` is not a document at all. The schema
 * check (`schema.nodeFromJSON(...).check()`) still has to follow.
 */
export function sanitizeDocJson(json: unknown): JSONContent | null {
  if (!isObject(json) || json.type !== 'doc') return null;
  const doc = cleanNode(json);
  if (!doc.content || doc.content.length === 0) doc.content = [{ type: 'paragraph' }];
  return doc;
}
