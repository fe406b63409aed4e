import type { MarkdownIt, StateInline } from 'markdown-it';
import { rawBlockRule } from '../raw/rawBlockRule.ts';

const DOLLAR = 0x24;

/**
 * Math as Obsidian and GitHub write it: `$…$` inline, `$$…$$` inline or as a block. Owned rather
 * than taken from markdown-it-texmath or markdown-it-katex: those hand the renderer TeX after
 * markdown-it's escapes ran over it (`$\,x$` came back as `$,x$`) or render it on the spot; here
 * the token holds the source exactly as written and nothing else.
 */
export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', rawBlockRule('$$', 'math_block'));
}

/**
 * Where the `$…$` that opens at `pos` closes, or -1: the pandoc rule, as Obsidian reads it.
 * `escapes`: a backslash hides the character after it (true in Markdown source).
 */
export function inlineMathEnd(src: string, pos: number, max = src.length, escapes = true): number {
  // Unlike pandoc, an opening `$` after a letter, digit or `_` opens nothing (`_$data_` or
  // `a$b$c` in a README are no math), while `the $n$th` still is.
  if (pos > 0 && /[\p{L}\p{N}_]/u.test(src[pos - 1]!)) return -1;
  const first = src[pos + 1];
  if (first === undefined || pos + 1 >= max || /\s/.test(first) || first === '$') return -1;
  for (let j = pos + 1; j < max; j++) {
    const c = src[j];
    if (c === '\\' && escapes) j++;
    else if (c === '\n') return -1;
    else if (c === '$') {
      // A closing `$` follows no blank and no digit follows it: `$5 and $10` is money.
      return /\s/.test(src[j - 1]!) || /[0-9]/.test(src[j + 1] ?? '') ? -1 : j;
    }
  }
  return -1;
}

/** Where the `$$…$$` that opens at `pos` closes, or -1. */
export function displayMathEnd(src: string, pos: number, max = src.length): number {
  const end = src.indexOf('$$', pos + 2);
  return end === -1 || end + 2 > max || end === pos + 2 ? -1 : end;
}

function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== DOLLAR) return false;
  const display = src.charCodeAt(pos + 1) === DOLLAR;
  const end = display ? displayMathEnd(src, pos, posMax) : inlineMathEnd(src, pos, posMax);
  if (end === -1) {
    if (!display) return false;
    // An unclosed `$$` is text; taken whole so that its second `$` opens nothing.
    if (!silent) state.pending += '$$';
    state.pos += 2;
    return true;
  }
  const width = display ? 2 : 1;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(pos + width, end);
    token.markup = display ? '$$' : '$';
  }
  state.pos = end + width;
  return true;
}
