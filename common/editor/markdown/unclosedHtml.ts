/**
 * CommonMark runs an HTML block that opens with `<script`, `<style`, `<textarea`, `<?`, `<!X` or
 * `<![CDATA[` to its end marker, and to the end of the document (or of its container) when there
 * is none: one slip in a note would swallow everything after it. Import never drops text silently
 * (docs/PRODUCT.md, "Markdown"), so such a block is read again in parts.
 */

/** How to read an HTML block that was never closed instead of as one piece of raw HTML. */
export interface UnclosedHtml {
  /** Raw HTML to keep (sanitised as usual), or null. */
  html: string | null;
  /** Markdown to read after it. */
  markdown: string;
}

/** Removed elements whose content ends, when their end tag is missing, at the first blank line. */
const ELEMENT = /^ {0,3}<(script|style|textarea)(?=[\s>]|$)/i;
/** Constructs a browser drops up to their first `>`, and CommonMark blocks up to their marker. */
const CONSTRUCTS: Array<[RegExp, string]> = [
  [/^ {0,3}<\?/, '?>'],
  [/^ {0,3}<![A-Za-z]/, '>'],
  [/^ {0,3}<!\[CDATA\[/, ']]>'],
];

/**
 * The parts of html_block content `raw` when CommonMark ran it on for lack of its end marker,
 * or null when it is an ordinary block (an unclosed comment is one: it is kept as written, an
 * inert comment to its end, and so is an unclosed `<pre>`, whose text shows).
 *
 * - `<script>`, `<style>`, `<textarea>`: the element's own content ends at the first blank line;
 *   the sanitiser removes script and style content and keeps textarea text, and what follows
 *   reads as Markdown.
 * - `<?…`, `<!DOCTYPE…`, `<![CDATA[…`: a browser would drop everything up to the first `>`, so
 *   the block reads as Markdown text, its `<` escaped.
 */
export function readUnclosedHtml(raw: string): UnclosedHtml | null {
  const element = ELEMENT.exec(raw);
  if (element) {
    if (new RegExp(`</${element[1]}>`, 'i').test(raw)) return null;
    const blank = /\n[ \t]*\n/.exec(raw);
    if (!blank) return null;
    return { html: raw.slice(0, blank.index), markdown: raw.slice(blank.index + blank[0].length) };
  }
  for (const [start, end] of CONSTRUCTS) {
    if (!start.test(raw) || raw.includes(end)) continue;
    const lt = raw.indexOf('<');
    return { html: null, markdown: `${raw.slice(0, lt)}&lt;${raw.slice(lt + 1)}` };
  }
  return null;
}
