import type { MarkdownIt, Token } from 'markdown-it';
import {
  Mark,
  type Attrs,
  type Node as PMNode,
  type NodeType,
  type Schema,
} from '@tiptap/pm/model';
import { MAX_DEPTH } from '../../api/limits.ts';
import { inkwellSchema } from '../extensions.ts';
import { isAllowedImageUrl, isAllowedLinkUrl, parseYoutubeUrl, youtubeEmbedUrl } from '../url.ts';
import { sanitizeHtml } from '../html/sanitize.ts';
import { createMarkdownIt } from './markdownIt.ts';
import { plainTitle, readHtmlInline, readImageTag, readVideoBlock } from './readHtml.ts';
import { ALIGN_CLOSE, ALIGN_OPEN_RE } from './htmlForms.ts';
import { MarkdownTooDeepError } from './MarkdownTooDeepError.ts';
import { checkMarkdownText } from './decode.ts';
import { readUnclosedHtml } from './unclosedHtml.ts';
import { CALLOUT_OPEN } from '../dialects/callout/calloutRule.ts';
import { FRONT_MATTER_TOKEN, NOT_DOCUMENT_START } from '../dialects/frontMatter/frontMatterRule.ts';
import { readDialectBlock, readDialectInline } from '../dialects/inlineDialects.ts';
import { blockSyntax, breakSyntax, inlineSyntax, linkSyntax } from './readSyntax.ts';
import {
  blanksEnd,
  calloutHeader,
  documentEnd,
  gapBefore,
  headingSpace,
  itemLayout,
  itemPrefix,
  itemSpace,
  lazyPrefix,
  quoteBlank,
  quoteEnd,
  quotedIndent,
  trailingBlanks,
} from './sourceLayout.ts';

let shared: MarkdownIt | undefined;

/** An open container while the token stream is walked. */
interface Frame {
  type: NodeType;
  attrs: Attrs | null;
  content: PMNode[];
  /** For lists: false once a loose (non-hidden) paragraph is seen. */
  tight?: boolean;
  /** The line it starts on, for errors. */
  line: number;
  /** The lines of the source it spans, [first, after last), when known. */
  map?: [number, number] | null;
  /**
   * The column its content starts at in a source line (0 for the document, a list item's content
   * column), or null when unknown, as inside a quote: how far a block inside is indented.
   */
  column?: number | null;
  /** For a list item: the column of its marker, when known. */
  start?: number | null;
  /**
   * For a list: how the first of its items with lines below its marker starts them (`prefix`),
   * which its items without such lines take (a sub-list added there is written the same way).
   */
  prefix?: string | null;
  /** For a list: for each item closed, whether it read its own `prefix`. */
  decided?: boolean[];
}

const TASK_PREFIX = /^\[([ xX])\](?: |$)/;

/**
 * Parses Markdown (markdown-it with Inkwell's settings) into a document of the Inkwell schema.
 * Runs in Node and the browser, in time linear in the input. Throws MarkdownTooDeepError when
 * blocks nest deeper than a document may (MAX_DEPTH), rather than losing what lies deeper, and a
 * MarkdownImportError for text holding a NUL or a lone surrogate (checkMarkdownText).
 */
export function parseMarkdown(markdown: string, schema: Schema = inkwellSchema()): PMNode {
  checkMarkdownText(markdown);
  // markdown-it reads \r\n and \r as \n; the lines that tell the layout are read the same way.
  return parseAt(markdown.replace(/\r\n?/g, '\n'), schema, { depth: 0, line: 0 });
}

/**
 * {@link parseMarkdown} for Markdown that goes into a document rather than being one (an AI
 * answer, Paste as Markdown): without the layout of a file's end (`end`, sourceSyntax.ts), which
 * its last block would carry to wherever it is put (an answer with no final newline would leave
 * the document it ends exported without one).
 */
export function parseMarkdownFragment(markdown: string, schema: Schema = inkwellSchema()): PMNode {
  const doc = parseMarkdown(markdown, schema);
  const last = doc.lastChild;
  if (!last || last.attrs.end === null || last.attrs.end === undefined) return doc;
  const plain = last.type.create({ ...last.attrs, end: null }, last.content, last.marks);
  return doc.copy(doc.content.replaceChild(doc.childCount - 1, plain));
}

/** Where a piece of Markdown sits: the depth of its container and the line before its first. */
interface Base {
  depth: number;
  line: number;
  /** True for Markdown read apart from the document's (after a construct left open). */
  apart?: boolean;
}

function parseAt(markdown: string, schema: Schema, base: Base): PMNode {
  if (!shared) {
    shared = createMarkdownIt();
    // Definitions stay in the token stream, so that one no link uses can be kept as text.
    shared.core.ruler.disable('strip_references');
  }
  // Markdown read apart (after a construct left open) starts no document: no front matter in it.
  const env: MarkdownEnv = base.apart ? { [NOT_DOCUMENT_START]: true } : {};
  const tokens = shared.parse(markdown, env);
  return new DocBuilder(schema, base, { markdown, env }).build(tokens);
}

/** What markdown-it collects while parsing: the link reference definitions, by label. */
interface MarkdownEnv {
  [key: string | symbol]: unknown;
  references?: Record<string, { href: string; title: string }>;
}

/** The source parsed, and what markdown-it collected from it. */
interface Source {
  markdown: string;
  env: MarkdownEnv;
}

class DocBuilder {
  private readonly schema: Schema;
  readonly nodes: Schema['nodes'];
  private readonly stack: Frame[] = [];
  /** Text alignment for paragraphs and headings inside a `<div align>` wrapper. */
  private align: string | null = null;
  private alignEnd = -1;
  private readonly base: Base;
  /** The line of the block token being read (1-based), for errors. */
  private line: number;

  private readonly source: Source;
  /** How the block being read was laid out (see withLayout). */
  private layout: Attrs | null = null;
  /** How many quotes (callouts too) are open. */
  private quotes = 0;
  /** The container and the line after the link reference definitions added last. */
  private definitionsEnd: { frame: Frame; line: number } | null = null;
  private lines: string[] | null = null;
  /** Cells past the header's count in the table row being read, as Markdown, or null. */
  private rowExcess: string | null = null;

  constructor(schema: Schema, base: Base, source: Source) {
    this.source = source;
    this.schema = schema;
    this.nodes = schema.nodes;
    this.base = base;
    this.line = base.line + 1;
  }

  /** How deep a block placed in the innermost open container sits (MAX_DEPTH's count). */
  private get childDepth(): number {
    return this.base.depth + this.stack.length;
  }

  /** Refuses a block at `depth` past MAX_DEPTH: the Markdown is refused whole. */
  private checkDepth(depth: number, line = this.line): void {
    if (depth > MAX_DEPTH) throw new MarkdownTooDeepError(line);
  }

  build(tokens: Token[]): PMNode {
    // Markdown read apart starts mid-line in its document: its columns are not known.
    this.push(this.nodes.doc!, null).column = this.base.apart ? null : 0;
    for (let i = 0; i < tokens.length; i++) {
      if (i === this.alignEnd) {
        this.align = null;
        this.alignEnd = -1;
        continue;
      }
      i = this.block(tokens, i);
    }
    const frame = this.stack.pop()!;
    if (!this.base.apart) endWith(frame.content, documentEnd(this.source.markdown));
    return this.close(frame);
  }

  /** Whether every line of a fence's code (`token`) holds more than blanks is indented `indent`. */
  private codeIndented(token: Token, indent: number): boolean {
    if (!token.map) return false;
    for (let k = token.map[0] + 1; k < token.map[1] - 1; k++) {
      if (/^[ \t>]*$/.test(this.sourceLines[k] ?? '')) continue;
      if ((this.blanksIn(k) ?? 0) < indent) return false;
    }
    return true;
  }

  /** Whether `frame` is a quote's or a callout's. */
  private isQuote(frame: Frame): boolean {
    return frame.type === this.nodes.blockquote || frame.type === this.nodes.callout;
  }

  /** The source's lines, split once. */
  private get sourceLines(): string[] {
    this.lines ??= this.source.markdown.split('\n');
    return this.lines;
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  push(type: NodeType, attrs: Attrs | null): Frame {
    // The document itself is at the base depth; each container below it is a level.
    if (this.stack.length > 0) this.checkDepth(this.childDepth);
    const frame: Frame = {
      type,
      attrs: this.withLayout(type, attrs),
      content: [],
      line: this.line,
    };
    this.stack.push(frame);
    return frame;
  }

  private close(frame: Frame): PMNode {
    const node = frame.type.createAndFill(frame.attrs, frame.content);
    // An empty quote or item gets an empty paragraph: one level below the container.
    if (node && frame.content.length === 0 && node.firstChild?.isBlock) {
      this.checkDepth(this.childDepth + 1, frame.line);
    }
    if (node) return node;
    // A top node that holds its blocks in other nodes (the browser editor keeps them in chunks)
    // gets the blocks as they are, unchecked: its caller places them.
    if (frame.type === this.schema.topNodeType && frame.content.length > 0) {
      return frame.type.create(frame.attrs, frame.content);
    }
    return frame.type.createAndFill(frame.attrs)!;
  }

  pop(): void {
    const frame = this.stack.pop()!;
    if (this.isQuote(frame)) {
      if (frame.map) {
        // The blank `>` lines a quote ends with are kept by its last block.
        endWith(frame.content, quoteEnd(this.sourceLines, ...frame.map, this.quotes));
        const blank = quoteBlank(this.sourceLines, ...frame.map, this.quotes);
        if (blank !== null) frame.attrs = { ...frame.attrs, blank };
      }
      this.quotes--;
    }
    this.top.content.push(this.close(frame));
  }

  add(node: PMNode): void {
    if (node.isBlock) this.checkDepth(this.childDepth);
    const attrs = node.isBlock ? this.withLayout(node.type, node.attrs) : node.attrs;
    this.top.content.push(
      attrs === node.attrs ? node : node.type.create(attrs, node.content, node.marks),
    );
  }

  /**
   * `attrs` with how the block being read was laid out, so that export can lay it out the same
   * (nodes/sourceSyntax.ts): `joined` when it follows the one before it on the next line,
   * without a blank line; `gap` for other blank lines than one empty line; `indent` for blanks
   * before its first line. Only the first block the token gives is meant.
   */
  private withLayout(type: NodeType, attrs: Attrs | null): Attrs | null {
    const layout = this.layout;
    if (!layout) return attrs;
    this.layout = null;
    let out = attrs;
    for (const name of Object.keys(layout)) {
      if (type.spec.attrs && name in type.spec.attrs) out = { ...out, [name]: layout[name] };
    }
    return out;
  }

  /** How the block token starting on line `line` was laid out (see withLayout), or null. */
  private layoutOf(line: number): Attrs | null {
    const layout: Record<string, unknown> = {};
    const top = this.top;
    // A callout's first block on a line of its own follows the header, on the line after it
    // unless blank lines part them; one empty line, the usual between blocks, is kept there.
    const header =
      top.type === this.nodes.callout && top.content.length === 0 && top.map?.[0] !== line;
    // Blank lines may open the document too.
    const opening = top.type === this.nodes.doc && top.content.length === 0 && top.column === 0;
    if (top.content.length > 0 || header || opening) {
      if (this.followsText(line)) {
        if (!header) layout.joined = true;
      } else {
        // The file's opening blank lines are those before its first line of text, which may be
        // what the block was read out of (the `<div align="center">` of an aligned heading).
        const first = opening ? this.sourceLines.findIndex((text) => !/^[ \t]*$/.test(text)) : -1;
        const gap = gapBefore(
          this.sourceLines,
          first >= 0 && first < line ? first : line,
          this.quotes,
        );
        // One blank line is the usual but in a callout's header or a list, which can be tight
        // (closeList drops it from a list that is not).
        const n = this.nodes;
        const list = [n.listItem, n.bulletList, n.orderedList].includes(top.type);
        if (gap !== null && (header || opening || list || gap !== '\n\n')) layout.gap = gap;
      }
    }
    const indent = this.indentOf(line);
    if (indent !== null) layout.indent = indent;
    return Object.keys(layout).length > 0 ? layout : null;
  }

  /**
   * The blanks (1 to 3) that source line `line` starts with beyond where the open container's
   * content starts, or null. A block on the line of its item's marker is not indented: the
   * blanks are the marker's.
   */
  private indentOf(line: number): number | null {
    const top = this.top;
    if (top.type === this.nodes.listItem && top.map?.[0] === line) return null;
    const indent = this.blanksIn(line);
    return indent !== null && indent >= 1 && indent <= 3 ? indent : null;
  }

  /** The columns of blanks source line `line` starts with in the open container, if known. */
  private blanksIn(line: number): number | null {
    const top = this.top;
    const text = this.sourceLines[line] ?? '';
    if (top.column !== null && top.column !== undefined) {
      return blanksEnd(text).column - top.column;
    }
    return this.isQuote(top) ? quotedIndent(text, this.quotes) : null;
  }

  /** Handles the block token at `i`; returns the index of the last token it consumed. */
  private block(tokens: Token[], i: number): number {
    const token = tokens[i]!;
    if (token.map) this.line = this.base.line + token.map[0] + 1;
    this.layout = token.nesting !== -1 && token.map ? this.layoutOf(token.map[0]) : null;
    const n = this.nodes;
    switch (token.type) {
      case 'paragraph_open': {
        const parent = this.top;
        if (parent.type === n.listItem) {
          const list = this.stack[this.stack.length - 2];
          if (list && !token.hidden) list.tight = false;
        }
        return this.paragraph(tokens, i);
      }
      case 'heading_open': {
        const level = Number(token.tag.slice(1));
        const trailing = this.headingTrailing(token, tokens[i + 1]);
        const atx = token.markup.startsWith('#') && token.map;
        const space = atx ? headingSpace(this.sourceLines[token.map![0]] ?? '') : null;
        this.push(n.heading!, {
          level,
          textAlign: this.align,
          syntax: this.syntax(token),
          trailing,
          space,
        });
        return i;
      }
      case 'list_item_close':
        this.closeItem();
        this.pop();
        return i;
      case 'heading_close':
      case 'blockquote_close':
      case 'callout_close':
      case 'tr_close':
      case 'table_close':
        this.pop();
        return i;
      case 'blockquote_open':
      case CALLOUT_OPEN: {
        const callout = token.type === CALLOUT_OPEN;
        const attrs = callout ? this.calloutLayout(token) : null;
        const frame = this.push(callout ? n.callout! : n.blockquote!, attrs);
        frame.map = token.map;
        frame.column = null;
        this.quotes++;
        return i;
      }
      case FRONT_MATTER_TOKEN:
        this.add(n.frontMatter!.create(token.meta as Attrs));
        return i;
      case 'bullet_list_open':
        this.push(n.bulletList!, { tight: true }).tight = true;
        return i;
      case 'ordered_list_open':
        this.push(n.orderedList!, {
          start: Number(token.attrGet('start') ?? 1),
          tight: true,
          syntax: this.syntax(token),
        }).tight = true;
        return i;
      case 'bullet_list_close':
      case 'ordered_list_close':
        this.closeList();
        return i;
      case 'list_item_open':
        this.openItem(token);
        return i;
      case 'fence':
      case 'code_block': {
        // Export indents a fence's code as it indents the fence: it is kept only when the code is.
        if (this.layout?.indent && !this.codeIndented(token, Number(this.layout.indent))) {
          this.layout = { ...this.layout, indent: null };
        }
        const text = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
        const language = token.type === 'fence' ? token.info.trim() || null : null;
        const syntax = this.syntax(token);
        this.add(n.codeBlock!.create({ language, syntax }, text ? this.schema.text(text) : null));
        return i;
      }
      case 'hr':
        this.add(n.horizontalRule!.create({ syntax: this.syntax(token) }));
        return i;
      case 'html_block':
        return this.htmlBlock(tokens, i);
      case 'reference_definition':
        this.referenceDefinition(token);
        return i;
      case 'table_open':
        this.push(n.table!, { delimiter: this.sourceLine(token, 1) });
        return i;
      case 'tr_open':
        this.push(n.tableRow!, { markdown: this.sourceLine(token, 0) });
        this.rowExcess = tokens[i + 1]?.type === 'td_open' ? this.excessCells(tokens, i) : null;
        return i;
      case 'th_open':
      case 'td_open':
        return this.cell(tokens, i);
      case 'inline':
        // Headings: inline content goes straight into the open heading.
        for (const node of this.inline(token.children ?? [])) this.add(node);
        return i;
      default:
        readDialectBlock(token, this);
        // thead/tbody wrappers carry nothing the schema keeps.
        return i;
    }
  }

  private paragraph(tokens: Token[], i: number): number {
    const inline = tokens[i + 1];
    const children =
      inline?.type === 'inline' ? this.inline(inline.children ?? [], inline, tokens[i]!.map) : [];
    const only = children.length === 1 ? children[0] : undefined;
    const parent = this.top.type;
    const blockContext = parent === this.nodes.doc || parent === this.nodes.blockquote;
    if (
      only &&
      blockContext &&
      only.type === this.nodes.inlineImage &&
      only.marks.length === 0 &&
      this.align === null
    ) {
      this.add(this.nodes.image!.create(only.attrs));
    } else {
      const map = tokens[i]!.map;
      const trailing = map ? trailingBlanks(this.sourceLines[map[1] - 1] ?? '') : null;
      const attrs =
        this.align === null && trailing === null ? null : { textAlign: this.align, trailing };
      this.add(this.nodes.paragraph!.create(attrs, children));
    }
    // paragraph_open, inline, paragraph_close
    return inline?.type === 'inline' ? i + 2 : i + 1;
  }

  private cell(tokens: Token[], i: number): number {
    const token = tokens[i]!;
    const style = String(token.attrGet('style') ?? '');
    const match = /text-align:\s*(left|center|right)/.exec(style);
    const type = token.type === 'th_open' ? this.nodes.tableHeader! : this.nodes.tableCell!;
    const inline = tokens[i + 1];
    const children = inline?.type === 'inline' ? this.inline(inline.children ?? []) : [];
    if (this.rowExcess !== null && tokens[i + 3]?.type === 'tr_close') {
      const excess = shared!.parseInline(this.rowExcess, this.source.env)[0]?.children ?? [];
      children.push(this.schema.text(' | '), ...this.inline(excess));
    }
    const paragraph = this.nodes.paragraph!.create(null, children);
    // The cell's paragraph is a level below the cell.
    this.checkDepth(this.childDepth + 1);
    this.add(type.create({ align: match?.[1] ?? null }, paragraph));
    return inline?.type === 'inline' ? i + 2 : i + 1;
  }

  /**
   * The blanks at the end of a heading's line of text, which an ATX heading's closing `#`s (not
   * kept) would leave alone; null when there are none.
   */
  private headingTrailing(token: Token, inline: Token | undefined): string | null {
    if (!token.map || inline?.type !== 'inline') return null;
    const setext = token.markup === '=' || token.markup === '-';
    const line = this.sourceLines[setext ? token.map[1] - 2 : token.map[0]] ?? '';
    return line.replace(/[ \t]+$/, '').endsWith(inline.content) ? trailingBlanks(line) : null;
  }

  /** A callout's attributes (the callout rule's), with the blanks its header line was written with. */
  private calloutLayout(token: Token): Attrs {
    const attrs = token.meta as Attrs;
    const line = token.map ? this.sourceLines[token.map[0]] : undefined;
    const header =
      line === undefined ? null : calloutHeader(line, this.quotes + 1, String(attrs.title));
    return header ? { ...attrs, ...header } : attrs;
  }

  /**
   * Opens a list item, with where its marker and content start (for the blocks inside it) and
   * the blanks after its marker when they are not one space.
   */
  private openItem(token: Token): void {
    const container = this.stack[this.stack.length - 2];
    const map = token.map;
    const line = map ? (this.sourceLines[map[0]] ?? '') : '';
    const marker = token.info.length + token.markup.length;
    // An item on the line of the item holding it (`- - x`) starts where no blanks tell.
    const own = map !== null && container?.map?.[0] !== map[0];
    const layout = own && this.quotes === 0 ? itemLayout(line, marker) : null;
    const space = own ? (layout?.space ?? itemSpace(line, this.quotes, marker)) : null;
    // An ordered list's item keeps the number it was written with (nodes/MarkdownSyntax.ts).
    const number = token.info === '' ? null : Number(token.info);
    const frame = this.push(this.nodes.listItem!, { number, space });
    frame.map = map;
    frame.column = layout?.content ?? null;
    frame.start = layout?.start ?? null;
  }

  /**
   * Reads how the item being closed starts the lines below its marker (`prefix`): from the
   * first of them that holds more than blanks. An item without such lines is left undecided.
   */
  private closeItem(): void {
    const item = this.top;
    const list = this.stack[this.stack.length - 2];
    if (!list) return;
    const decided = (list.decided ??= []);
    const { map, start, column } = item;
    if (!map || start === null || start === undefined || column === null || column === undefined) {
      decided.push(true);
      return;
    }
    const lines = this.sourceLines;
    for (let k = map[0] + 1; k < map[1]; k++) {
      const line = lines[k] ?? '';
      if (/^[ \t]*$/.test(line)) continue;
      const prefix = itemPrefix(line, start, column);
      item.attrs = { ...item.attrs, prefix };
      list.prefix ??= prefix;
      decided.push(true);
      return;
    }
    decided.push(false);
  }

  private closeList(): void {
    const frame = this.stack.pop()!;
    const attrs = { ...frame.attrs, tight: frame.tight ?? true };
    const n = this.nodes;
    // A tight list writes its items and the blocks of an item on consecutive lines; a loose one
    // parts them by a blank line unless they say otherwise.
    frame.content = frame.content.map((item) =>
      attrs.tight ? unjoin(relayChildren(item, unjoin)) : unspace(relayChildren(item, unspace)),
    );
    const { prefix, decided } = frame;
    if (prefix) {
      frame.content = frame.content.map((item, k) =>
        decided?.[k] === false ? withPrefix(item, prefix) : item,
      );
    }
    if (frame.type === n.bulletList && frame.content.length > 0) {
      const tasks = frame.content.map((item) => toTaskItem(item, n.taskItem!));
      if (tasks.every((task) => task !== null)) {
        // The bullet list's attributes (tight, joined) are the task list's.
        this.add(n.taskList!.create(attrs, tasks as PMNode[]));
        return;
      }
    }
    this.add(this.close({ ...frame, attrs }));
  }

  /**
   * Link reference definitions are kept as written, each run of them on consecutive lines in one
   * block that export writes back verbatim, so that links stay references and a definition no
   * link uses is not lost (docs/PRODUCT.md, "Markdown").
   */
  private referenceDefinition(token: Token): void {
    if (!token.map) return;
    this.lines ??= this.source.markdown.split('\n');
    const lines = this.lines.slice(token.map[0], token.map[1]);
    // The container's prefix (`> `, a list item's indent) is not part of the definition.
    const prefix = Math.max(0, lines[0]!.indexOf('['));
    const text = lines
      .map((line, k) => {
        if (k === 0) return line.slice(prefix);
        const lead = /^[ \t>]*/.exec(line)![0].length;
        return line.slice(Math.min(prefix, lead));
      })
      .join('\n');
    const type = this.nodes.linkDefinitions!;
    const content = this.top.content;
    const last = content[content.length - 1];
    const end = this.definitionsEnd;
    if (last?.type === type && end?.frame === this.top && end.line === token.map[0]) {
      content[content.length - 1] = type.create({
        ...last.attrs,
        markdown: `${String(last.attrs.markdown)}\n${text}`,
      });
    } else {
      this.add(type.create({ markdown: text }));
    }
    this.definitionsEnd = { frame: this.top, line: token.map[1] };
  }

  /**
   * A GFM table ignores the cells of a row past the header's count, and with them their text: a
   * stray `|` or text after the row's last pipe would vanish (docs/PRODUCT.md, "Markdown": import
   * never drops text silently). They are kept in the row's last cell, after a `|`.
   */
  private excessCells(tokens: Token[], i: number): string | null {
    const map = tokens[i]!.map;
    if (!map) return null;
    let count = 0;
    for (let k = i + 1; k < tokens.length && tokens[k]!.type !== 'tr_close'; k++) {
      if (tokens[k]!.type === 'td_open') count++;
    }
    this.lines ??= this.source.markdown.split('\n');
    let line = this.lines[map[0]] ?? '';
    const quoted = this.stack.some(
      (f) => f.type === this.nodes.blockquote || f.type === this.nodes.callout,
    );
    if (quoted) line = line.replace(/^[ \t]*(?:>[ \t]?)*/, '');
    const cells = line.trim().split(/(?<!\\)\|/);
    if (cells[0] === '') cells.shift();
    if (cells.at(-1) === '') cells.pop();
    if (cells.length <= count) return null;
    return cells
      .slice(count)
      .map((cell) => cell.trim())
      .join(' | ');
  }

  /** True when the line above `line` is not blank (less the quotes around it). */
  private followsText(line: number): boolean {
    if (line === 0) return false;
    return (this.sourceLines[line - 1] ?? '').replace(/[ \t>]/g, '') !== '';
  }

  /** Line `offset` of a block token as written, less the quote or list around it (tableSource.ts). */
  private sourceLine(token: Token, offset: number): string | null {
    if (!token.map) return null;
    this.lines ??= this.source.markdown.split('\n');
    const line = this.lines[token.map[0] + offset];
    return line === undefined ? null : line.replace(/^[ \t>]*/, '');
  }

  /** The `syntax` attribute of the node a block token opens (readSyntax.ts). */
  private syntax(token: Token): string | null {
    this.lines ??= this.source.markdown.split('\n');
    const lines = this.lines;
    return blockSyntax(token, (index) => lines[index] ?? '');
  }

  private htmlBlock(tokens: Token[], i: number): number {
    const raw = tokens[i]!.content.replace(/\n$/, '');
    const alignMatch = ALIGN_OPEN_RE.exec(raw);
    if (alignMatch && this.align === null) {
      const end = findAlignEnd(tokens, i + 1);
      if (end > 0) {
        this.align = alignMatch[1]!;
        this.alignEnd = end;
        return i;
      }
    }
    const video = readVideoBlock(raw);
    if (video) {
      const parsed = parseYoutubeUrl(video.src);
      if (parsed) {
        this.add(
          this.nodes.youtube!.create({
            src: youtubeEmbedUrl({ ...parsed, start: 0 }),
            start: parsed.start,
            width: video.width,
            height: video.height,
          }),
        );
        return i;
      }
    }
    const image = readImageTag(raw);
    if (image && isAllowedImageUrl(image.src)) {
      this.add(this.nodes.image!.create(image));
      return i;
    }
    const unclosed = readUnclosedHtml(raw);
    if (unclosed) {
      if (unclosed.html !== null) this.rawHtml(unclosed.html);
      if (unclosed.markdown.trim() !== '') this.parseHere(unclosed.markdown);
      return i;
    }
    this.rawHtml(raw);
    return i;
  }

  /** Adds the blocks of `markdown` read as if it stood here, at this depth and line. */
  private parseHere(markdown: string): void {
    const base = { ...this.base, depth: this.childDepth - 1, line: this.line - 1, apart: true };
    parseAt(markdown, this.schema, base).forEach((node) => this.add(node));
  }

  /** Adds a block of raw HTML, sanitised. */
  private rawHtml(raw: string): void {
    const html = sanitizeHtml(raw, { markdown: true });
    if (html.trim() === '') return;
    if (html !== raw && !isSingleHtmlBlock(html)) {
      // What sanitising left no longer reads as one HTML block (a removed <script> can leave
      // plain text): keep it as the Markdown it now is, so export and import agree.
      this.parseHere(html);
      return;
    }
    this.add(this.nodes.htmlBlock!.create({ html }));
  }

  /** Converts the children of an inline token into inline nodes. */
  /**
   * Converts the children of an inline token into inline nodes; `inline`, the token, when its
   * text is a paragraph's whose source lines `map` are known (see lazyLine).
   */
  private inline(children: Token[], inline?: Token, map?: [number, number] | null): PMNode[] {
    const first = map ? map[0] + ((inline?.meta as { skipped?: number } | null)?.skipped ?? 0) : -1;
    const lazy = first < 0 ? undefined : (line: number) => this.lazyLine(first + line + 1);
    return new InlineBuilder(this.schema, lazy).build(children);
  }

  /** How source line `index`, continuing a paragraph in the open container, starts if lazily. */
  private lazyLine(index: number): string | null {
    const line = this.sourceLines[index];
    if (line === undefined) return null;
    const column = this.top.column;
    return lazyPrefix(line, this.quotes, column === undefined ? null : column);
  }
}

/** True when `html` reads back from Markdown as exactly one HTML block holding it. */
function isSingleHtmlBlock(html: string): boolean {
  const tokens = shared!.parse(html, {});
  return (
    tokens.length === 1 &&
    tokens[0]!.type === 'html_block' &&
    tokens[0]!.content.replace(/\n$/, '') === html
  );
}

/** Finds the `</div>` that closes an alignment wrapper holding only paragraphs and headings. */
function findAlignEnd(tokens: Token[], from: number): number {
  let blocks = 0;
  for (let j = from; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.type === 'html_block') return t.content.trim() === ALIGN_CLOSE && blocks > 0 ? j : -1;
    if (t.type === 'paragraph_open' || t.type === 'heading_open') {
      const inline = tokens[j + 1];
      const kids = inline?.children ?? [];
      if (t.type === 'paragraph_open' && kids.length === 1 && kids[0]!.type === 'image') return -1;
      blocks++;
      j += 2;
      continue;
    }
    return -1;
  }
  return -1;
}

/** `item` starting the lines below its marker with `prefix`. */
function withPrefix(item: PMNode, prefix: string): PMNode {
  return item.type.create({ ...item.attrs, prefix }, item.content, item.marks);
}

/** `node` not marked as joined to the one before (see DocBuilder.withLayout). */
function unjoin(node: PMNode): PMNode {
  if (node.attrs.joined !== true) return node;
  return node.type.create({ ...node.attrs, joined: null }, node.content, node.marks);
}

/**
 * `nodes` with `end` (sourceSyntax.ts) set on the last, when it has the attribute: what follows
 * it up to the end of its quote or document.
 */
function endWith(nodes: PMNode[], end: string | null): void {
  const last = nodes[nodes.length - 1];
  if (end === null || !last?.type.spec.attrs || !('end' in last.type.spec.attrs)) return;
  nodes[nodes.length - 1] = last.type.create({ ...last.attrs, end }, last.content, last.marks);
}

/** `node` without the `gap` of one empty line, a loose list's usual (see DocBuilder.layoutOf). */
function unspace(node: PMNode): PMNode {
  if (node.attrs.gap !== '\n\n') return node;
  return node.type.create({ ...node.attrs, gap: null }, node.content, node.marks);
}

/** `item` with `change` made to each of its children (the same node when none changes). */
function relayChildren(item: PMNode, change: (child: PMNode) => PMNode): PMNode {
  let children: PMNode[] | null = null;
  item.forEach((child, _offset, index) => {
    const changed = change(child);
    if (changed !== child) children ??= childrenOf(item);
    if (children) children[index] = changed;
  });
  return children ? item.type.create(item.attrs, children, item.marks) : item;
}

/** The task item for a list item whose text starts with `[ ]` or `[x]`, or null. */
function toTaskItem(item: PMNode, taskItem: NodeType): PMNode | null {
  const first = item.firstChild;
  if (!first || first.type.name !== 'paragraph') return null;
  const text = first.firstChild;
  if (!text?.isText) return null;
  const match = TASK_PREFIX.exec(text.text!);
  if (!match) return null;
  const paragraph = first.copy(first.content.cut(match[0].length));
  // The item's layout (blank lines before it, the blanks after its marker) is the task's.
  const attrs: Record<string, unknown> = { checked: match[1] !== ' ' };
  for (const name of Object.keys(taskItem.spec.attrs ?? {})) {
    if (name !== 'checked' && name in item.attrs) attrs[name] = item.attrs[name];
  }
  return taskItem.create(attrs, [paragraph, ...childrenOf(item).slice(1)]);
}

/** An image's alt text as markdown-it renders it: the plain text of its description. */
function altText(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'html_inline') out += t.content;
    else if (t.type === 'image') out += altText(t.children ?? []);
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += '\n';
  }
  return out;
}

function childrenOf(node: PMNode): PMNode[] {
  const out: PMNode[] = [];
  node.forEach((child) => out.push(child));
  return out;
}

/** Builds inline nodes from markdown-it inline tokens, with a stack of open marks. */
class InlineBuilder {
  readonly schema: Schema;
  /** How the source line after the break ending line `line` of the text starts if lazily. */
  private readonly lazy: ((line: number) => string | null) | undefined;
  private readonly out: PMNode[] = [];
  /** Open marks, innermost last; a null mark stands for a rejected link whose text is kept. */
  private readonly marks: Array<{ name: string; mark: Mark | null }> = [];
  private active: readonly Mark[] | null = [];

  constructor(schema: Schema, lazy?: (line: number) => string | null) {
    this.schema = schema;
    this.lazy = lazy;
  }

  private get activeMarks(): readonly Mark[] {
    if (this.active === null) {
      let set: readonly Mark[] = [];
      for (const { mark } of this.marks) if (mark) set = mark.addToSet(set);
      this.active = set;
    }
    return this.active;
  }

  /** Adds a leaf node with the marks open here. */
  leaf(type: NodeType, attrs: Attrs): void {
    this.out.push(type.create(attrs, null, this.activeMarks));
  }

  open(name: string, mark: Mark | null): void {
    this.marks.push({ name, mark });
    this.active = null;
  }

  /** Closes the innermost open mark of this kind (HTML and Markdown marks may interleave). */
  closeMark(name: string): void {
    for (let k = this.marks.length - 1; k >= 0; k--) {
      if (this.marks[k]!.name === name) {
        this.marks.splice(k, 1);
        this.active = null;
        return;
      }
    }
  }

  private text(text: string, extra?: Mark): void {
    if (!text) return;
    const marks = extra ? extra.addToSet(this.activeMarks) : this.activeMarks;
    const last = this.out[this.out.length - 1];
    if (last?.isText && Mark.sameSet(last.marks, marks)) {
      this.out[this.out.length - 1] = this.schema.text(last.text! + text, marks);
    } else {
      this.out.push(this.schema.text(text, marks));
    }
  }

  build(tokens: Token[]): PMNode[] {
    const { marks: m, nodes: n } = this.schema;
    const html = readHtmlInline(tokens);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      switch (t.type) {
        case 'text':
          this.text(t.content);
          break;
        case 'softbreak':
        case 'hardbreak': {
          const type = t.type === 'softbreak' ? n.softBreak! : n.hardBreak!;
          const line = (t.meta as { line?: number } | null)?.line;
          const lazy = line === undefined ? null : (this.lazy?.(line) ?? null);
          const syntax = breakSyntax(t);
          // Null when all are defaults: ProseMirror then reuses the type's default attributes
          // instead of computing them for each of a document's many line breaks.
          const attrs = syntax === null && lazy === null ? null : { syntax, lazy };
          this.out.push(type.create(attrs, null, this.activeMarks));
          break;
        }
        case 'code_inline':
          this.text(t.content, m.code!.create());
          break;
        case 'md_escape':
          this.text(t.content, m.escaped!.create());
          break;
        case 'strong_open':
          this.open('bold', m.bold!.create({ syntax: inlineSyntax(t) }));
          break;
        case 'em_open':
          this.open('italic', m.italic!.create({ syntax: inlineSyntax(t) }));
          break;
        case 's_open':
          this.open('strike', m.strike!.create());
          break;
        case 'link_open': {
          const href = String(t.attrGet('href') ?? '');
          if (tokens[i + 1]?.type === 'link_close') {
            // A link with no text has nothing for its mark to sit on: its address stays as the
            // text it was written as, rather than vanish (docs/limits.md, no silent loss).
            const title = t.attrGet('title');
            this.text(`[](${href}${title ? ` "${title}"` : ''})`);
            i++;
            break;
          }
          this.open(
            'link',
            isAllowedLinkUrl(href)
              ? m.link!.create({ href, title: plainTitle(t.attrGet('title')), ...linkSyntax(t) })
              : null,
          );
          break;
        }
        case 'strong_close':
          this.closeMark('bold');
          break;
        case 'em_close':
          this.closeMark('italic');
          break;
        case 's_close':
          this.closeMark('strike');
          break;
        case 'link_close':
          this.closeMark('link');
          break;
        case 'image': {
          const src = String(t.attrGet('src') ?? '');
          const alt = altText(t.children ?? []);
          if (isAllowedImageUrl(src)) {
            const title = plainTitle(t.attrGet('title'));
            // Alt text is plain text as a title is: markup in it is defused, not dropped.
            const attrs = { src, alt: plainTitle(alt), title, ...linkSyntax(t) };
            this.out.push(n.inlineImage!.create(attrs, null, this.activeMarks));
          } else {
            this.text(alt);
          }
          break;
        }
        case 'html_inline':
          i = this.htmlInline(tokens, i, html);
          break;
        default:
          if (!readDialectInline(t, this) && t.content) this.text(t.content);
      }
    }
    return this.out;
  }

  private htmlInline(tokens: Token[], i: number, html: ReturnType<typeof readHtmlInline>): number {
    const info = html.get(i);
    const n = this.schema.nodes;
    if (info?.kind === 'mark-open') {
      this.open(info.mark, this.schema.marks[info.mark]!.create(info.attrs));
      return i;
    }
    if (info?.kind === 'mark-close') {
      this.closeMark(info.mark);
      return i;
    }
    if (info?.kind === 'drop') return i;
    if (info?.kind === 'merged') {
      this.pushHtmlInline(sanitizeHtml(info.html, { markdown: true }));
      return info.end;
    }
    if (info?.kind === 'image' && isAllowedImageUrl(info.attrs.src)) {
      this.out.push(n.inlineImage!.create(info.attrs, null, this.activeMarks));
      return i;
    }
    this.pushHtmlInline(sanitizeHtml(tokens[i]!.content, { markdown: true }));
    return i;
  }

  /**
   * Raw inline HTML as the sanitiser left it; nothing when it left nothing, as a stored
   * document's cleaning drops it (cleanDocJson): a document made in the tab must be the one the
   * server would store, or its Yjs state is refused at create (docs/ARCHITECTURE.md).
   */
  private pushHtmlInline(clean: string): void {
    if (clean === '') return;
    this.out.push(this.schema.nodes.htmlInline!.create({ html: clean }, null, this.activeMarks));
  }
}
