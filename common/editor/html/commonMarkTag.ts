/**
 * HTML tags as CommonMark writes them (spec 0.31, "Raw HTML"): a browser reads far more as a tag
 * (`<div ]]class="x">`, `<https://example.com>`, `<not a tag\>`), but in Markdown such a tag is
 * most often a slip or text that a block of raw HTML took in, not markup its writer meant.
 */

const NAME = '[A-Za-z][A-Za-z0-9-]*';
const VALUE = `(?:[^"'=<>\`\\s]+|'[^']*'|"[^"]*")`;
const ATTRIBUTE = `\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*${VALUE})?`;
const OPEN = new RegExp(`^<${NAME}(?:${ATTRIBUTE})*\\s*/?>$`);
const CLOSE = new RegExp(`^</${NAME}\\s*>$`);

/** True when `raw` is one open or closing tag that CommonMark reads as a tag too. */
export function isCommonMarkTag(raw: string): boolean {
  return raw.startsWith('</') ? CLOSE.test(raw) : OPEN.test(raw);
}
