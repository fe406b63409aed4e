import { attrValue } from './decode.ts';
import { HtmlTokenizer, lowerAsciiName } from './tokenize.ts';

/** One attribute of a parsed tag. */
export interface ParsedAttr {
  /** Lower-cased name. */
  name: string;
  /** The value a browser would store: character references decoded; '' when there is none. */
  value: string;
  /** The attribute as written, from its name to the end of its value (quotes included). */
  raw: string;
}

/** One start or end tag, read as a browser's tokenizer reads it. */
export interface ParsedTag {
  /** Lower-cased tag name. */
  name: string;
  /** True for `</name>`. */
  closing: boolean;
  /** True when the tag ends with `/>`. */
  selfClosing: boolean;
  /** Attributes in source order; a repeated name is kept here though browsers ignore it. */
  attrs: ParsedAttr[];
}

function isHtmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/**
 * Reads the source of one tag (`<a href="x" target=_blank>`, `</a>`, `<br/>`), surrounding
 * whitespace allowed; null when `raw` is anything else (text, a comment, two tags, a cut-off tag).
 */
export function parseTag(raw: string): ParsedTag | null {
  let from = 0;
  let to = raw.length;
  while (from < to && isHtmlSpace(raw.charCodeAt(from))) from++;
  while (to > from && isHtmlSpace(raw.charCodeAt(to - 1))) to--;
  const src = raw.slice(from, to);
  const token = new HtmlTokenizer(src).next();
  if (!token || token.type !== 'tag' || token.end !== src.length) return null;
  return {
    name: token.name,
    closing: token.closing,
    selfClosing: token.selfClosing,
    attrs: token.attrs.map((attr) => ({
      name: attr.name,
      value: attrValue(src, attr),
      raw: src.slice(attr.start, attr.end),
    })),
  };
}

/** The value of attribute `name` (any case) as a browser reads it: the first one wins; null if absent. */
export function getAttr(tag: ParsedTag, name: string): string | null {
  const wanted = lowerAsciiName(name);
  return tag.attrs.find((attr) => attr.name === wanted)?.value ?? null;
}

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const DQUOTE = 0x22;
const SQUOTE = 0x27;

/**
 * The declarations of a `style` attribute value: lower-cased property name to trimmed value, the
 * last one winning as in CSS. Comments are dropped; `;` and `:` inside strings, parentheses
 * (`url(a;b)`) or after a backslash do not split.
 */
export function parseStyle(style: string): Map<string, string> {
  const declarations = new Map<string, string>();
  let declaration = '';
  // Offset within `declaration` of its first top-level colon.
  let colon = -1;
  // Start of the part of `style` not yet copied into `declaration`.
  let from = 0;
  let quote = 0;
  let depth = 0;
  const finish = (): void => {
    if (colon < 0) return;
    const property = lowerAsciiName(declaration.slice(0, colon).trim());
    if (property) declarations.set(property, declaration.slice(colon + 1).trim());
  };
  for (let i = 0; i < style.length; i++) {
    const c = style.charCodeAt(i);
    if (c === BACKSLASH) {
      i++;
    } else if (quote) {
      if (c === quote) quote = 0;
    } else if (c === DQUOTE || c === SQUOTE) {
      quote = c;
    } else if (c === SLASH && style.charCodeAt(i + 1) === STAR) {
      declaration += style.slice(from, i);
      const close = style.indexOf('*/', i + 2);
      i = close < 0 ? style.length : close + 1;
      from = i + 1;
    } else if (c === OPEN_PAREN) {
      depth++;
    } else if (c === CLOSE_PAREN) {
      if (depth > 0) depth--;
    } else if (c === COLON && depth === 0 && colon < 0) {
      colon = declaration.length + (i - from);
    } else if (c === SEMICOLON && depth === 0) {
      declaration += style.slice(from, i);
      finish();
      declaration = '';
      colon = -1;
      from = i + 1;
    }
  }
  declaration += style.slice(from);
  finish();
  return declarations;
}
