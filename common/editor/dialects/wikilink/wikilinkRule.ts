import type { MarkdownIt, StateInline } from 'markdown-it';
import { readWikilink } from './wikilinkSyntax.ts';

/**
 * `[[Title]]`, `[[Title#Heading|alias]]`, `[[Title^block]]` and `![[file]]` (Obsidian) as a
 * `wikilink` token whose `meta` holds its parts. Before markdown-it's link rule, as Obsidian
 * reads `[[a]](b)` as a wikilink and text; after the escape rule, so `\[\[a]]` stays text. Where
 * the inner brackets are a reference link the file defines (`[a]: url`), CommonMark's reading
 * wins: the file was written for it.
 */
export function wikilinkPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'wikilink', wikilink);
}

function wikilink(state: StateInline, silent: boolean): boolean {
  const c = state.src.charCodeAt(state.pos);
  if (c !== 0x5b && c !== 0x21) return false;
  const read = readWikilink(state.src, state.pos, state.posMax);
  if (!read) return false;
  const inner = state.src.slice(state.pos + (c === 0x21 ? 3 : 2), read.end - 2);
  const references = (state.env as { references?: Record<string, unknown> }).references;
  if (references?.[state.md.utils.normalizeReference(inner)] !== undefined) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    token.meta = { ...read.parts };
  }
  state.pos = read.end;
  return true;
}
