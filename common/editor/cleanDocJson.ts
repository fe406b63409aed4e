import type { JSONContent } from '@tiptap/core';
import { MAX_DEPTH } from '../api/limits.ts';
import { attributeTypeProblem, schemaAttributes } from './attributeTypes.ts';
import { countsAsLevel, documentTooDeep } from './documentDepth.ts';
import { safeAttrs } from './safeAttrs.ts';
import { isAllowedImageUrl, isAllowedLinkUrl, parseYoutubeUrl } from './url.ts';
import {
  isWellFormedWikilink,
  wikilinkParts,
  wikilinkSource,
} from './dialects/wikilink/wikilinkSyntax.ts';

type Json = Record<string, unknown>;

/** The raw-HTML sanitiser the rules apply (html/sanitize.ts), passed in so it can load lazily. */
export type SanitizeHtml = (html: string) => string;

/** Options of {@link cleanDocJson}. */
export interface CleanOptions {
  /**
   * What becomes of an attribute of the wrong type (attributeTypes.ts): `repair` (the default)
   * reads it as its type or leaves it out, so that its default applies, as for content that may
   * predate the rule; `refuse` throws {@link AttributeTypeError}, for content coming in.
   */
  wrongTypes?: 'repair' | 'refuse';
}

/** An attribute of the wrong type in content that {@link cleanDocJson} was told to refuse it in. */
export class AttributeTypeError extends TypeError {
  override name = 'AttributeTypeError';
}

/** What one walk needs at every node: passed down rather than closed over, as it runs per node. */
interface Walk {
  sanitizeHtml: SanitizeHtml;
  refuse: boolean;
}

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

/**
 * Whether a node may stay: images and videos must pass the URL rule of docs/PRODUCT.md "Links and
 * URLs".
 */
function keepNode(node: Json, sanitizeHtml: SanitizeHtml): boolean {
  if (typeof node.type !== 'string') return false;
  if (IMAGE_TYPES.has(node.type)) return isAllowedImageUrl(attr(node, 'src'));
  if (node.type === 'youtube') return parseYoutubeUrl(attr(node, 'src')) !== null;
  if (HTML_TYPES.has(node.type)) return sanitizeHtml(attr(node, 'html')) !== '';
  if (node.type === 'wikilink') return isObject(node.attrs) && isWellFormedWikilink(node.attrs);
  return true;
}

/**
 * A rejected image inside a line leaves its alt text, as a rejected link leaves its text; a
 * rejected wikilink leaves its source, as an import would have read it.
 */
function replacement(node: Json): Json[] {
  if (node.type === 'wikilink') {
    return [
      { type: 'text', text: wikilinkSource(wikilinkParts(isObject(node.attrs) ? node.attrs : {})) },
    ];
  }
  const alt = node.type === 'inlineImage' ? attr(node, 'alt') : '';
  return alt ? [{ type: 'text', text: alt }] : [];
}

/**
 * A node or mark with its attributes as the schema has them: unknown ones dropped, wrong types
 * repaired or refused (see {@link CleanOptions}). Before every other rule, which can then take a
 * string for a string.
 */
function typed<T>(item: T, walk: Walk): T {
  if (!isObject(item) || typeof item.type !== 'string' || !isObject(item.attrs)) return item;
  if (walk.refuse) {
    const problem = attributeTypeProblem(item.type, item.attrs);
    if (problem) throw new AttributeTypeError(problem);
  }
  const attrs = schemaAttributes(item.type, item.attrs, !walk.refuse);
  return attrs === item.attrs ? item : ({ ...item, attrs } as T);
}

/** A link mark whose target breaks the rule is dropped; its text stays. */
function keepMark(mark: unknown): mark is Json {
  if (!isObject(mark) || typeof mark.type !== 'string') return false;
  return mark.type !== 'link' || isAllowedLinkUrl(attr(mark, 'href'));
}

/** A mark with attribute values that could reach a style or the export as markup set to null. */
function cleanMark(mark: Json): Json {
  if (typeof mark.type !== 'string' || !isObject(mark.attrs)) return mark;
  const attrs = safeAttrs(mark.type, mark.attrs);
  return attrs === mark.attrs ? mark : { ...mark, attrs };
}

/** Thrown inside the walk when it passes {@link MAX_DEPTH}, before the call stack could run out. */
const TOO_DEEP = Symbol('too deep');

/**
 * `node`, at `depth` levels (as MAX_DEPTH counts them), with the rules applied: itself when it
 * breaks none, which is the usual case.
 */
function cleanNode(node: Json, depth: number, walk: Walk): Json {
  // Copied on the first change; no closure for it, as this runs for every node of every save.
  let copy: Json | undefined;
  if (typeof node.type === 'string' && HTML_TYPES.has(node.type)) {
    const html = attr(node, 'html');
    const clean = walk.sanitizeHtml(html);
    if (clean !== html || !isObject(node.attrs)) {
      copy = { ...node, attrs: { ...(isObject(node.attrs) ? node.attrs : {}), html: clean } };
    }
  } else if (typeof node.type === 'string' && isObject(node.attrs)) {
    const attrs = safeAttrs(node.type, node.attrs);
    if (attrs !== node.attrs) copy = { ...node, attrs };
  }
  if (Array.isArray(node.marks)) {
    const source: unknown[] = node.marks;
    const marks = source
      .map((mark) => typed(mark, walk))
      .filter(keepMark)
      .map(cleanMark);
    const changed = marks.length < source.length || marks.some((mark, i) => mark !== source[i]);
    if (changed || marks.length === 0) {
      copy ??= { ...node };
      if (marks.length > 0) copy.marks = marks;
      else delete copy.marks;
    }
  }
  if (Array.isArray(node.content)) {
    const content = cleanContent(node.content, node.type, depth, walk);
    if (content !== node.content) {
      copy ??= { ...node };
      copy.content = content;
    }
  }
  return copy ?? node;
}

/** Children of a node at `parentDepth`, with the rules applied: the same array when none changed. */
function cleanContent(
  content: unknown[],
  parentType: unknown,
  parentDepth: number,
  walk: Walk,
): unknown[] {
  let kept: unknown[] | undefined;
  let wasBlockContainer = false;
  for (let index = 0; index < content.length; index++) {
    const child = content[index];
    let cleaned: unknown[] | undefined;
    if (!isObject(child)) cleaned = [];
    else {
      if (typeof child.type === 'string' && !INLINE_TYPES.has(child.type)) wasBlockContainer = true;
      const node = typed(child, walk);
      if (!keepNode(node, walk.sanitizeHtml)) cleaned = replacement(node);
      else {
        const depth = countsAsLevel(node, parentType) ? parentDepth + 1 : parentDepth;
        if (depth > MAX_DEPTH) throw TOO_DEEP;
        const clean = cleanNode(node, depth, walk);
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
 * Document JSON from outside (the server, IndexedDB, a file) with the link rule of docs/PRODUCT.md
 * "Links and URLs" applied: link marks with a rejected URL are removed (their text stays), images
 * with a rejected source (an inline one leaves its alt text) and videos that are not YouTube are
 * removed, and raw HTML is sanitised again. Attributes the schema does not have are dropped, and
 * those of the wrong type repaired or refused (`options`). Parts that break no rule are shared
 * with `json` (usually all of it), so neither may be changed in place afterwards. Null when
 * `json` is not a document at all; throws `DocumentTooDeepError` when it nests deeper than
 * MAX_DEPTH (docs/limits.md), rather than overflowing the call stack. The schema check still has
 * to follow.
 */
export function cleanDocJson(
  json: unknown,
  sanitizeHtml: SanitizeHtml,
  options: CleanOptions = {},
): JSONContent | null {
  if (!isObject(json) || json.type !== 'doc') return null;
  const walk: Walk = { sanitizeHtml, refuse: options.wrongTypes === 'refuse' };
  let doc: JSONContent;
  try {
    doc = cleanNode(json, 0, walk) as JSONContent;
  } catch (error) {
    if (error === TOO_DEEP) throw documentTooDeep(json);
    throw error;
  }
  if (!doc.content || doc.content.length === 0) return { ...doc, content: [{ type: 'paragraph' }] };
  return doc;
}

/**
 * Whether document JSON holds raw HTML (`htmlBlock`, `htmlInline`) anywhere: only then does
 * {@link cleanDocJson} need the sanitiser, which the browser loads on that need. Walks with a
 * stack of its own, as the JSON has not passed the depth limit yet.
 */
export function hasHtmlNodes(json: unknown): boolean {
  const pending: unknown[] = [json];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isObject(node)) continue;
    if (typeof node.type === 'string' && HTML_TYPES.has(node.type)) return true;
    if (Array.isArray(node.content)) pending.push(...(node.content as unknown[]));
  }
  return false;
}
