import { isAllowedImageUrl, isAllowedLinkUrl } from '../url.ts';
import { attrValue } from './decode.ts';
import { carriesMarkup, defuseMarkup } from './markup.ts';
import { isAllowedSrcset } from './srcset.ts';
import { filterStyle } from './style.ts';
import type { AttrSpan, TagToken } from './tokenize.ts';

/**
 * `value` for a double-quoted attribute. A `<` stays as it is: after defuseMarkup none of them
 * opens markup, and a browser reads it as itself.
 */
function quoted(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

/** Attribute names made only of these characters; anything else is a parse-error artefact. */
const ATTR_NAME = /^[a-z0-9_:.-]+$/;
/** Attributes that run, submit, change parsing, or put an element in the page's top layer. */
const DROPPED_ATTRS = new Set([
  'srcdoc',
  'formaction',
  'action',
  'xmlns',
  'is',
  'xml:base',
  'popover',
  'popovertarget',
  'popovertargetaction',
]);
const LINK_ATTRS = new Set(['href', 'cite', 'longdesc', 'xlink:href', 'data']);
const IMAGE_ATTRS = new Set(['src', 'poster', 'background', 'dynsrc', 'lowsrc']);
/** `<source>` may only describe an image candidate of a `<picture>`. */
const SOURCE_ATTRS = new Set(['srcset', 'media', 'type', 'width', 'height']);

/**
 * How attribute `attr` of element `element` is written out: as is, rewritten, or not (null).
 * `defuse`: a text value holding markup is kept defused rather than dropped (Markdown import).
 */
function sanitizeAttr(
  src: string,
  element: string,
  attr: AttrSpan,
  defuse: boolean,
): string | null {
  const { name } = attr;
  const raw = src.slice(attr.start, attr.end);
  if (!ATTR_NAME.test(name) || name.startsWith('on') || name.startsWith('xmlns:')) return null;
  if (DROPPED_ATTRS.has(name)) return null;
  if (element === 'source' && !SOURCE_ATTRS.has(name)) return null;
  const value = attrValue(src, attr);
  const isUrl = LINK_ATTRS.has(name) || IMAGE_ATTRS.has(name) || name === 'srcset';
  if (carriesMarkup(value)) {
    // A URL or a style holding markup is no URL or style worth keeping; text is (a title, an alt).
    if (!defuse || isUrl || name === 'style') return null;
    return `${src.slice(attr.start, attr.start + name.length)}="${quoted(defuseMarkup(value))}"`;
  }
  // Browsers read NUL as U+FFFD, but a reader that strips it would see `java\0script:` run.
  if (isUrl && src.slice(attr.valueStart, attr.valueEnd).includes('\0')) return null;
  if (LINK_ATTRS.has(name)) return isAllowedLinkUrl(value) ? raw : null;
  if (IMAGE_ATTRS.has(name)) return isAllowedImageUrl(value) ? raw : null;
  if (name === 'srcset') return isAllowedSrcset(value) ? raw : null;
  if (name === 'style') {
    const filtered = filterStyle(element, value);
    if (filtered.unchanged) return raw;
    // The declarations kept hold no quote or ampersand (see filterStyle).
    return filtered.style ? `${src.slice(attr.start, attr.start + 5)}="${filtered.style}"` : null;
  }
  return raw;
}

/**
 * An allowed element's tag: as written if every attribute stays, else rebuilt from those that do.
 * `defuse`: see sanitizeAttr.
 */
export function sanitizeTag(src: string, tag: TagToken, defuse = false): string {
  const name = src.slice(tag.start + (tag.closing ? 2 : 1), tag.nameEnd);
  // Browsers ignore attributes on end tags, so none are worth keeping.
  if (tag.closing) return tag.attrs.length === 0 ? src.slice(tag.start, tag.end) : `</${name}>`;
  let same = true;
  const kept: string[] = [];
  for (const attr of tag.attrs) {
    const out = sanitizeAttr(src, tag.name, attr, defuse);
    if (out !== src.slice(attr.start, attr.end)) same = false;
    if (out !== null) kept.push(` ${out}`);
  }
  if (same) return src.slice(tag.start, tag.end);
  // The space keeps the slash out of an unquoted value before it.
  return `<${name}${kept.join('')}${tag.selfClosing ? ' /' : ''}>`;
}
