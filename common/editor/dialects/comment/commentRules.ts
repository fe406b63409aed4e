import type { MarkdownIt, StateInline } from 'markdown-it';
import { rawBlockRule } from '../raw/rawBlockRule.ts';

/**
 * Obsidian's comments, `%%…%%` inside a line or as a block of lines: text the writer keeps out of
 * the reading view. Their content is kept raw (a `[[link]]` in a comment is no link).
 */
export function commentPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'comment_inline', commentInline);
  md.block.ruler.before('fence', 'comment_block', rawBlockRule('%%', 'comment_block'));
}

/** Where the `%%…%%` that opens at `pos` closes, or -1. */
export function commentEnd(src: string, pos: number, max = src.length): number {
  const end = src.indexOf('%%', pos + 2);
  return end === -1 || end + 2 > max ? -1 : end;
}

function commentInline(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (!src.startsWith('%%', pos)) return false;
  const end = commentEnd(src, pos, posMax);
  if (end === -1) return false;
  if (!silent) {
    const token = state.push('comment_inline', '', 0);
    token.content = src.slice(pos + 2, end);
    token.markup = '%%';
  }
  state.pos = end + 2;
  return true;
}
