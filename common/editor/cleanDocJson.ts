import type { JSONContent } from '@tiptap/core';
import { isAllowedImageUrl, isAllowedLinkUrl, parseYoutubeUrl } from './url.ts';

type Json = Record<string, unknown>;

/** The raw-HTML sanitiser the rules apply (html/sanitize.ts), passed in so it can load lazily. */
export type SanitizeHtml = (html: string) => string;

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
function keepNode(node: Json, sanitizeHtml: SanitizeHtml): boolean {
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

/** `node` with the rules applied: itself when it breaks none, which is the usual case. */
function cleanNode(node: Json, sanitizeHtml: SanitizeHtml): Json {
  // Copied on the first change; no closure for it, as this runs for every node of every save.
  let copy: Json | undefined;
  if (typeof node.type === 'string' && HTML_TYPES.has(node.type)) {
    const html = attr(node, 'html');
    const clean = sanitizeHtml(html);
    if (clean !== html || !isObject(node.attrs)) {
      copy = { ...node, attrs: { ...(isObject(node.attrs) ? node.attrs : {}), html: clean } };
    }
  }
  if (Array.isArray(node.marks)) {
    const marks = node.marks.filter(keepMark);
    if (marks.length < node.marks.length || marks.length === 0) {
      copy ??= { ...node };
      if (marks.length > 0) copy.marks = marks;
      else delete copy.marks;
    }
  }
  if (Array.isArray(node.content)) {
    const content = cleanContent(node.content, sanitizeHtml);
    if (content !== node.content) {
      copy ??= { ...node };
      copy.content = content;
    }
  }
  return copy ?? node;
}

/** Children with the rules applied: the same array when none of them changed. */
function cleanContent(content: unknown[], sanitizeHtml: SanitizeHtml): unknown[] {
  let kept: unknown[] | undefined;
  let wasBlockContainer = false;
  for (let index = 0; index < content.length; index++) {
    const child = content[index];
    let cleaned: unknown[] | undefined;
    if (!isObject(child)) cleaned = [];
    else {
      if (typeof child.type === 'string' && !INLINE_TYPES.has(child.type)) wasBlockContainer = true;
      if (!keepNode(child, sanitizeHtml)) cleaned = replacement(child);
      else {
        const clean = cleanNode(child, sanitizeHtml);
        if (clean !== child) cleaned = [clean];
      }
    }
    if (cleaned && !kept) kept = content.slice(0, index);
    if (kept) kept.push(...(cleaned ?? [child]));
  }
  if (!kept) return content;
  // A quote or cell whose only image was dropped would be invalid empty; an empty line is not.
  return kept.length === 0 && wasBlockContainer ? [{ type: 'paragraph' }] : kept;
}

/**
 * Document JSON from outside (the server, IndexedDB, a file) with the link rule of DESIGN §4
 * applied: link marks with a rejected URL are removed (their text stays), images with a rejected
 * source (an inline one leaves its alt text) and videos that are not YouTube are removed, and raw
 * HTML is sanitised again. Parts that break no rule are shared with `json` (usually all of it), so
 * neither may be changed in place afterwards. Null when `json` is not a document at all. The
 * schema check still has to follow.
 */
export function cleanDocJson(json: unknown, sanitizeHtml: SanitizeHtml): JSONContent | null {
  if (!isObject(json) || json.type !== 'doc') return null;
  const doc = cleanNode(json, sanitizeHtml) as JSONContent;
  if (!doc.content || doc.content.length === 0) return { ...doc, content: [{ type: 'paragraph' }] };
  return doc;
}

/**
 * Whether document JSON holds raw HTML (`htmlBlock`, `htmlInline`) anywhere: only then does
 * {@link cleanDocJson} need the sanitiser, which the browser loads on that need.
 */
export function hasHtmlNodes(json: unknown): boolean {
  if (!isObject(json)) return false;
  if (typeof json.type === 'string' && HTML_TYPES.has(json.type)) return true;
  return Array.isArray(json.content) && json.content.some(hasHtmlNodes);
}
