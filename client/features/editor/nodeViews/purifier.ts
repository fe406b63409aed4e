import type { DOMPurify } from 'dompurify';
import { isAllowedImageUrl, isAllowedLinkUrl } from '../../../../common/editor/url.ts';

let instance: DOMPurify | undefined;
let loading: Promise<DOMPurify> | undefined;

/** Every URL of a `srcset` (`a.png 1x, b.png 2x`). */
function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/, 1)[0] ?? '')
    .filter(Boolean);
}

/**
 * Our own DOMPurify instance: its hooks must not leak into other users of the default one.
 * Links and images follow the same URL rule as the rest of the document.
 */
function create(factory: DOMPurify): DOMPurify {
  const purify = factory(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    const href = node.getAttribute('href');
    if (href !== null && !isAllowedLinkUrl(href)) node.removeAttribute('href');
    const src = node.getAttribute('src');
    if (src !== null && !isAllowedImageUrl(src)) node.removeAttribute('src');
    const srcset = node.getAttribute('srcset');
    if (srcset !== null && !srcsetUrls(srcset).every(isAllowedImageUrl)) {
      node.removeAttribute('srcset');
    }
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
 * the way in; this guards against JSON that skipped that path). Styles are dropped so a block
 * cannot restyle the app, and forms so one cannot post what the writer types.
 */
export function purifyToFragment(purify: DOMPurify, html: string): DocumentFragment {
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form'],
    RETURN_DOM_FRAGMENT: true,
  });
}
