import MarkdownItConstructor, { type MarkdownIt } from 'markdown-it';
import { isAllowedLinkUrl } from '../url.ts';
import { inlineDialectsPlugin } from '../dialects/inlineDialects.ts';

/**
 * markdown-it with the exact settings of DESIGN §4: HTML allowed, link auto-detection off, line
 * breaks off, no typographic replacements; GFM tables and strikethrough on (markdown-it's default
 * preset). Links follow Inkwell's link rule.
 */
export function createMarkdownIt(): MarkdownIt {
  const md = new MarkdownItConstructor('default', {
    html: true,
    linkify: false,
    breaks: false,
    typographer: false,
  });
  md.validateLink = isAllowedLinkUrl;
  md.use(inlineDialectsPlugin);
  return md;
}

let shared: MarkdownIt | undefined;

/** True when markdown-it would keep `url` as it is; a URL it would change is written as HTML. */
export function isNormalisedUrl(url: string): boolean {
  shared ??= createMarkdownIt();
  return shared.normalizeLink(url) === url;
}
