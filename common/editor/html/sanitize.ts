import { isAllowedImageUrl, isAllowedLinkUrl } from '../url.ts';
import { attrValue } from './decode.ts';
import { HtmlTokenizer, type AttrSpan, type TagToken } from './tokenize.ts';

/**
 * Sanitising works on tokens, never on a tree, so that what survives is copied byte for byte
 * and a document exports as it was imported. It stays safe because the tokenizer reads as a
 * browser does, and because the output contains only text, comments and tags of allowed elements:
 * none of those switches a browser's tokenizer out of its data state, so the browser reads the
 * output as exactly the tokens kept here, whatever was removed between them.
 */

/** Splits a space-separated list of names into a set. */
function names(list: string): Set<string> {
  return new Set(list.trim().split(/\s+/));
}

/** Elements kept (with their content); their attributes go through `keepsAttr`. */
const ALLOWED = names(`
  div p span a img picture source br hr wbr h1 h2 h3 h4 h5 h6 blockquote pre center font
  b i em strong u s strike del ins mark small big tt sub sup kbd code samp var q cite abbr dfn
  time bdi bdo ruby rt rp ul ol li dl dt dd table thead tbody tfoot tr th td caption colgroup
  col details summary figure figcaption section article header footer nav aside main address
`);

/**
 * Elements removed together with everything up to their end tag. Other elements not allowed lose
 * their tags only. svg and math go whole: foreign content is where mutation XSS lives.
 */
const REMOVED = names(`
  script style iframe frame frameset object embed applet param template noscript noembed
  noframes xmp plaintext textarea title svg math base meta link form input button select
  option optgroup datalist keygen dialog
`);

/** Removed elements that have no content to skip. */
const REMOVED_VOID = names('base meta link input embed frame param keygen');

/** Roots of foreign content, where `<x/>` really is empty. */
const FOREIGN = new Set(['svg', 'math']);

/** Attribute names made only of these characters; anything else is a parse-error artefact. */
const ATTR_NAME = /^[a-z0-9_:.-]+$/;
const DROPPED_ATTRS = new Set(['srcdoc', 'formaction', 'action', 'xmlns', 'is', 'xml:base']);
const LINK_ATTRS = new Set(['href', 'cite', 'longdesc', 'xlink:href', 'data']);
const IMAGE_ATTRS = new Set(['src', 'poster', 'background', 'dynsrc', 'lowsrc']);
/** `<source>` may only describe an image candidate of a `<picture>`. */
const SOURCE_ATTRS = new Set(['srcset', 'media', 'type', 'width', 'height']);

/** Style content that can run script or fetch a URL. */
const UNSAFE_CSS = [
  'expression(',
  'url(',
  'image-set(',
  'javascript:',
  'vbscript:',
  '@import',
  '-moz-binding',
];

function isCssSpace(c: number): boolean {
  return c <= 0x20 || c === 0x7f;
}

/** Lower-cased CSS with whitespace and control characters removed, and comments too if asked. */
function compactCss(css: string, dropComments: boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css.charCodeAt(i);
    if (isCssSpace(c)) {
      out += css.slice(from, i);
      from = i + 1;
    } else if (dropComments && c === 0x2f && css.charCodeAt(i + 1) === 0x2a) {
      out += css.slice(from, i);
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 1;
      from = i + 1;
    }
  }
  out += css.slice(from);
  // NFKC folds full-width letters, which old IE read as ASCII in `ｅｘｐｒｅｓｓｉｏｎ(`.
  return out.normalize('NFKC').toLowerCase();
}

function isSafeCss(css: string): boolean {
  if (UNSAFE_CSS.some((word) => css.includes(word))) return false;
  // IE's `behavior` property; `scroll-behavior` and `overscroll-behavior` are harmless.
  for (let i = css.indexOf('behavior'); i >= 0; i = css.indexOf('behavior', i + 1)) {
    if (css[i - 1] !== '-') return false;
  }
  return true;
}

/** True when a decoded `style` value can neither run script nor load anything. */
function isSafeStyle(style: string): boolean {
  // CSS escapes (`\75rl(`) can spell any keyword, and inline styles have no use for them.
  if (style.includes('\\')) return false;
  // Checked with and without comments: `ur/**/l(` hides a word, but so can `"/*"` in a string.
  return isSafeCss(compactCss(style, false)) && isSafeCss(compactCss(style, true));
}

function isSrcsetSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** The URLs of a `srcset` value, split as the HTML spec's srcset parser splits them. */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isSrcsetSpace(srcset.charCodeAt(i)) || srcset[i] === ',')) i++;
    if (i >= srcset.length) break;
    const start = i;
    while (i < srcset.length && !isSrcsetSpace(srcset.charCodeAt(i))) i++;
    let end = i;
    while (srcset[end - 1] === ',') end--;
    urls.push(srcset.slice(start, end));
    // A URL that ended in commas has no descriptors; otherwise skip them up to the next comma.
    if (end < i) continue;
    let inParens = false;
    for (; i < srcset.length; i++) {
      const c = srcset[i];
      if (c === '(') inParens = true;
      else if (c === ')') inParens = false;
      else if (c === ',' && !inParens) break;
    }
  }
  return urls;
}

/** Whether attribute `attr` of element `element` may stay. */
function keepsAttr(src: string, element: string, attr: AttrSpan): boolean {
  const { name } = attr;
  if (!ATTR_NAME.test(name) || name.startsWith('on') || name.startsWith('xmlns:')) return false;
  if (DROPPED_ATTRS.has(name)) return false;
  if (element === 'source' && !SOURCE_ATTRS.has(name)) return false;
  const isUrl = LINK_ATTRS.has(name) || IMAGE_ATTRS.has(name) || name === 'srcset';
  // Browsers read NUL as U+FFFD, but a reader that strips it would see `java\0script:` run.
  if (isUrl && src.slice(attr.valueStart, attr.valueEnd).includes('\0')) return false;
  if (LINK_ATTRS.has(name)) return isAllowedLinkUrl(attrValue(src, attr));
  if (IMAGE_ATTRS.has(name)) return isAllowedImageUrl(attrValue(src, attr));
  if (name === 'srcset') return srcsetUrls(attrValue(src, attr)).every(isAllowedImageUrl);
  if (name === 'style') return isSafeStyle(attrValue(src, attr));
  return true;
}

/** An allowed element's tag: as written if every attribute stays, else rebuilt from those that do. */
function sanitizeTag(src: string, tag: TagToken): string {
  const name = src.slice(tag.start + (tag.closing ? 2 : 1), tag.nameEnd);
  // Browsers ignore attributes on end tags, so none are worth keeping.
  if (tag.closing) return tag.attrs.length === 0 ? src.slice(tag.start, tag.end) : `</${name}>`;
  const kept = tag.attrs.filter((attr) => keepsAttr(src, tag.name, attr));
  if (kept.length === tag.attrs.length) return src.slice(tag.start, tag.end);
  const attrs = kept.map((attr) => ` ${src.slice(attr.start, attr.end)}`).join('');
  // The space keeps the slash out of an unquoted value before it.
  return `<${name}${attrs}${tag.selfClosing ? ' /' : ''}>`;
}

/**
 * Collects the output. A `<` that was text only because of what followed it (`<<script>`) would
 * open a tag once that is removed, or once another piece of HTML is appended after the end, so
 * such a `<` is written as `&lt;`.
 */
class Output {
  private readonly parts: string[] = [];
  private lastIsText = false;

  text(text: string): void {
    this.parts.push(text);
    this.lastIsText = true;
  }

  markup(markup: string): void {
    this.parts.push(markup);
    this.lastIsText = false;
  }

  /** Notes that input was left out here. */
  gap(): void {
    if (!this.lastIsText) return;
    const last = this.parts.length - 1;
    const text = this.parts[last] ?? '';
    if (text.endsWith('<')) this.parts[last] = `${text.slice(0, -1)}&lt;`;
  }

  finish(): string {
    this.gap();
    const last = this.parts.length - 1;
    const text = this.parts[last] ?? '';
    // `</` is text only at the very end of the input.
    if (this.lastIsText && text.endsWith('</')) this.parts[last] = `${text.slice(0, -2)}&lt;/`;
    return this.parts.join('');
  }
}

/**
 * Removes from an HTML fragment everything that could run script or load content from a
 * disallowed URL, copying everything else byte for byte (see the comment at the top of the file).
 */
export function sanitizeHtml(html: string): string {
  const tokenizer = new HtmlTokenizer(html);
  const out = new Output();
  // The removed element whose content is being skipped, and how deeply it is nested.
  let skipping = '';
  let depth = 0;
  for (let token = tokenizer.next(); token; token = tokenizer.next()) {
    if (skipping) {
      if (token.type === 'tag' && token.name === skipping) {
        if (token.closing) depth--;
        else if (!(tokenizer.foreign && token.selfClosing)) depth++;
        if (depth === 0) {
          skipping = '';
          tokenizer.foreign = false;
        }
      }
      continue;
    }
    if (token.type === 'text') {
      out.text(html.slice(token.start, token.end));
    } else if (token.type === 'comment') {
      out.markup(html.slice(token.start, token.end));
    } else if (token.type !== 'tag') {
      out.gap();
    } else if (ALLOWED.has(token.name)) {
      out.markup(sanitizeTag(html, token));
    } else {
      out.gap();
      const foreign = FOREIGN.has(token.name);
      if (
        REMOVED.has(token.name) &&
        !token.closing &&
        !REMOVED_VOID.has(token.name) &&
        !(foreign && token.selfClosing)
      ) {
        skipping = token.name;
        depth = 1;
        tokenizer.foreign = foreign;
      }
    }
  }
  return out.finish();
}
