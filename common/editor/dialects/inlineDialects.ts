import type { MarkdownIt, Token } from 'markdown-it';
import type { Attrs, Mark, Node as PMNode, NodeType, Schema } from '@tiptap/pm/model';
import { commentEnd, commentPlugin } from './comment/commentRules.ts';
import { commentSource } from './comment/CommentNodes.ts';
import { inlineFootnotePlugin } from './footnote/inlineFootnoteRule.ts';
import { footnotePlugin } from './footnote/footnoteRules.ts';
import { highlightPlugin } from './highlight/highlightRule.ts';
import { displayMathEnd, inlineMathEnd, mathPlugin } from './math/mathRules.ts';
import { inlineMathSource } from './math/MathNodes.ts';
import { tagNameLength, tagPlugin } from './tag/tagRule.ts';
import { wikilinkPlugin } from './wikilink/wikilinkRule.ts';
import { wikilinkParts, wikilinkSource } from './wikilink/wikilinkSyntax.ts';

/**
 * The codec's side of the Markdown of Obsidian, GitHub and docs sites that lives inside a line or
 * a plain block: highlights, math, footnotes, comments, tags and wikilinks (docs/PRODUCT.md, "Markdown").
 * Each has its folder here; this file is where the codec takes them in (the schema takes their
 * nodes from inlineDialectNodes.ts, so that the editor's first download carries no rules).
 */
/** Teaches markdown-it the syntax of every construct here. */
export function inlineDialectsPlugin(md: MarkdownIt): void {
  highlightPlugin(md);
  mathPlugin(md);
  footnotePlugin(md);
  inlineFootnotePlugin(md);
  commentPlugin(md);
  tagPlugin(md);
  wikilinkPlugin(md);
}

/** What the document builder offers a block construct. */
export interface DialectBlockTarget {
  nodes: Schema['nodes'];
  add(node: PMNode): void;
  push(type: NodeType, attrs: Attrs | null): void;
  pop(): void;
}

/** Reads a block token of a construct here; false for any other token. */
export function readDialectBlock(token: Token, target: DialectBlockTarget): boolean {
  const n = target.nodes;
  switch (token.type) {
    case 'math_block':
      target.add(n.mathBlock!.create({ tex: token.content }));
      return true;
    case 'comment_block':
      target.add(n.commentBlock!.create({ text: token.content }));
      return true;
    case 'footnote_def_open':
      target.push(n.footnoteDefinition!, token.meta as { label: string; tight: boolean });
      return true;
    case 'footnote_def_close':
      target.pop();
      return true;
    default:
      return false;
  }
}

/** What the inline builder offers an inline construct. */
export interface DialectInlineTarget {
  schema: Schema;
  /** Adds a leaf node with the marks open at this point. */
  leaf(type: NodeType, attrs: Attrs): void;
  open(name: string, mark: Mark): void;
  closeMark(name: string): void;
}

/** Reads an inline token of a construct here; false for any other token. */
export function readDialectInline(token: Token, target: DialectInlineTarget): boolean {
  const { nodes: n, marks: m } = target.schema;
  switch (token.type) {
    case 'math_inline':
      target.leaf(n.mathInline!, { tex: token.content, display: token.markup === '$$' });
      return true;
    case 'comment_inline':
      target.leaf(n.commentInline!, { text: token.content });
      return true;
    case 'footnote_ref':
      target.leaf(n.footnoteRef!, { label: (token.meta as { label: string }).label });
      return true;
    case 'tag':
      target.leaf(n.tag!, { name: token.content });
      return true;
    case 'inline_footnote':
      target.leaf(n.inlineFootnote!, { text: token.content });
      return true;
    case 'wikilink':
      target.leaf(n.wikilink!, wikilinkParts(token.meta as Record<string, unknown>));
      return true;
    case 'mark_open':
      target.open('highlight', m.highlight!.create({ syntax: '==' }));
      return true;
    case 'mark_close':
      target.closeMark('highlight');
      return true;
    default:
      return false;
  }
}

/** What the serializer offers a block construct. */
export interface DialectBlockWriter {
  blocks(node: PMNode): string;
  indent(text: string, first: string, rest: string): string;
}

/** The Markdown of a block node of a construct here, or null for any other node. */
export function writeDialectBlock(node: PMNode, writer: DialectBlockWriter): string | null {
  switch (node.type.name) {
    case 'mathBlock':
      // An empty formula would read back as text.
      return String(node.attrs.tex) === '' ? '' : `$$${String(node.attrs.tex)}$$`;
    case 'commentBlock':
      return commentSource(String(node.attrs.text));
    case 'footnoteDefinition': {
      const head = `[^${String(node.attrs.label)}]:`;
      const body = writer.blocks(node);
      return body === '' ? head : writer.indent(body, `${head} `, '    ');
    }
    default:
      return null;
  }
}

/** True when `node` is written on the line after `previous`, without a blank line between. */
export function joinsPrevious(node: PMNode, previous: PMNode | null): boolean {
  return (
    node.type.name === 'footnoteDefinition' &&
    node.attrs.tight === true &&
    previous?.type.name === 'footnoteDefinition'
  );
}

/**
 * The Markdown of an inline node of a construct here, or null for any other node. In a table
 * cell a `|` is written `\|` (the table reads it back as `|` before the line is parsed).
 */
export function writeDialectInline(node: PMNode, table = false): string | null {
  const source = writeInline(node);
  return source !== null && table ? source.replace(/\|/g, '\\|') : source;
}

function writeInline(node: PMNode): string | null {
  switch (node.type.name) {
    case 'mathInline':
      return String(node.attrs.tex) === ''
        ? ''
        : inlineMathSource(String(node.attrs.tex), node.attrs.display === true);
    case 'commentInline':
      return commentSource(String(node.attrs.text));
    case 'footnoteRef':
      return `[^${String(node.attrs.label)}]`;
    case 'tag':
      return `#${String(node.attrs.name)}`;
    case 'inlineFootnote':
      return `^[${String(node.attrs.text)}]`;
    case 'wikilink':
      return wikilinkSource(wikilinkParts(node.attrs));
    default:
      return null;
  }
}

/** The delimiter a highlight is written with (`==`), or null when it is written as `<mark>`. */
export function highlightDelimiter(mark: Mark): string | null {
  return mark.type.name === 'highlight' && mark.attrs.syntax === '==' && !mark.attrs.color
    ? '=='
    : null;
}

/**
 * How the text at `i` is written when a construct here would otherwise read it as syntax: the
 * escaped text and how many characters it stands for; null where nothing here starts. Only an
 * opening that would find its closing is escaped, so `$5 and $10`, `a == b` and `C#` stay as
 * they are.
 */
export function escapeDialect(
  text: string,
  i: number,
  before?: string,
  strictMath = false,
): [string, number] | null {
  switch (text[i]) {
    case '$':
      if (strictMath) return text.includes('$', i + 1) ? ['\\$', 1] : null;
      if (text[i + 1] === '$') return [displayMathEnd(text, i) === -1 ? '$$' : '\\$\\$', 2];
      // A backslash in text is written doubled, so it escapes no `$` that follows it.
      return inlineMathEnd(text, i, text.length, false) === -1 ? null : ['\\$', 1];
    case '%':
      return text[i + 1] === '%' && commentEnd(text, i) !== -1 ? ['\\%', 1] : null;
    case '#':
      return tagNameLength(text, i, i === 0 ? before : text[i - 1]) > 0 ? ['\\#', 1] : null;
    case '=':
      return escapeEquals(text, i, i === 0 ? before : text[i - 1]);
    default:
      return null;
  }
}

/** True when `escaped`, written for `text`, would still hold math (see {@link escapeDialect}). */
export function mathEscapeFails(text: string, escaped: string): boolean {
  if (!text.includes('$')) return false;
  for (let p = 0; p < escaped.length; p++) {
    const c = escaped[p];
    if (c === '\\') p++;
    else if (c === '$') {
      const display = escaped[p + 1] === '$';
      if ((display ? displayMathEnd(escaped, p) : inlineMathEnd(escaped, p)) !== -1) return true;
      if (display) p++;
    }
  }
  return false;
}

/**
 * A run of exactly two `=` is a highlight delimiter unless blanks stand on both sides of it, and
 * it only pairs with another such run in the same text.
 */
function escapeEquals(
  text: string,
  i: number,
  before: string | undefined,
): [string, number] | null {
  if (before === '=') return null;
  let end = i;
  while (text[end] === '=') end++;
  if (end - i !== 2) return [text.slice(i, end), end - i];
  const blank = (c: string | undefined) => c === undefined || /\s/u.test(c);
  const delimiter = !(blank(before) && blank(text[end]));
  const paired = text.indexOf('==', end) !== -1 || (i >= 2 && text.lastIndexOf('==', i - 2) !== -1);
  return [delimiter && paired ? '\\==' : '==', 2];
}
