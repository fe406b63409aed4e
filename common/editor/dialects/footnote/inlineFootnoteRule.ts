import type { MarkdownIt, StateInline } from 'markdown-it';

/** Where the `^[…]` that opens at `pos` closes (its `]`), or -1; brackets inside must balance. */
export function inlineFootnoteEnd(src: string, pos: number, max = src.length): number {
  if (src[pos] !== '^' || src[pos + 1] !== '[') return -1;
  let depth = 0;
  for (let j = pos + 1; j < max; j++) {
    const c = src[j];
    if (c === '\\') j++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j === pos + 2 ? -1 : j;
  }
  return -1;
}

/** Obsidian's inline footnotes, `^[text]`, kept as written. */
export function inlineFootnotePlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'inline_footnote', (state: StateInline, silent: boolean) => {
    const { src, pos, posMax } = state;
    if (src.charCodeAt(pos) !== 0x5e) return false;
    const end = inlineFootnoteEnd(src, pos, posMax);
    if (end === -1) return false;
    if (!silent) state.push('inline_footnote', '', 0).content = src.slice(pos + 2, end);
    state.pos = end + 1;
    return true;
  });
}
