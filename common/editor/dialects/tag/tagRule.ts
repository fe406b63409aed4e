import type { MarkdownIt, StateInline } from 'markdown-it';

/** A tag's name: letters, digits, `_`, `-` and `/` (nesting), at least one of them no digit. */
const TAG_NAME = /[\p{L}\p{N}\p{M}_/-]+/uy;
const NOT_ALL_DIGITS = /[^\p{N}]/u;

/**
 * The length of the tag name after the `#` at `pos`, or 0 when no tag starts there: as in
 * Obsidian, a tag follows the start, a blank or `(`, so `C#`, `&#35;` and `issue #12` are none.
 */
export function tagNameLength(src: string, pos: number, before = src[pos - 1]): number {
  if (before !== undefined && before !== '(' && !/\s/u.test(before)) return 0;
  TAG_NAME.lastIndex = pos + 1;
  const match = TAG_NAME.exec(src);
  return match && NOT_ALL_DIGITS.test(match[0]) ? match[0].length : 0;
}

/** `#tag` and `#nested/tag` as a tag (Obsidian). */
export function tagPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'tag', tag);
}

function tag(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x23) return false;
  const length = Math.min(tagNameLength(src, pos), state.posMax - pos - 1);
  if (length <= 0) return false;
  if (!silent) state.push('tag', '', 0).content = src.slice(pos + 1, pos + 1 + length);
  state.pos = pos + 1 + length;
  return true;
}
