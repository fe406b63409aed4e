import type { DOMPurify } from 'dompurify';
import { carriesMarkup } from '../../../../common/editor/html/markup.ts';
import { isAllowedSrcset } from '../../../../common/editor/html/srcset.ts';
import { filterStyle } from '../../../../common/editor/html/style.ts';
import { isAllowedImageUrl, isAllowedLinkUrl } from '../../../../common/editor/url.ts';

let instance: DOMPurify | undefined;
let loading: Promise<DOMPurify> | undefined;

/**
 * Our own DOMPurify instance: its hooks must not leak into other users of the default one.
 * Links and images follow the same URL rule as the rest of the document, and styles the same
 * declaration allow-list as the sanitiser in common/.
 */
function create(factory: DOMPurify): DOMPurify {
  const purify = factory(window);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (carriesMarkup(data.attrValue)) {
      data.keepAttr = false;
      return;
    }
    if (data.attrName !== 'style') return;
    const { style } = filterStyle(node.localName, data.attrValue);
    if (style) data.attrValue = style;
    else data.keepAttr = false;
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    const href = node.getAttribute('href');
    if (href !== null && !isAllowedLinkUrl(href)) node.removeAttribute('href');
    const src = node.getAttribute('src');
    if (src !== null && !isAllowedImageUrl(src)) node.removeAttribute('src');
    const srcset = node.getAttribute('srcset');
    if (srcset !== null && !isAllowedSrcset(srcset)) node.removeAttribute('srcset');
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      // Links open beside the editor, never in place of it.
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  return purify;
}

/** DOMPurify, once loaded; undefined before. */
export function readyPurifier(): DOMPurify | undefined {
  return instance;
}

/** Loads DOMPurify on first use: documents without raw HTML never download it. */
export function loadPurifier(): Promise<DOMPurify> {
  loading ??= import('dompurify').then((module) => {
    instance = create(module.default);
    return instance;
  });
  return loading;
}

/**
 * Sanitises stored HTML a second time before it reaches the page (the schema sanitised it on
 * the way in; this guards against JSON that skipped that path). Styles keep only the declarations
 * of the shared allow-list, so a block cannot draw over the app, and forms go so one cannot post
 * what the writer types.
 */
export function purifyToFragment(purify: DOMPurify, html: string): DocumentFragment {
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form'],
    RETURN_DOM_FRAGMENT: true,
  });
}
