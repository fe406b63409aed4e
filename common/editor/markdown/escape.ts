import { escapeDialect, mathEscapeFails } from '../dialects/inlineDialects.ts';

/**
 * Escaping of document text for Markdown: only what markdown-it would otherwise read as syntax,
 * so that text comes back as the same text and a file stays readable.
 */

const ALNUM = /[\p{L}\p{N}]/u;
const PUNCT = /[\p{P}\p{S}]/u;

/** Where a piece of text is written. */
export interface EscapeContext {
  /** Nothing has been written on this line yet (block start or after a hard break). */
  lineStart: boolean;
  /**
   * The line continues a paragraph (after a line break): only what interrupts a paragraph is
   * escaped at its start, and an ordered list's marker does so only as `1.` before text.
   */
  continues?: boolean;
  /** Inside a GFM table cell, where `|` ends the cell. */
  table: boolean;
  /** The character written just before the text, when known. */
  before?: string;
  /**
   * Leaves `[` and `]` unescaped but for a task box `[ ]` or a callout's `[!` opening a line,
   * which only the block around the text reads as such, and `*`: the caller checks the rest.
   */
  lean?: boolean;
}

/** Escapes text for a Markdown paragraph, heading or cell. */
export function escapeText(text: string, context: EscapeContext): string {
  let out = escapeChars(text, context, false);
  // Escaping one `$` can let another pair up (math reads past `\$`): then every `$` that
  // could pair is escaped.
  if (mathEscapeFails(text, out)) out = escapeChars(text, context, true);
  return context.lineStart ? escapeLineStart(out, context.continues === true) : out;
}

function escapeChars(text: string, context: EscapeContext, strictMath: boolean): string {
  let out = '';
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    switch (c) {
      case '[':
      case ']':
        out +=
          context.lean &&
          !(i === 0 && context.lineStart && /^\[(?:[ xX]\](?:[ \t]|$)|!)/.test(text))
            ? c
            : `\\${c}`;
        break;
      case '\\':
      case '`':
        out += `\\${c}`;
        break;
      case '*':
        out += context.lean ? c : `\\${c}`;
        break;
      case '_': {
        const before = text[i - 1];
        const after = text[i + 1];
        out += before && after && ALNUM.test(before) && ALNUM.test(after) ? c : '\\_';
        break;
      }
      case '~':
        out += text[i - 1] === '~' || text[i + 1] === '~' || i === 0 || i === n - 1 ? '\\~' : c;
        break;
      case '<': {
        const next = text[i + 1];
        out += next === undefined || /[A-Za-z/!?]/.test(next) ? '\\<' : c;
        break;
      }
      case '&':
        out += /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/.test(
          text.slice(i, i + 40),
        )
          ? '\\&'
          : c;
        break;
      case '|':
        out += context.table ? '\\|' : c;
        break;
      case '$':
      case '%':
      case '#':
      case '=': {
        const [escaped, length] = escapeDialect(text, i, context.before, strictMath) ?? [c, 1];
        out += escaped;
        i += length - 1;
        break;
      }
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

/** Escapes what would start a block when text begins a line (that `continues` a paragraph). */
function escapeLineStart(s: string, continues: boolean): string {
  const lead = /^[ \t]+/.exec(s);
  if (lead) {
    // Leading blanks would be dropped, or start an indented code block.
    return `&#${lead[0].charCodeAt(0)};${s.slice(1)}`;
  }
  const c = s[0];
  if (c === '#' && /^#{1,6}(?:[ \t]|$)/.test(s)) return `\\${s}`;
  // Every `=` of a leading run: `\===` would leave `==`, a highlight's delimiter.
  if (c === '=') return s.replace(/^=+/, (run) => run.replace(/=/g, '\\='));
  if (c === '>' || (c === '~' && s.startsWith('~~~'))) return `\\${s}`;
  if ((c === '-' || c === '+') && /^[-+](?:[ \t]|$|-)/.test(s)) return `\\${s}`;
  const ordered = /^(\d{1,9})([.)])(?=[ \t]|$)/.exec(s);
  // An ordered list interrupts a paragraph only from 1, and only with text in its first item.
  const interrupts = ordered !== null && ordered[1] === '1' && /^\S+[ \t]+\S/.test(s);
  if (ordered && (!continues || interrupts)) return `${ordered[1]}\\${s.slice(ordered[1]!.length)}`;
  return s;
}

/** True for the start or end of a line and for Unicode whitespace. */
export function isBlank(c: string | undefined): boolean {
  return c === undefined || /\s/u.test(c);
}

/** True for Unicode punctuation and symbols, as CommonMark's flanking rules count them. */
export function isPunct(c: string | undefined): boolean {
  return c !== undefined && PUNCT.test(c);
}

/** A delimiter run between `before` and `after` can open emphasis (CommonMark left-flanking). */
export function leftFlanking(before: string | undefined, after: string | undefined): boolean {
  return !isBlank(after) && (!isPunct(after) || isBlank(before) || isPunct(before));
}

/** A delimiter run between `before` and `after` can close emphasis (CommonMark right-flanking). */
export function rightFlanking(before: string | undefined, after: string | undefined): boolean {
  return !isBlank(before) && (!isPunct(before) || isBlank(after) || isPunct(after));
}

/** Writes `code` as an inline code span that reads back as exactly `code`. */
export function codeSpan(code: string, table: boolean): string {
  let longest = 0;
  let run = 0;
  for (const c of code) {
    run = c === '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  let body = code.replace(/\n/g, ' ');
  if (table) body = body.replace(/\|/g, '\\|');
  const pad =
    body.startsWith('`') ||
    body.endsWith('`') ||
    (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '');
  return pad ? `${fence} ${body} ${fence}` : `${fence}${body}${fence}`;
}

/** Escapes a link destination, using the `<…>` form when it has blanks or unbalanced brackets. */
export function linkDestination(url: string): string {
  const escaped = url.replace(/[\\]/g, '\\\\').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
  let depth = 0;
  let balanced = true;
  for (const c of escaped) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) balanced = false;
  }
  if (url === '' || /[\s<>]/.test(url) || !balanced || depth !== 0) {
    return `<${escaped.replace(/[<>]/g, (c) => `\\${c}`).replace(/\n/g, '%0A')}>`;
  }
  return escaped;
}

/** A link or image title in double quotes. */
export function linkTitle(title: string): string {
  return `"${title.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
