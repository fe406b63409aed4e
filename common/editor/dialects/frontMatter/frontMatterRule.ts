import type { MarkdownIt, StateBlock } from 'markdown-it';
import type { FrontMatterAttrs } from './FrontMatter.ts';

/** The token type the rule emits; its `meta` holds {@link FrontMatterAttrs}. */
export const FRONT_MATTER_TOKEN = 'front_matter';

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]!, state.eMarks[line]!);
}

/**
 * Set to true in the parse environment of Markdown that is part of a document but not its start
 * (text read again after a construct left open): its first line is no document's first line.
 */
export const NOT_DOCUMENT_START = 'inkwellNotDocumentStart';

/**
 * YAML front matter as Obsidian, Jekyll and GitHub read it: a `---` line that is the very first
 * line of the document, up to the next `---` (or `...`) line. Anywhere else, or without a
 * closing line, `---` stays what CommonMark makes of it.
 */
function frontMatter(state: StateBlock, startLine: number, endLine: number, silent: boolean) {
  if (startLine !== 0 || state.parentType !== 'root' || state.bMarks[0] !== 0) return false;
  if ((state.env as Record<string, unknown>)[NOT_DOCUMENT_START] === true) return false;
  const open = lineText(state, 0);
  if (!OPEN.test(open)) return false;
  let close = 1;
  while (close < endLine && !CLOSE.test(lineText(state, close))) close++;
  if (close >= endLine) return false;
  if (silent) return true;
  const yaml = state.src.slice(state.bMarks[1]!, state.bMarks[close]!);
  const token = state.push(FRONT_MATTER_TOKEN, '', 0);
  token.block = true;
  token.map = [0, close + 1];
  const next = close + 1;
  const spaced = next >= endLine || state.isEmpty(next);
  token.meta = { open, yaml, close: lineText(state, close), spaced } satisfies FrontMatterAttrs;
  state.line = close + 1;
  return true;
}

/** Adds the front matter rule to a markdown-it instance (before every other block rule). */
export function frontMatterPlugin(md: MarkdownIt): void {
  md.block.ruler.before('table', FRONT_MATTER_TOKEN, frontMatter);
}
