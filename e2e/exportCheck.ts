import { JSDOM } from 'jsdom';
import MarkdownIt from 'markdown-it';

/**
 * Renders exported Markdown the way a permissive Markdown viewer would (raw HTML on, every link
 * kept, no sanitiser) so that anything dangerous the export wrote shows up.
 */
const permissive = new MarkdownIt('default', { html: true, linkify: false });
permissive.validateLink = () => true;

/** Dangerous elements, `on*` attributes and script-running URLs in the rendering of `markdown`. */
export function dangerousMarkdown(markdown: string): string[] {
  const { document } = new JSDOM(permissive.render(markdown)).window;
  const found: string[] = [];
  const badUrl = /^(?:javascript|vbscript|file|data:(?!image\/(?:gif|png|jpeg|webp);))/i;
  for (const element of document.body.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (
      ['script', 'object', 'embed', 'base', 'form', 'meta', 'link', 'svg', 'math'].includes(tag)
    ) {
      found.push(`<${tag}>`);
    }
    if (
      tag === 'iframe' &&
      !/^https:\/\/www\.youtube-nocookie\.com\/embed\//.test(element.getAttribute('src') ?? '')
    ) {
      found.push('<iframe>');
    }
    for (const attribute of element.attributes) {
      // eslint-disable-next-line no-control-regex
      const value = attribute.value.replace(/[\u0000-\u0020]/g, '');
      if (/^on/i.test(attribute.name)) found.push(`<${tag} ${attribute.name}>`);
      if (
        /^(?:href|src|action|formaction|xlink:href|srcdoc|data|poster|background)$/i.test(
          attribute.name,
        ) &&
        badUrl.test(value)
      ) {
        found.push(`<${tag} ${attribute.name}="${attribute.value.slice(0, 40)}">`);
      }
    }
  }
  return found;
}
