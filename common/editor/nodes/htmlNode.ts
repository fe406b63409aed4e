import type { Attribute } from '@tiptap/core';

/** Options of the raw-HTML nodes. */
export interface HtmlNodeOptions {
  /**
   * Sanitises HTML read from the clipboard or from `insertHtmlBlock`; null when it cannot yet
   * (the browser loads the sanitiser on its first need), and the HTML is then left out.
   */
  sanitize: (html: string) => string | null;
}

/** By default nothing from outside is trusted: without a sanitiser, pasted raw HTML is dropped. */
export const dropHtml: HtmlNodeOptions['sanitize'] = () => null;

/** The `html` attribute, read from `data-html` through the sanitiser. */
export function htmlAttribute(sanitize: HtmlNodeOptions['sanitize']): Attribute {
  return {
    default: '',
    parseHTML: (element) => sanitize(element.getAttribute('data-html') ?? '') ?? '',
    renderHTML: (attributes) => ({ 'data-html': String(attributes.html ?? '') }),
  };
}

/** A parse rule's attribute check: false (skip the element) when nothing safe is left. */
export function acceptSanitised(sanitize: HtmlNodeOptions['sanitize']) {
  return (element: HTMLElement | string) => {
    if (typeof element === 'string') return false;
    const html = sanitize(element.getAttribute('data-html') ?? '');
    return html ? null : false;
  };
}
