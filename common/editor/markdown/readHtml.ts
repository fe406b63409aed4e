import type { Token } from 'markdown-it';
import { carriesMarkup, defuseMarkup } from '../html/markup.ts';
import { parseStyle, parseTag, type ParsedTag } from '../html/parseTag.ts';
import { isSafeSize } from '../html/style.ts';
import { isAllowedLinkUrl } from '../url.ts';
import { isNormalisedUrl } from './markdownIt.ts';
import { colorTag, highlightTag, imageTag, isSafeColor, linkTag } from './htmlForms.ts';

/** What an `html_inline` token stands for in the document. */
export type HtmlInlineInfo =
  | { kind: 'mark-open'; mark: string; attrs: Record<string, string | null> }
  | { kind: 'mark-close'; mark: string }
  | { kind: 'drop' }
  | { kind: 'merged'; html: string; end: number }
  | { kind: 'image'; attrs: ImageAttrs };

/** Image attributes as the schema holds them. */
export interface ImageAttrs {
  src: string;
  alt: string | null;
  title: string | null;
  width: string | null;
  height: string | null;
}

const VOID = new Set(['br', 'img', 'hr', 'wbr', 'input', 'source', 'col', 'area', 'embed']);
const SIMPLE_MARKS: Record<string, string> = {
  strong: 'bold',
  em: 'italic',
  s: 'strike',
  u: 'underline',
};

function attrsOf(tag: ParsedTag): Map<string, string> {
  const map = new Map<string, string>();
  for (const attr of tag.attrs) if (!map.has(attr.name)) map.set(attr.name, attr.value);
  return map;
}

/**
 * The mark a tag stands for, when it is written exactly as the serializer writes that mark (so
 * that the file comes back out unchanged); null otherwise.
 */
function markOf(
  raw: string,
  tag: ParsedTag,
): { mark: string; attrs: Record<string, string | null> } | null {
  const simple = SIMPLE_MARKS[tag.name];
  if (simple && raw === `<${tag.name}>`) return { mark: simple, attrs: {} };
  const attrs = attrsOf(tag);
  if (tag.name === 'mark') {
    if (raw === '<mark>') return { mark: 'highlight', attrs: { color: null } };
    const color = parseStyle(attrs.get('style') ?? '').get('background-color') ?? '';
    if (isSafeColor(color) && raw === highlightTag(color))
      return { mark: 'highlight', attrs: { color } };
    return null;
  }
  if (tag.name === 'span') {
    const color = parseStyle(attrs.get('style') ?? '').get('color') ?? '';
    if (isSafeColor(color) && raw === colorTag(color))
      return { mark: 'textStyle', attrs: { color } };
    return null;
  }
  if (tag.name === 'a') {
    const href = attrs.get('href');
    if (href === undefined || !isAllowedLinkUrl(href)) return null;
    const link = {
      href,
      title: attrs.get('title') ?? null,
      target: attrs.get('target') ?? null,
      rel: attrs.get('rel') ?? null,
      class: attrs.get('class') ?? null,
    };
    // A title holding markup is left to the raw-HTML path, whose sanitiser drops it.
    if (link.title !== null && carriesMarkup(link.title)) return null;
    return raw === linkTag(link) ? { mark: 'link', attrs: link } : null;
  }
  return null;
}

/**
 * A link or image title, or an alt text, from Markdown as the document keeps it; null when absent
 * or empty. Markup in it (`"The <!--draft"`) would be written back for other tools to read as a
 * tag, and a stored document may not hold it, so a space goes after each `<` that could open one:
 * every word stays (docs/PRODUCT.md, "Markdown").
 */
export function plainTitle(title: unknown): string | null {
  if (typeof title !== 'string' || !title) return null;
  return carriesMarkup(title) ? defuseMarkup(title) : title;
}

/** Reads an `<img>` written exactly as the serializer writes a sized image; null otherwise. */
export function readImageTag(raw: string): ImageAttrs | null {
  if (!raw.startsWith('<img ')) return null;
  const tag = parseTag(raw);
  if (!tag || tag.name !== 'img' || tag.closing) return null;
  const attrs = attrsOf(tag);
  const src = attrs.get('src');
  if (!src) return null;
  const image: ImageAttrs = {
    src,
    alt: attrs.get('alt') ?? null,
    title: attrs.get('title') ?? null,
    width: attrs.get('width') ?? null,
    height: attrs.get('height') ?? null,
  };
  // Sizes other than pixel counts, and text holding markup, stay raw HTML for the sanitiser.
  const sizes = [image.width, image.height].filter((size) => size !== null);
  if (!sizes.every(isSafeSize)) return null;
  if ([image.alt, image.title].some((text) => text !== null && carriesMarkup(text))) return null;
  // The serializer writes an <img> only for a size or a URL Markdown would rewrite.
  const needsHtml = image.width !== null || image.height !== null || !isNormalisedUrl(src);
  return needsHtml && raw === imageTag(image) ? image : null;
}

/** Reads a block that is a single `<iframe>`: its src and size, for a YouTube embed. */
export function readVideoBlock(
  raw: string,
): { src: string; width: number | null; height: number | null } | null {
  const match = /^(<iframe\b[^>]*>)\s*<\/iframe>$/i.exec(raw.trim());
  if (!match) return null;
  const tag = parseTag(match[1]!);
  if (!tag) return null;
  const attrs = attrsOf(tag);
  const size = (value: string | undefined) =>
    value && /^\d{1,5}$/.test(value) ? Number(value) : null;
  return {
    src: attrs.get('src') ?? '',
    width: size(attrs.get('width')),
    height: size(attrs.get('height')),
  };
}

/** Text inside merged HTML: entities for what Markdown or HTML would read as syntax. */
function escapeMerged(text: string): string {
  return text.replace(/[&<>\\*_`[\]~!|]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Pairs the `html_inline` tokens of one inline run and says what each stands for: a mark (the
 * serializer's own forms), a whole element with only text inside merged into one piece of HTML
 * (`<kbd>Ctrl</kbd>`), a sized image, or nothing (kept as a raw piece of HTML).
 */
export function readHtmlInline(tokens: Token[]): Map<number, HtmlInlineInfo> {
  const info = new Map<number, HtmlInlineInfo>();
  const open: Array<{ index: number; tag: ParsedTag }> = [];
  const pairs: Array<[number, number, ParsedTag]> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'html_inline') continue;
    const tag = parseTag(token.content);
    if (!tag) continue;
    if (tag.closing) {
      for (let k = open.length - 1; k >= 0; k--) {
        if (open[k]!.tag.name === tag.name) {
          pairs.push([open[k]!.index, i, open[k]!.tag]);
          open.length = k;
          break;
        }
      }
    } else if (tag.name === 'img') {
      const image = readImageTag(token.content);
      if (image) info.set(i, { kind: 'image', attrs: image });
    } else if (!tag.selfClosing && !VOID.has(tag.name)) {
      open.push({ index: i, tag });
    }
  }
  pairs.sort((a, b) => a[0] - b[0]);
  let consumedTo = -1;
  for (const [start, end, tag] of pairs) {
    if (start <= consumedTo) continue;
    if (tag.name === 'a' && !isAllowedLinkUrl(attrsOf(tag).get('href') ?? '')) {
      // A rejected link keeps its text and drops the link, as in Markdown.
      info.set(start, { kind: 'drop' });
      info.set(end, { kind: 'drop' });
      continue;
    }
    const mark = markOf(tokens[start]!.content, tag);
    // A mark around raw HTML (`<a href><img></a>`) stays one piece of HTML, shown as written.
    const holdsHtml = tokens.slice(start + 1, end).some((t) => t.type === 'html_inline');
    if (mark && !holdsHtml) {
      info.set(start, { kind: 'mark-open', ...mark });
      info.set(end, { kind: 'mark-close', mark: mark.mark });
      continue;
    }
    let html = tokens[start]!.content;
    let mergeable = true;
    for (let k = start + 1; k < end && mergeable; k++) {
      const t = tokens[k]!;
      if (t.type === 'text') html += escapeMerged(t.content);
      else if (t.type === 'softbreak') html += ' ';
      else if (t.type === 'html_inline') html += t.content;
      else mergeable = false;
    }
    if (!mergeable) continue;
    html += tokens[end]!.content;
    info.set(start, { kind: 'merged', html, end });
    consumedTo = end;
  }
  return info;
}
