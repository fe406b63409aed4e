import { isCommonMarkTag } from './commonMarkTag.ts';
import { sanitizeTag } from './sanitizeTag.ts';
import { HtmlTokenizer, type TagToken } from './tokenize.ts';

/**
 * Sanitising works on tokens, never on a tree, so that what survives is copied byte for byte
 * and a document exports as it was imported. It stays safe because the tokenizer reads as a
 * browser does, and because the output contains only text, comments and tags of allowed elements:
 * none of those switches a browser's tokenizer out of its data state, so the browser reads the
 * output as exactly the tokens kept here, whatever was removed between them.
 */

/** Splits a space-separated list of names into a set. */
function names(list: string): Set<string> {
  return new Set(list.trim().split(/\s+/));
}

/** Elements kept (with their content); their attributes go through `sanitizeTag`. */
const ALLOWED = names(`
  div p span a img picture source br hr wbr h1 h2 h3 h4 h5 h6 blockquote pre center font
  b i em strong u s strike del ins mark small big tt sub sup kbd code samp var q cite abbr dfn
  time bdi bdo ruby rt rp ul ol li dl dt dd table thead tbody tfoot tr th td caption colgroup
  col details summary figure figcaption section article header footer nav aside main address
`);

/**
 * Elements removed together with everything up to their end tag: their content is code, not
 * words. Every other element that is not allowed loses its tags only, and its text and allowed
 * elements stay (svg, math, form, object, button…), as DOMPurify's KEEP_CONTENT does.
 */
const CODE = names('script style template');

/** Removed elements that are empty. */
const VOID = names('base meta link input embed frame param keygen');

/**
 * Raw-text elements whose content is plain text to show (textarea, title, xmp, plaintext) keep it
 * as text, with `<` escaped. In these two, character references are read, so `&` stays as is.
 */
const RCDATA = names('textarea title');

/**
 * Raw-text elements holding fallback HTML for a browser without scripting or frames. Their
 * content is read as HTML (as such a browser reads it) and sanitised like the rest.
 */
const FALLBACK = names('noscript noembed noframes iframe');

/** Roots of foreign content, where `<x/>` really is empty and `<![CDATA[` opens a section. */
const FOREIGN = names('svg math');

/** HTML start tags that end foreign content in a browser (the tree builder's "breakout" list). */
const BREAKOUT = names(`
  b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li
  listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var
`);

/**
 * True for a comment that the input ends inside: a browser reads it as a comment to the end, so
 * it hides what it holds and can hide nothing else. It is kept as written, since it is often a
 * note its author forgot to close (docs/PRODUCT.md, "Markdown").
 */
function isCommentToEnd(html: string, start: number, end: number): boolean {
  return (
    end === html.length &&
    html.startsWith('<!--', start) &&
    !/^<!---?>/.test(html.slice(start, start + 6)) &&
    !html.includes('--!>', start)
  );
}

/**
 * True for `<!X…`, `<?…` and `</ …` (not a comment, not `</>`): markup a browser reads up to the
 * next `>` as a doctype or a comment and shows nothing of. Writers put doctypes, PHP and XML
 * declarations in notes (docs/PRODUCT.md, "Markdown": import never drops text silently).
 */
function isDeclaration(html: string, start: number): boolean {
  const next = html.charCodeAt(start + 1);
  const after = html.charAt(start + 2);
  if (next === 0x3f) return true;
  if (next === 0x21) return !html.startsWith('--', start + 2);
  return next === 0x2f && after !== '>' && !/[A-Za-z]/.test(after);
}

/** Raw text of a removed element, written as text that shows the same characters. */
function escapeRawText(text: string, rcdata: boolean): string {
  return (rcdata ? text : text.replaceAll('&', '&amp;')).replaceAll('<', '&lt;');
}

/**
 * Collects the output. A `<` that was text only because of what followed it (`<<script>`) would
 * open a tag once that is removed, or once another piece of HTML is appended after the end, so
 * such a `<` is written as `&lt;`.
 */
class Output {
  private readonly parts: string[] = [];
  private lastIsText = false;

  text(text: string): void {
    this.parts.push(text);
    this.lastIsText = true;
  }

  markup(markup: string): void {
    this.parts.push(markup);
    this.lastIsText = false;
  }

  /** Notes that input was left out here. */
  gap(): void {
    if (!this.lastIsText) return;
    const last = this.parts.length - 1;
    const text = this.parts[last] ?? '';
    if (text.endsWith('<')) this.parts[last] = `${text.slice(0, -1)}&lt;`;
  }

  finish(): string {
    this.gap();
    const last = this.parts.length - 1;
    const text = this.parts[last] ?? '';
    // `</` is text only at the very end of the input.
    if (this.lastIsText && text.endsWith('</')) this.parts[last] = `${text.slice(0, -2)}&lt;/`;
    return this.parts.join('');
  }
}

/** How raw HTML is read. */
export interface SanitizeOptions {
  /**
   * Raw HTML from Markdown: a tag CommonMark would not read as one (`<div ]]class="x">`,
   * `<https://…>`, a tag cut off by the end) is kept as the text it is when sanitising would lose
   * any of it, and a text attribute whose value holds markup (`alt="a <!--b"`) is kept defused
   * (see defuseMarkup) rather than dropped (docs/PRODUCT.md, "Markdown": import never drops text
   * silently). Script, style and template tags are removed all the same.
   */
  markdown?: boolean;
}

/** True when `token` is a tag that Markdown raw HTML keeps as text (see SanitizeOptions). */
function isTagKeptAsText(html: string, token: TagToken): boolean {
  const raw = html.slice(token.start, token.end);
  if (CODE.has(token.name) || isCommonMarkTag(raw)) return false;
  return !ALLOWED.has(token.name) || sanitizeTag(html, token) !== raw;
}

/** True for a tag that the end of the input cut off before its `>`. */
function isCutOffTag(html: string, start: number, end: number): boolean {
  return end === html.length && /^<\/?[A-Za-z]/.test(html.slice(start, start + 3));
}

/**
 * Removes from an HTML fragment everything that could run script or load content from a
 * disallowed URL, copying everything else byte for byte (see the comment at the top of the file).
 */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const tokenizer = new HtmlTokenizer(html);
  const out = new Output();
  // The code element whose content is being skipped, and how deeply it is nested.
  let skipping = '';
  let depth = 0;
  // How many svg or math elements are open around the current token.
  let foreignDepth = 0;
  // The raw-text element whose content the next `rawtext` token is.
  let rawTextOf = '';
  for (let token = tokenizer.next(); token; token = tokenizer.next()) {
    if (skipping) {
      if (token.type === 'tag' && token.name === skipping) {
        if (token.closing) depth--;
        else if (!(tokenizer.foreign && token.selfClosing)) depth++;
        if (depth === 0) skipping = '';
      }
      continue;
    }
    if (token.type === 'text') {
      out.text(html.slice(token.start, token.end));
    } else if (token.type === 'comment') {
      out.markup(html.slice(token.start, token.end));
    } else if (token.type === 'rawtext') {
      out.text(escapeRawText(html.slice(token.start, token.end), RCDATA.has(rawTextOf)));
    } else if (token.type === 'other' && isCommentToEnd(html, token.start, token.end)) {
      out.markup(html.slice(token.start, token.end));
    } else if (
      options.markdown &&
      token.type === 'other' &&
      isCutOffTag(html, token.start, token.end)
    ) {
      out.text(escapeRawText(html.slice(token.start, token.end), false));
    } else if (token.type === 'other' && !tokenizer.foreign && isDeclaration(html, token.start)) {
      // A doctype, processing instruction or bogus comment: inert, so kept as written; one the
      // input ends inside is kept as text, since a browser would hide all it holds.
      const raw = html.slice(token.start, token.end);
      if (raw.endsWith('>')) out.markup(raw);
      else if (raw[1] !== '/') out.text(escapeRawText(raw, false));
      else out.gap();
    } else if (token.type !== 'tag') {
      out.gap();
      // The text of a CDATA section in svg or math is shown, as text.
      if (tokenizer.foreign && html.startsWith('<![CDATA[', token.start)) {
        const end = html.endsWith(']]>', token.end) ? token.end - 3 : token.end;
        out.text(escapeRawText(html.slice(token.start + 9, end), false));
      }
    } else if (options.markdown && isTagKeptAsText(html, token)) {
      // The tokenizer may have switched to raw text after it (`<textarea x\>`): that text shows.
      out.text(escapeRawText(html.slice(token.start, token.end), false));
      rawTextOf = token.name;
    } else {
      const { name, closing, selfClosing } = token;
      if (foreignDepth > 0 && (closing ? name === 'p' || name === 'br' : BREAKOUT.has(name))) {
        foreignDepth = 0;
      }
      if (ALLOWED.has(name)) {
        out.markup(sanitizeTag(html, token, options.markdown));
      } else {
        out.gap();
        const empty = closing || VOID.has(name) || (tokenizer.foreign && selfClosing);
        if (CODE.has(name) && !empty) {
          skipping = name;
          depth = 1;
        } else if (FALLBACK.has(name) && !closing && !tokenizer.foreign) {
          tokenizer.readContentAsHtml();
        } else if (FOREIGN.has(name) && !selfClosing) {
          foreignDepth = closing ? Math.max(0, foreignDepth - 1) : foreignDepth + 1;
        }
        rawTextOf = name;
      }
      tokenizer.foreign = foreignDepth > 0;
    }
  }
  return out.finish();
}
