import { escapeAttribute, escapeText } from 'entities/escape';
import { DOMSerializer, type DOMOutputSpec } from '@tiptap/pm/model';
import { filterStyle } from '../../common/editor/html/style.ts';
import { isAllowedLinkUrl } from '../../common/editor/url.ts';
import { isPageImageUrl } from './pageUrls.ts';

/*
 * The few DOM calls ProseMirror's DOMSerializer makes (createElement, createTextNode,
 * createDocumentFragment, setAttribute, appendChild), answered by plain objects that write
 * themselves out as HTML. The server has no browser DOM, and jsdom is a test-only dependency far
 * larger than this. Every attribute passes one last check here, whatever built it: no event
 * handler, a link or image address only under the page's rules, a style only as the allow-list
 * of common/editor/html/style.ts keeps it.
 */

/** Elements that have no end tag. */
const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr', 'col', 'source']);
const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;
const TAG_NAME = /^[a-z][a-z0-9]*$/;

type MarkupChild = MarkupElement | MarkupText | TrustedMarkup;

/** An element as DOMSerializer builds it. */
class MarkupElement {
  readonly nodeType = 1;
  private readonly attributes: [string, string][] = [];
  private readonly children: MarkupChild[] = [];

  constructor(readonly tagName: string) {
    if (!TAG_NAME.test(tagName)) throw new Error(`Not a tag name: ${tagName}`);
  }

  setAttribute(name: string, value: unknown): void {
    const kept = keptAttribute(this.tagName, name, String(value));
    if (kept !== null) this.attributes.push([name, kept]);
  }

  appendChild(child: MarkupChild): MarkupChild {
    this.children.push(child);
    return child;
  }

  write(out: string[]): void {
    out.push('<', this.tagName);
    for (const [name, value] of this.attributes) {
      out.push(' ', name, value === '' ? '' : `="${escapeAttribute(value)}"`);
    }
    out.push('>');
    if (VOID.has(this.tagName)) return;
    for (const child of this.children) child.write(out);
    out.push('</', this.tagName, '>');
  }
}

class MarkupText {
  readonly nodeType = 3;
  constructor(private readonly text: string) {}
  write(out: string[]): void {
    out.push(escapeText(this.text));
  }
}

/** What DOMSerializer fills when asked for a fragment: the children of the whole output. */
class MarkupFragment {
  readonly nodeType = 11;
  private readonly children: MarkupChild[] = [];
  appendChild(child: MarkupChild): MarkupChild {
    this.children.push(child);
    return child;
  }
  write(out: string[]): void {
    for (const child of this.children) child.write(out);
  }
}

/**
 * HTML made safe elsewhere (the raw-HTML sanitiser's output, KaTeX's MathML), written as it is.
 * It poses as an element (nodeType 1) so that DOMSerializer takes it as a finished node.
 */
class TrustedMarkup {
  readonly nodeType = 1;
  constructor(private readonly html: string) {}
  appendChild(): never {
    throw new Error('Trusted markup has no content hole.');
  }
  write(out: string[]): void {
    out.push(this.html);
  }
}

/**
 * The value to write for attribute `name` of `tag`, or null to leave it out. Attribute names come
 * from Inkwell's own specs, so a bad one is a bug; the values come from documents.
 */
function keptAttribute(tag: string, name: string, value: string): string | null {
  if (!ATTRIBUTE_NAME.test(name) || name.startsWith('on')) return null;
  if (name === 'href') return isAllowedLinkUrl(value) ? value : null;
  if (name === 'src') return isPageImageUrl(value) ? value : null;
  if (name === 'style') return filterStyle(tag, value).style || null;
  return value;
}

/** The stand-in for `document` that DOMSerializer is handed. */
const markupDocument = {
  createElement: (tag: string) => new MarkupElement(tag),
  createTextNode: (text: string) => new MarkupText(text),
  createDocumentFragment: () => new MarkupFragment(),
  createElementNS: (): never => {
    throw new Error('The published page writes no namespaced elements.');
  },
};

/** The `document` option of DOMSerializer: typed as a DOM, which it stands in for. */
export const MARKUP_DOCUMENT = markupDocument as unknown as Document;

/** A DOM output spec for HTML that is already safe to write as it is. */
export function trustedMarkup(html: string): DOMOutputSpec {
  return new TrustedMarkup(html) as unknown as DOMOutputSpec;
}

/** The HTML of what DOMSerializer returned when given {@link MARKUP_DOCUMENT}. */
export function markupHtml(fragment: DocumentFragment | HTMLElement): string {
  const out: string[] = [];
  (fragment as unknown as MarkupFragment).write(out);
  return out.join('');
}

/** The HTML of one output spec, for what the page writes outside the document's nodes. */
export function specHtml(spec: DOMOutputSpec): string {
  const out: string[] = [];
  (DOMSerializer.renderSpec(MARKUP_DOCUMENT, spec).dom as unknown as MarkupChild).write(out);
  return out.join('');
}
