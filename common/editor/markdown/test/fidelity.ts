import MarkdownIt from 'markdown-it';
import { parseMarkdown } from '../parseMarkdown.ts';
import { serializeMarkdown } from '../serializeMarkdown.ts';

/**
 * The reference renderer for fidelity checks: plain markdown-it with docs/PRODUCT.md "Markdown"'s
 * settings and its own link validation, independent of Inkwell's codec.
 */
export const reference = new MarkdownIt('default', {
  html: true,
  linkify: false,
  breaks: false,
  typographer: false,
});

/** HTML as a browser would show it: runs of white space folded, none between tags (but in <pre>). */
export function normaliseHtml(html: string): string {
  return html
    .split(/(<pre[\s\S]*?<\/pre>)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/\s+/g, ' ').replace(/>\s+</g, '><').replace(/\s+</g, '<'),
    )
    .join('')
    .replace(/>\s+/g, '>')
    .trim();
}

/** Markdown as Inkwell exports it after importing it. */
export function roundtrip(markdown: string): string {
  return serializeMarkdown(parseMarkdown(markdown));
}

/** The rendered HTML of each top-level block of a Markdown text, normalised. */
export function renderBlocks(markdown: string): string[] {
  const env = {};
  const tokens = reference.parse(markdown, env);
  const blocks: string[] = [];
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.level === 0 && tokens[i]!.nesting !== 1) {
      blocks.push(
        normaliseHtml(
          reference.renderer.render(tokens.slice(start, i + 1), reference.options, env),
        ),
      );
      start = i + 1;
    }
  }
  return blocks.filter((block) => block !== '');
}

/**
 * How many of the original's top-level blocks the export renders identically: the length of the
 * longest common subsequence of the two block lists.
 */
export function keptBlocks(original: string[], exported: string[]): number {
  const n = original.length;
  const m = exported.length;
  let previous = new Uint32Array(m + 1);
  let current = new Uint32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      current[j] =
        original[i - 1] === exported[j - 1]
          ? previous[j - 1]! + 1
          : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[m]!;
}
