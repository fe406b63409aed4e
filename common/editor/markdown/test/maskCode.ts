import type { MarkdownIt } from 'markdown-it';
import { FRONT_MATTER_TOKEN } from '../../dialects/frontMatter/frontMatterRule.ts';
import { createMarkdownIt } from '../markdownIt.ts';

/** A fenced code block found in a Markdown source, by character offsets. */
export interface Fence {
  /** Offset of the opening fence line. */
  start: number;
  /** Offset just past the closing fence line (or the end of the text when it is never closed). */
  end: number;
  /** The info string's first word, lower-cased (`mermaid`, `js`, …). */
  lang: string;
}

const FENCE_OPEN = /^( {0,3}(?:> ?)*[ \t]*)(`{3,}|~{3,})([^\n]*)$/;

/** The fenced code blocks of `source`, found line by line (CommonMark's rules, roughly). */
export function findFences(source: string): Fence[] {
  const fences: Fence[] = [];
  const lines = source.split('\n');
  let offset = 0;
  let open: { start: number; marker: string; lang: string } | null = null;
  for (const line of lines) {
    const next = offset + line.length + 1;
    if (open) {
      const close = line.replace(/^[ \t>]*/, '');
      if (close.startsWith(open.marker) && /^[`~]*[ \t]*$/.test(close)) {
        fences.push({ start: open.start, end: Math.min(next, source.length), lang: open.lang });
        open = null;
      }
    } else {
      const match = FENCE_OPEN.exec(line);
      // A backtick fence's info string may not contain a backtick (it would be inline code).
      if (match && !(match[2]!.startsWith('`') && match[3]!.includes('`'))) {
        const lang = (match[3]!.trim().split(/\s+/)[0] ?? '').toLowerCase();
        open = { start: offset, marker: match[2]!, lang };
      }
    }
    offset = next;
  }
  if (open) fences.push({ start: open.start, end: source.length, lang: open.lang });
  return fences;
}

/** `text` with the characters from `start` to `end` replaced by spaces (line breaks kept). */
export function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
}

/**
 * `source` with fenced code blocks and inline code spans blanked out, offsets unchanged, so that
 * constructs are only looked for where a Markdown reader would see them.
 */
export function maskCode(source: string): string {
  let masked = source;
  for (const fence of findFences(source)) masked = blank(masked, fence.start, fence.end);
  return maskCodeSpans(masked);
}

/**
 * `text` with inline code spans blanked: a span opens with a run of backticks and closes with a
 * run of the same length, within one paragraph (it never crosses a blank line).
 */
function maskCodeSpans(text: string): string {
  return text
    .split(/(\n[ \t]*\n)/)
    .map((part) => part.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, ' ')))
    .join('');
}

/** A code span; it opens at no backtick escaped by a backslash (`` \` ``), but may close at one. */
const CODE_SPAN = /(?<!`|(?:^|[^\\])(?:\\\\)*\\)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

let reader: MarkdownIt | undefined;

/** Blocks Inkwell keeps as written, every word of them shown: code, math, comments, front matter. */
const LITERAL_BLOCKS = new Set([
  'fence',
  'code_block',
  'math_block',
  'comment_block',
  FRONT_MATTER_TOKEN,
]);

/** What a line of the source is to the mask: code (blanked), or text without code spans. */
type Role = 'code' | 'noSpans';

/**
 * Like `maskCode`, but with the block structure as Inkwell reads it (its own markdown-it, dialects
 * included): indented code is code too, and so is what Inkwell keeps as written (math, comments,
 * front matter), in which a stray fence or `<!DOCTYPE` opens nothing; footnote definitions'
 * indented paragraphs are text. Raw HTML blocks and link reference definitions have no code spans
 * (a backtick there is just a character, as in `onload=`alert(1)`` or a URL), and a code span
 * never runs from one block into the next (a list item into the following one).
 */
export function maskCodeBlocks(source: string): string {
  if (!reader) {
    reader = createMarkdownIt();
    // Definitions stay in the token stream, so that their lines are known (as parseMarkdown does).
    reader.core.ruler.disable('strip_references');
  }
  const lines = source.split('\n');
  const role: Array<Role | undefined> = new Array<undefined>(lines.length);
  // The inline content each line belongs to (a paragraph, a heading…): a code span never leaves it.
  const inline: number[] = lines.map((_, i) => -1 - i);
  reader.parse(source, {}).forEach((token, k) => {
    if (!token.map) return;
    const kind: Role | undefined = LITERAL_BLOCKS.has(token.type)
      ? 'code'
      : token.type === 'html_block' || token.type === 'reference_definition'
        ? 'noSpans'
        : undefined;
    if (kind) for (let i = token.map[0]; i < token.map[1]; i++) role[i] = kind;
    if (token.type === 'inline') for (let i = token.map[0]; i < token.map[1]; i++) inline[i] = k;
  });
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) out.push(maskCodeSpans(run.join('\n')));
    run = [];
  };
  lines.forEach((line, i) => {
    if (role[i] === undefined) {
      if (i > 0 && inline[i] !== inline[i - 1]) flush();
      return run.push(line);
    }
    flush();
    out.push(role[i] === 'code' ? line.replace(/[^\n]/g, ' ') : line);
  });
  flush();
  return out.join('\n');
}
