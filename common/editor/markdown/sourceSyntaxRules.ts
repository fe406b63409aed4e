import type { MarkdownIt, StateInline } from 'markdown-it';

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
 * markdown-it forgets: a hard break's `\` or blanks (in `markup`) and a link's or image's
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
      const blanks = /[ ]*$/.exec(state.pending)![0].length;
      const count = state.tokens.length;
      if (!original(state, silent)) return false;
      const last = state.tokens[state.tokens.length - 1];
      if (!silent && state.tokens.length > count && last?.type === 'hardbreak') {
        last.markup = markup === ' ' ? ' '.repeat(blanks) : markup;
      }
      return true;
    };
  wrap(md, 'newline', markBreak(' '));
  wrap(md, 'escape', markBreak('\\'));
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
