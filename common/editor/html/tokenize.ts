/**
 * An HTML tokenizer that follows the WHATWG tokenizer states, so that it agrees with a browser on
 * where every tag, attribute value and comment starts and ends, and that reports source offsets so
 * callers can copy the input instead of re-serialising it. It builds no tree; the only
 * tree-construction decisions it mirrors are the ones that change tokenization: raw-text elements
 * (`<script>`, `<style>`, `<textarea>`…) and CDATA sections in foreign content.
 *
 * Every scan moves forward (`indexOf` or a single loop), so the whole input is tokenized in linear
 * time whatever it holds.
 */

/** One attribute as written: its name the way the browser stores it and where its parts sit. */
export interface AttrSpan {
  /** Name with ASCII letters lower-cased and NUL read as U+FFFD, as the browser stores it. */
  name: string;
  /** Offset of the name's first character. */
  start: number;
  /** Offset just past the attribute, closing quote included. */
  end: number;
  /** Offset of the value's first character (inside the quotes); -1 when there is no value. */
  valueStart: number;
  /** Offset just past the value's last character (before the closing quote); -1 without a value. */
  valueEnd: number;
}

/** A start or end tag. */
export interface TagToken {
  /** Discriminant. */
  type: 'tag';
  /** Offset of the `<`. */
  start: number;
  /** Offset just past the `>`. */
  end: number;
  /** Tag name, lower-cased like an attribute name. */
  name: string;
  /** Offset just past the name as written (it starts after `<`, or after `</` when closing). */
  nameEnd: number;
  /** True for `</name>`. */
  closing: boolean;
  /** True when the tag ends with `/>`. */
  selfClosing: boolean;
  /** Attributes in source order, duplicates included. */
  attrs: AttrSpan[];
}

/** A run of source that is not a tag. */
export interface SpanToken {
  /**
   * `text`: character data; `comment`: a `<!-- … -->` comment ended by `-->`; `rawtext`: the
   * content of script, style, textarea and the like; `other`: a doctype, bogus comment, CDATA
   * section, `</>`, an abruptly closed comment or anything cut off by the end of the input.
   */
  type: 'text' | 'comment' | 'rawtext' | 'other';
  /** Offset of the first character. */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

/** One token of the input. */
export type HtmlToken = TagToken | SpanToken;

/** Elements after whose start tag HTML content switches to a raw-text tokenizer state. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  // As with scripting enabled, which is how a browser's innerHTML parses it.
  'noscript',
  'textarea',
  'title',
  'plaintext',
]);

const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DASH = 0x2d;
const SLASH = 0x2f;
const LT = 0x3c;
const EQ = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const DQUOTE = 0x22;
const SQUOTE = 0x27;

/** HTML whitespace; CR counts because the browser turns it into LF before tokenizing. */
function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF || c === CR;
}

function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** What ends a tag name, and so what may follow the name of an end tag that closes raw text. */
function endsTagName(c: number): boolean {
  return isSpace(c) || c === SLASH || c === GT;
}

/**
 * Lower-cases ASCII letters only, and reads NUL as U+FFFD, as the tokenizer does for tag and
 * attribute names (`toLowerCase` would fold the Kelvin sign into `k`, for one).
 */
export function lowerAsciiName(name: string): string {
  if (!/[A-Z\0]/.test(name)) return name;
  return name.replace(/[A-Z\0]/g, (c) =>
    c === '\0' ? '\uFFFD' : String.fromCharCode(c.charCodeAt(0) | 0x20),
  );
}

/** True when `s` continues at `at` with `word` (lower-case letters), in any letter case. */
function matchesLetters(s: string, at: number, word: string): boolean {
  if (at + word.length > s.length) return false;
  for (let k = 0; k < word.length; k++) {
    if ((s.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** True when an end tag for `name` that ends raw text starts at `at` (`</name` then space, / or >). */
function isEndTagOf(s: string, at: number, name: string): boolean {
  const after = at + 2 + name.length;
  return (
    s.charCodeAt(at + 1) === SLASH &&
    matchesLetters(s, at + 2, name) &&
    after < s.length &&
    endsTagName(s.charCodeAt(after))
  );
}

/** True when the `<` at `at` begins markup (a tag, comment or declaration) rather than text. */
function opensMarkup(s: string, at: number): boolean {
  const c = s.charCodeAt(at + 1);
  if (isAlpha(c) || c === BANG || c === QUESTION) return true;
  // `</` at the very end of the input is text; anywhere else it is a tag or a bogus comment.
  return c === SLASH && at + 2 < s.length;
}

/**
 * Where script data ends: the `<` of its `</script` end tag. Follows the script data escaped and
 * double-escaped states, in which `<!--<script>` hides the next `</script>` from the tokenizer.
 */
function scriptDataEnd(s: string, from: number): number {
  const DATA = 0;
  const ESCAPED = 1;
  const DOUBLE_ESCAPED = 2;
  let mode = DATA;
  // Dashes just read in the escaped modes (capped at 2): `-->` leaves them.
  let dashes = 0;
  let i = from;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (mode === DATA) {
      if (c === LT) {
        if (isEndTagOf(s, i, 'script')) return i;
        if (s.startsWith('!--', i + 1)) {
          mode = ESCAPED;
          dashes = 2;
          i += 4;
          continue;
        }
      }
      i++;
      continue;
    }
    if (c === DASH) {
      dashes = Math.min(dashes + 1, 2);
      i++;
      continue;
    }
    if (c === GT && dashes === 2) mode = DATA;
    dashes = 0;
    if (c !== LT) {
      i++;
      continue;
    }
    if (mode === ESCAPED) {
      if (isEndTagOf(s, i, 'script')) return i;
      if (s.charCodeAt(i + 1) === SLASH) {
        i += 2;
        continue;
      }
      // `<script` followed by space, / or > enters the double-escaped state.
      let j = i + 1;
      while (j < s.length && isAlpha(s.charCodeAt(j))) j++;
      if (j - i - 1 === 6 && j < s.length && endsTagName(s.charCodeAt(j))) {
        if (matchesLetters(s, i + 1, 'script')) {
          mode = DOUBLE_ESCAPED;
          i = j + 1;
          continue;
        }
      }
      i = j;
      continue;
    }
    // Double escaped: `</script` followed by space, / or > goes back to escaped.
    if (s.charCodeAt(i + 1) === SLASH) {
      let j = i + 2;
      while (j < s.length && isAlpha(s.charCodeAt(j))) j++;
      if (j - i - 2 === 6 && j < s.length && endsTagName(s.charCodeAt(j))) {
        if (matchesLetters(s, i + 2, 'script')) {
          mode = ESCAPED;
          i = j + 1;
          continue;
        }
      }
      i = j;
      continue;
    }
    i++;
  }
  return s.length;
}

/** Where the raw text of element `name` ends: the `<` of its end tag, or the end of the input. */
function rawTextEnd(s: string, from: number, name: string): number {
  if (name === 'plaintext') return s.length;
  if (name === 'script') return scriptDataEnd(s, from);
  for (let i = s.indexOf('</', from); i >= 0; i = s.indexOf('</', i + 2)) {
    if (isEndTagOf(s, i, name)) return i;
  }
  return s.length;
}

/** Reads an HTML string token by token; see the file comment. */
export class HtmlTokenizer {
  /**
   * Set by the caller while inside `<svg>` or `<math>`: raw-text start tags then do not switch
   * state and `<![CDATA[` opens a CDATA section, as in the browser's foreign content.
   */
  foreign = false;
  private pos = 0;
  /** Element whose raw text the next token is; '' for none. */
  private rawTextOf = '';

  /** Starts reading `src` from its beginning. */
  constructor(private readonly src: string) {}

  /**
   * Reads the content of the raw-text element whose start tag was just returned as HTML instead,
   * as a browser without scripting reads `<noscript>`.
   */
  readContentAsHtml(): void {
    this.rawTextOf = '';
  }

  /** The next token, or null at the end of the input. */
  next(): HtmlToken | null {
    const s = this.src;
    const start = this.pos;
    if (start >= s.length) return null;
    if (this.rawTextOf) {
      const end = rawTextEnd(s, start, this.rawTextOf);
      this.rawTextOf = '';
      if (end > start) return this.span('rawtext', start, end);
    }
    if (s.charCodeAt(start) === LT && opensMarkup(s, start)) return this.markup(start);
    let i = start + 1;
    for (;;) {
      i = s.indexOf('<', i);
      if (i < 0 || opensMarkup(s, i)) break;
      i++;
    }
    return this.span('text', start, i < 0 ? s.length : i);
  }

  private span(type: SpanToken['type'], start: number, end: number): SpanToken {
    this.pos = end;
    return { type, start, end };
  }

  /** A construct a browser drops, running up to and including the next `>`. */
  private untilGt(start: number, from: number): SpanToken {
    const gt = this.src.indexOf('>', from);
    return this.span('other', start, gt < 0 ? this.src.length : gt + 1);
  }

  private markup(start: number): HtmlToken {
    const s = this.src;
    const c = s.charCodeAt(start + 1);
    if (c === BANG) {
      if (s.startsWith('--', start + 2)) return this.comment(start);
      if (this.foreign && s.startsWith('[CDATA[', start + 2)) {
        const close = s.indexOf(']]>', start + 9);
        return this.span('other', start, close < 0 ? s.length : close + 3);
      }
      // A doctype ends at the first `>` whatever its quotes say, exactly like a bogus comment.
      return this.untilGt(start, start + 2);
    }
    if (c === SLASH) {
      const d = s.charCodeAt(start + 2);
      if (isAlpha(d)) return this.tag(start, true);
      if (d === GT) return this.span('other', start, start + 3);
      return this.untilGt(start, start + 2);
    }
    if (c === QUESTION) return this.untilGt(start, start + 2);
    return this.tag(start, false);
  }

  /**
   * `<!--` starts a comment that ends at the first `-->` or `--!>`, or at once for `<!-->` and
   * `<!--->`. Only the `-->` form is reported as a comment; the others are parse errors that
   * simpler parsers (markdown-it among them) end elsewhere.
   */
  private comment(start: number): SpanToken {
    const s = this.src;
    const body = start + 4;
    if (s.charCodeAt(body) === GT) return this.span('other', start, body + 1);
    if (s.charCodeAt(body) === DASH && s.charCodeAt(body + 1) === GT) {
      return this.span('other', start, body + 2);
    }
    for (let i = s.indexOf('--', body); i >= 0; i = s.indexOf('--', i + 1)) {
      const c = s.charCodeAt(i + 2);
      if (c === GT) return this.span('comment', start, i + 3);
      if (c === BANG && s.charCodeAt(i + 3) === GT) return this.span('other', start, i + 4);
    }
    return this.span('other', start, s.length);
  }

  /** A tag through the tag name, attribute and self-closing states; `other` if the input ends first. */
  private tag(start: number, closing: boolean): HtmlToken {
    const s = this.src;
    const len = s.length;
    const nameStart = start + (closing ? 2 : 1);
    let i = nameStart;
    while (i < len && !endsTagName(s.charCodeAt(i))) i++;
    const nameEnd = i;
    const attrs: AttrSpan[] = [];
    let selfClosing = false;
    for (;;) {
      while (i < len && isSpace(s.charCodeAt(i))) i++;
      if (i >= len) return this.span('other', start, len);
      const c = s.charCodeAt(i);
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        i++;
        if (s.charCodeAt(i) === GT) {
          selfClosing = true;
          i++;
          break;
        }
        continue;
      }
      // Attribute name: its first character may be anything, `=` included.
      const attrStart = i++;
      while (i < len) {
        const d = s.charCodeAt(i);
        if (isSpace(d) || d === SLASH || d === GT || d === EQ) break;
        i++;
      }
      const name = lowerAsciiName(s.slice(attrStart, i));
      const attrNameEnd = i;
      while (i < len && isSpace(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) !== EQ) {
        attrs.push({ name, start: attrStart, end: attrNameEnd, valueStart: -1, valueEnd: -1 });
        continue;
      }
      i++;
      while (i < len && isSpace(s.charCodeAt(i))) i++;
      if (i >= len) return this.span('other', start, len);
      const q = s.charCodeAt(i);
      if (q === DQUOTE || q === SQUOTE) {
        const close = s.indexOf(q === DQUOTE ? '"' : "'", i + 1);
        if (close < 0) return this.span('other', start, len);
        attrs.push({ name, start: attrStart, end: close + 1, valueStart: i + 1, valueEnd: close });
        i = close + 1;
      } else {
        // Unquoted (possibly empty when `>` follows `=`): runs to whitespace or `>`.
        const valueStart = i;
        while (i < len && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== GT) i++;
        if (i >= len) return this.span('other', start, len);
        attrs.push({ name, start: attrStart, end: i, valueStart, valueEnd: i });
      }
    }
    const name = lowerAsciiName(s.slice(nameStart, nameEnd));
    this.pos = i;
    if (!closing && !this.foreign && RAW_TEXT.has(name)) this.rawTextOf = name;
    return { type: 'tag', start, end: i, name, nameEnd, closing, selfClosing, attrs };
  }
}
