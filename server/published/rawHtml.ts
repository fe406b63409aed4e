import { escapeAttribute } from 'entities/escape';
import { attrValue } from '../../common/editor/html/decode.ts';
import { sanitizeHtml } from '../../common/editor/html/sanitize.ts';
import { srcsetUrls } from '../../common/editor/html/srcset.ts';
import { HtmlTokenizer, type AttrSpan, type TagToken } from '../../common/editor/html/tokenize.ts';
import { isPageImageUrl, LINK_REL, type PageFiles } from './pageUrls.ts';

/*
 * A raw HTML node of a document as the published page writes it. The editor parses each node on
 * its own (innerHTML of its own box), so a tag it leaves open or a stray end tag stays inside
 * that box; on a page written as one HTML text, `<div>` left open would swallow what follows and
 * `</div>` could close the page's own elements. So what the sanitiser keeps is written again
 * balanced: end tags only for elements the node opened, in order, and every element it opened
 * closed before it ends. Comments and declarations are left out (they show nothing, and one the
 * node ends inside would hide the rest of the page).
 */

/** Elements without an end tag. */
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'wbr']);
/** Attributes whose value an image loads from. */
const IMAGE_ATTRS = new Set(['src', 'poster', 'background', 'dynsrc', 'lowsrc']);

/** The raw HTML of a node, sanitised, balanced and with the page's addresses. */
export function pageRawHtml(html: string, files: PageFiles): string {
  const clean = sanitizeHtml(html);
  const tokenizer = new HtmlTokenizer(clean);
  const out: string[] = [];
  const open: string[] = [];
  for (let token = tokenizer.next(); token; token = tokenizer.next()) {
    if (token.type === 'text') {
      out.push(clean.slice(token.start, token.end));
    } else if (token.type === 'tag' && !token.closing) {
      out.push(startTag(clean, token, files));
      if (!VOID.has(token.name)) open.push(token.name);
    } else if (token.type === 'tag') {
      const at = open.lastIndexOf(token.name);
      if (at < 0) continue;
      while (open.length > at) out.push(`</${open.pop()!}>`);
    }
  }
  while (open.length > 0) out.push(`</${open.pop()!}>`);
  return out.join('');
}

/**
 * A start tag from the sanitiser's output, its attributes as written but for the page's
 * addresses: uploaded files under the page's address, images only from where the page loads
 * them, links with {@link LINK_REL} and no target, and no class (the page's stylesheet is not
 * the document's to use).
 */
function startTag(html: string, tag: TagToken, files: PageFiles): string {
  const kept: string[] = [];
  for (const attr of tag.attrs) {
    const written = attribute(html, tag.name, attr, files);
    if (written !== null) kept.push(written);
  }
  if (tag.name === 'a') kept.push(`rel="${LINK_REL}"`);
  const attrs = kept.map((attr) => ` ${attr}`).join('');
  // The space keeps the slash out of an unquoted value before it.
  return `<${tag.name}${attrs}${tag.selfClosing ? ' /' : ''}>`;
}

function attribute(html: string, element: string, attr: AttrSpan, files: PageFiles): string | null {
  const { name } = attr;
  if (name.startsWith('on') || name === 'class' || name === 'target' || name === 'rel') return null;
  const raw = html.slice(attr.start, attr.end);
  if (IMAGE_ATTRS.has(name)) {
    const src = files.imageSrc(attrValue(html, attr));
    return src === null ? null : `${name}="${escapeAttribute(src)}"`;
  }
  if (name === 'srcset')
    return srcsetUrls(attrValue(html, attr)).every(isPageImageUrl) ? raw : null;
  if (name === 'href' && element === 'a') {
    const href = files.linkHref(attrValue(html, attr));
    return href === null ? null : `href="${escapeAttribute(href)}"`;
  }
  return raw;
}
