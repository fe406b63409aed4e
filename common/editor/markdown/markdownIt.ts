import MarkdownItConstructor, { type MarkdownIt } from 'markdown-it';
import { MAX_DEPTH } from '../../api/limits.ts';
import { isAllowedLinkUrl } from '../url.ts';
import { calloutPlugin } from '../dialects/callout/calloutRule.ts';
import { frontMatterPlugin } from '../dialects/frontMatter/frontMatterRule.ts';
import { inlineDialectsPlugin } from '../dialects/inlineDialects.ts';
import { sourceSyntaxPlugin } from './sourceSyntaxRules.ts';

/**
 * markdown-it with the exact settings of docs/PRODUCT.md "Markdown": HTML allowed, link
 * auto-detection off, line breaks off, no typographic replacements; GFM tables and strikethrough on
 * (markdown-it's default preset). Links follow Inkwell's link rule. `Constructor` is markdown-it's,
 * or in a test the same module built as the browser gets it (markdownItFieldsBuild.test.ts).
 */
export function createMarkdownIt(Constructor = MarkdownItConstructor): MarkdownIt {
  const md = new Constructor('default', {
    html: true,
    linkify: false,
    breaks: false,
    typographer: false,
    // markdown-it stops reading, silently, once this many blocks are open; one past MAX_DEPTH,
    // so that the parser has already refused (MarkdownTooDeepError) anything it would cut.
    maxNesting: MAX_DEPTH + 1,
  });
  md.validateLink = isAllowedLinkUrl;
  md.use(frontMatterPlugin).use(calloutPlugin).use(inlineDialectsPlugin).use(sourceSyntaxPlugin);
  return md;
}

let shared: MarkdownIt | undefined;

/** True when markdown-it would keep `url` as it is; a URL it would change is written as HTML. */
export function isNormalisedUrl(url: string): boolean {
  shared ??= createMarkdownIt();
  return shared.normalizeLink(url) === url;
}

/**
 * True when an HTML block opening with `html` may start on the line right after a paragraph's
 * (CommonMark's HTML blocks of types 1 to 6 interrupt a paragraph, the seventh does not).
 */
export function interruptsParagraph(html: string): boolean {
  shared ??= createMarkdownIt();
  const first = html.split('\n', 1)[0]!;
  const tokens = shared.parse(`x\n${first}\n`, {});
  return tokens[3]?.type === 'html_block';
}
