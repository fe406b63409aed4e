import type { MarkdownIt, StateInline } from 'markdown-it';

const EQUALS = 0x3d;

/**
 * `==text==` as a highlight (Obsidian). A run of exactly two `=` is a delimiter, paired by
 * markdown-it's own balancing under CommonMark's flanking rules, as `~~` is; a longer or shorter
 * run stays text. Owned here rather than taken from markdown-it-mark: it is a few lines, and the
 * serializer's escaping must agree with it exactly.
 */
export function highlightPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'highlight', tokenize);
  md.inline.ruler2.before('emphasis', 'highlight', (state) => {
    pairUp(state, state.delimiters);
    for (const meta of state.tokens_meta) if (meta?.delimiters) pairUp(state, meta.delimiters);
    return false;
  });
}

function tokenize(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (silent || state.src.charCodeAt(start) !== EQUALS) return false;
  const scanned = state.scanDelims(start, true);
  if (scanned.length !== 2) return false;
  const token = state.push('text', '', 0);
  token.content = '==';
  state.delimiters.push({
    marker: EQUALS,
    length: 0,
    token: state.tokens.length - 1,
    end: -1,
    open: scanned.can_open,
    close: scanned.can_close,
  });
  state.pos += 2;
  return true;
}

/** Turns each `==` delimiter that balancing paired into the opening and closing tokens. */
function pairUp(state: StateInline, delimiters: StateInline['delimiters']): void {
  for (const start of delimiters) {
    if (start.marker !== EQUALS || start.end === -1) continue;
    const end = delimiters[start.end]!;
    const open = state.tokens[start.token]!;
    open.type = 'mark_open';
    open.tag = 'mark';
    open.nesting = 1;
    open.markup = '==';
    open.content = '';
    const close = state.tokens[end.token]!;
    close.type = 'mark_close';
    close.tag = 'mark';
    close.nesting = -1;
    close.markup = '==';
    close.content = '';
  }
}
