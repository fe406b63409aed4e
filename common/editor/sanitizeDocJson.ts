import { sanitizeHtml } from './html/sanitize.ts';
import { isAllowedImageUrl, isAllowedLinkUrl, parseYoutubeUrl } from './url.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function cleanMarks(marks: unknown): unknown {
  if (!Array.isArray(marks)) return marks;
  return marks.filter((mark) => {
    if (!isObject(mark) || mark.type !== 'link') return true;
    const attrs = isObject(mark.attrs) ? mark.attrs : {};
    return typeof attrs.href === 'string' && isAllowedLinkUrl(attrs.href);
  });
}

function cleanNode(node: unknown): unknown[] {
  if (!isObject(node)) return [node];
  const attrs = isObject(node.attrs) ? node.attrs : {};
  switch (node.type) {
    case 'image':
    case 'inlineImage':
      if (typeof attrs.src !== 'string' || !isAllowedImageUrl(attrs.src)) {
        // A rejected inline image keeps its alt text, as a rejected link keeps its text.
        return node.type === 'inlineImage' && typeof attrs.alt === 'string' && attrs.alt
          ? [{ type: 'text', text: attrs.alt }]
          : [];
      }
      break;
    case 'youtube':
      if (typeof attrs.src !== 'string' || !parseYoutubeUrl(attrs.src)) return [];
      break;
    case 'htmlBlock':
    case 'htmlInline': {
      const html = sanitizeHtml(typeof attrs.html === 'string' ? attrs.html : '');
      if (html === '') return [];
      return [{ ...node, attrs: { ...attrs, html } }];
    }
  }
  const out: Json = { ...node };
  if ('marks' in node) out.marks = cleanMarks(node.marks);
  if (Array.isArray(node.content)) out.content = node.content.flatMap(cleanNode);
  return [out];
}

/**
 * Applies the link rule of DESIGN §4 to document JSON from outside (the server, IndexedDB, a
 * file): drops links, images and videos whose URL it rejects and re-sanitises raw HTML. The
 * schema check (`schema.nodeFromJSON(...).check()`) still has to follow.
 */
export function sanitizeDocJson(doc: unknown): unknown {
  const [clean] = cleanNode(doc);
  return clean;
}
