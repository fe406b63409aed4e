import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';
import { escapeText, type EscapeContext } from './escape.ts';
import { ALWAYS_ESCAPED, isEscapable } from '../nodes/Escaped.ts';

type InlineRule = (state: StateInline, silent: boolean) => boolean;

/** What a link or image token records of its reference, read by the document builder. */
export interface ReferenceSyntax {
  /** `full` (`[text][label]`), `collapsed` (`[label][]`) or `shortcut` (`[label]`). */
  form: 'full' | 'collapsed' | 'shortcut';
  /** The label as written, before markdown-it folds its case. */
  label: string;
}

/**
 * Makes markdown-it's tokens tell what CommonMark lets a writer say in more than one way and
 * markdown-it forgets: a hard break's `\` or blanks and the blanks around a soft break's newline
 * (in `markup`), and a link's or image's
 * reference form and label (in `meta.reference`). The document builder keeps them as attributes
 * (nodes/sourceSyntax.ts) so that export writes them back as they were. Tokens are unchanged
 * otherwise, so rendering is too.
 */
export function sourceSyntaxPlugin(md: MarkdownIt): void {
  wrap(md, 'link', (original) => (state, silent) => {
    const start = state.pos;
    const count = state.tokens.length;
    if (!original(state, silent)) return false;
    if (!silent) noteReference(state, count, 'link_open', start);
    return true;
  });
  wrap(md, 'image', (original) => (state, silent) => {
    const start = state.pos;
    const count = state.tokens.length;
    if (!original(state, silent)) return false;
    if (!silent) noteReference(state, count, 'image', start + 1);
    return true;
  });
  const markBreak =
    (markup: string) => (original: InlineRule) => (state: StateInline, silent: boolean) => {
      // Counted back from the end, and only where a break can start: this runs at every position
      // of a paragraph, and a pattern anchored at the end would read all the pending text each time.
      const at = state.src.charCodeAt(state.pos);
      if (at !== 0x0a && at !== 0x5c) return original(state, silent);
      const start = state.pos;
      const pending = state.pending;
      let blanks = 0;
      while (pending.charCodeAt(pending.length - 1 - blanks) === 0x20) blanks++;
      const count = state.tokens.length;
      if (!original(state, silent)) return false;
      const last = state.tokens[state.tokens.length - 1];
      if (silent || state.tokens.length === count) return true;
      // The blanks the next line starts with, which the rule skipped.
      const newline = start + (at === 0x0a ? 0 : 1);
      const next = state.src.slice(newline + 1, state.pos);
      // Which line of the paragraph's text the break ends, for the document builder to find
      // its source line (a lazy one: sourceLayout.ts).
      if (last?.type === 'hardbreak' || last?.type === 'softbreak') {
        last.meta = { line: lineOf(state, newline) };
      }
      if (last?.type === 'hardbreak') {
        const before = markup === ' ' ? ' '.repeat(blanks) : markup;
        last.markup = next === '' ? before : `${before}\n${next}`;
      } else if (last?.type === 'softbreak') {
        last.markup = `${blanks === 1 ? ' ' : ''}\n${next}`;
      }
      return true;
    };
  wrap(md, 'newline', markBreak(' '));
  wrap(md, 'escape', markBreak('\\'));
  md.core.ruler.before('text_join', 'md_escape', keepEscapes);
}

/** Where the last line count of an inline source stopped: its position and the lines before it. */
const counted = new WeakMap<StateInline, { pos: number; line: number }>();

/**
 * How many newlines `state.src` holds before `pos`, counted on from the last position asked for
 * (breaks come in order), so that a paragraph's breaks cost one pass over it.
 */
function lineOf(state: StateInline, pos: number): number {
  let mark = counted.get(state) ?? { pos: 0, line: 0 };
  if (mark.pos > pos) mark = { pos: 0, line: 0 };
  let line = mark.line;
  for (
    let i = state.src.indexOf('\n', mark.pos);
    i >= 0 && i < pos;
    i = state.src.indexOf('\n', i + 1)
  ) {
    line++;
  }
  counted.set(state, { pos, line });
  return line;
}

/** Longest run of text whose escapes are weighed (longer runs keep none, rather than take long). */
const MAX_RUN = 4000;

/**
 * Turns a backslash escape that export would not write by itself into an `md_escape` token, which
 * markdown-it does not join to the text around it and the document keeps as a mark (`\$10`,
 * `a\_b`). Whether export would write it is asked of export's own escaping, on the run of text
 * around it, so that reading an export back marks the same characters. An image's description
 * stays plain text.
 */
function keepEscapes(state: StateCore): void {
  state.tokens.forEach((block, b) => {
    if (block.type !== 'inline' || !block.children) return;
    const table = /^t[hd]_open$/.test(state.tokens[b - 1]?.type ?? '');
    const tokens = block.children;
    // The text export writes as one piece: a mark (a kept escape too) ends it.
    let run = '';
    let lineStart = true;
    // The run starts a line that continues the paragraph, after a line break.
    let continues = false;
    tokens.forEach((token, k) => {
      const isText = token.type === 'text' || token.type === 'text_special';
      if (!isText) {
        run = '';
        lineStart = token.type === 'softbreak' || token.type === 'hardbreak';
        continues = lineStart;
        return;
      }
      const c = token.content;
      // Paragraphs and headings are written with brackets and `*` left bare where they can be.
      const context = { lineStart, continues, table, lean: !table };
      if (mayKeep(token) && !escapedAnyway(run, c, textAfter(tokens, k + 1), context)) {
        token.type = 'md_escape';
        run = '';
        lineStart = false;
        return;
      }
      run += c;
    });
  });
}

/**
 * The text of the text tokens from `from` on, up to the first other token or the next escape that
 * may be kept (export writes the text between two kept escapes as a piece of its own).
 */
function textAfter(tokens: Token[], from: number): string {
  let after = '';
  for (let k = from; k < tokens.length && after.length < MAX_RUN; k++) {
    const token = tokens[k]!;
    if (token.type !== 'text' && token.type !== 'text_special') break;
    if (mayKeep(token)) break;
    after += token.content;
  }
  return after;
}

/** A backslash escape that export might not write by itself. */
function mayKeep(token: Token): boolean {
  return (
    token.type === 'text_special' &&
    token.info === 'escape' &&
    isEscapable(token.content) &&
    !ALWAYS_ESCAPED.has(token.content)
  );
}

/**
 * True when export, writing `c` between `before` and `after`, would write it with a backslash
 * anyway, or when that cannot be told: then no mark is needed, or none is trusted.
 */
function escapedAnyway(before: string, c: string, after: string, context: EscapeContext): boolean {
  if (before.length + after.length > MAX_RUN) return true;
  const text = before + c + after;
  const out = escapeText(text, context);
  // Export writes each character as itself or after a backslash; anything else is not told.
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const escaped = out[j] === '\\' && out[j + 1] === char;
    if (i === before.length) return escaped || out[j] !== char;
    if (escaped) j += 2;
    else if (out[j] === char) j += 1;
    else return true;
  }
  return true;
}

/** Replaces the inline rule `name` by `make(rule)`. */
function wrap(md: MarkdownIt, name: string, make: (original: InlineRule) => InlineRule): void {
  const rule = md.inline.ruler.__rules__.find((r) => r.name === name);
  if (!rule) throw new Error(`markdown-it has no inline rule ${name}`);
  md.inline.ruler.at(name, make(rule.fn as InlineRule));
}

/**
 * Records on the link or image token that the rule just pushed (from `count` on) how its
 * reference was written; `labelAt` is the position of the `[` that opens its text.
 */
function noteReference(state: StateInline, count: number, type: string, labelAt: number): void {
  const token = state.tokens.slice(count).find((t) => t.type === type);
  const meta = token?.meta as { label?: unknown; reference?: ReferenceSyntax } | null | undefined;
  if (!token || !meta || typeof meta.label !== 'string') return;
  const end = state.pos;
  const oldMax = state.posMax;
  state.posMax = end;
  const labelEnd = state.md.helpers.parseLinkLabel(state, labelAt, type === 'link_open');
  state.posMax = oldMax;
  if (labelEnd < 0) return;
  const text = state.src.slice(labelAt + 1, labelEnd);
  const rest = state.src.slice(labelEnd + 1, end);
  if (rest === '') meta.reference = { form: 'shortcut', label: text };
  else if (rest === '[]') meta.reference = { form: 'collapsed', label: text };
  else if (rest.startsWith('[') && rest.endsWith(']')) {
    meta.reference = { form: 'full', label: rest.slice(1, -1) };
  }
}
