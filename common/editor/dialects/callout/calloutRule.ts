import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { calloutAttrs, type CalloutAttrs } from './Callout.ts';

/** Token types of a callout; `callout_open.meta` holds its {@link CalloutAttrs}. */
export const CALLOUT_OPEN = 'callout_open';
export const CALLOUT_CLOSE = 'callout_close';

const MARKER = /^\[!([\w-]+)\]([+-]?)(.*)$/;

/** The callout a quote opens with, read from its first paragraph's first line, or null. */
function readMarker(tokens: Token[], open: number): { attrs: CalloutAttrs; rest: string } | null {
  if (tokens[open + 1]?.type !== 'paragraph_open') return null;
  const inline = tokens[open + 2];
  if (inline?.type !== 'inline') return null;
  const newline = inline.content.indexOf('\n');
  const first = newline < 0 ? inline.content : inline.content.slice(0, newline);
  const match = MARKER.exec(first);
  if (!match) return null;
  // The blanks around the title are the header's layout (sourceLayout.ts), not the title.
  const title = match[3]!.replace(/^[ \t]/, '').replace(/[ \t]+$/, '');
  const attrs = calloutAttrs({ type: match[1], fold: match[2], title });
  return { attrs, rest: newline < 0 ? '' : inline.content.slice(newline + 1) };
}

/**
 * Turns each quote whose first line is `[!type]` into a callout, after the block rules and before
 * inline parsing, so the rest of the quote is parsed as it was. Inkwell owns this rule rather
 * than using @mdit/plugin-alert, which reads only GitHub's five types, no titles and no fold
 * markers, and renders HTML instead of keeping what was written.
 */
function callouts(state: StateCore): void {
  const tokens = state.tokens;
  const out: Token[] = [];
  const open: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'blockquote_open') {
      const marker = readMarker(tokens, i);
      open.push(marker !== null);
      if (marker) {
        token.type = CALLOUT_OPEN;
        token.meta = { ...marker.attrs };
        out.push(token);
        if (marker.rest === '') {
          // The header was the whole paragraph: drop paragraph_open, inline, paragraph_close.
          i += 3;
        } else {
          const inline = tokens[i + 2]!;
          inline.content = marker.rest;
          // Its text now starts on the paragraph's second line (see DocBuilder.lazyLine).
          inline.meta = { ...(inline.meta as object | null), skipped: 1 };
        }
        continue;
      }
    } else if (token.type === 'blockquote_close' && open.pop()) {
      token.type = CALLOUT_CLOSE;
    }
    out.push(token);
  }
  state.tokens = out;
}

/** Adds the callout rule to a markdown-it instance. */
export function calloutPlugin(md: MarkdownIt): void {
  md.core.ruler.after('block', 'callout', callouts);
}
