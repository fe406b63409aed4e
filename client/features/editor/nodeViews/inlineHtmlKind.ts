/** How an inline HTML node is shown. */
export type InlineHtmlKind = 'comment' | 'tag' | 'render';

const VOID_ELEMENTS = new Set([
  'area',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'source',
  'track',
  'wbr',
]);
const SINGLE_TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?\/?>$/;

/**
 * `comment` for `<!-- … -->`, `tag` for one opening or closing tag that needs a partner it does
 * not have here (Markdown splits `<sup>x</sup>` into three nodes), `render` for anything the
 * browser can show by itself: `<br>`, `<img …>`, a complete element.
 */
export function inlineHtmlKind(html: string): InlineHtmlKind {
  const source = html.trim();
  if (source.startsWith('<!--')) return 'comment';
  const tag = SINGLE_TAG.exec(source);
  if (!tag) return 'render';
  const closing = tag[1] === '/';
  const name = (tag[2] ?? '').toLowerCase();
  return !closing && VOID_ELEMENTS.has(name) ? 'render' : 'tag';
}

/** True when a block of HTML holds nothing but comments and white space. */
export function isOnlyComments(html: string): boolean {
  return /^(?:\s*<!--[\s\S]*?-->)+\s*$/.test(html);
}
