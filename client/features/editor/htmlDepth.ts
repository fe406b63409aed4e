import { HtmlTokenizer } from '../../../common/editor/html/tokenize.ts';
import { MAX_HTML_NESTING } from './depthLimit.ts';

// Loaded with the HTML sanitiser (nodeViews/htmlSanitizer.ts), the first time HTML is pasted or
// dragged in: a document that never receives HTML never downloads the tokenizer.

/** Elements that never hold others: they open no level. */
const VOID_ELEMENTS = new Set(
  'area base br col embed hr img input link meta param source track wbr keygen'.split(' '),
);

/** Whether the elements of `html` nest past {@link MAX_HTML_NESTING}, read before any DOM is built. */
export function tokensTooDeep(html: string): boolean {
  const tokenizer = new HtmlTokenizer(html);
  let depth = 0;
  for (let token = tokenizer.next(); token; token = tokenizer.next()) {
    if (token.type !== 'tag' || VOID_ELEMENTS.has(token.name)) continue;
    if (token.closing) depth = Math.max(0, depth - 1);
    else if (!token.selfClosing && ++depth > MAX_HTML_NESTING) return true;
  }
  return false;
}
