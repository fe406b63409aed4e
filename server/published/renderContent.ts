import { DOMSerializer, type DOMOutputSpec, type Mark, type Node } from '@tiptap/pm/model';
import { calloutAttrs } from '../../common/editor/dialects/callout/Callout.ts';
import { calloutFamily } from '../../common/editor/dialects/callout/calloutTypes.ts';
import {
  wikilinkLabel,
  wikilinkParts,
} from '../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import { isSafeColor, isSafeSize } from '../../common/editor/html/style.ts';
import { languageOf } from '../../common/editor/nodes/CodeBlock.ts';
import { parseYoutubeUrl } from '../../common/editor/url.ts';
import { MARKUP_DOCUMENT, markupHtml, specHtml, trustedMarkup } from './pageMarkup.ts';
import { mathMarkup } from './pageMath.ts';
import { LINK_REL, type PageFiles } from './pageUrls.ts';
import { pageRawHtml } from './rawHtml.ts';

/*
 * A document's content as the published page's HTML (docs/PRODUCT.md "Sharing"), written by
 * ProseMirror's DOMSerializer from specs of the page's own rather than the schema's `toDOM`:
 * those are the editor's clipboard format (a raw HTML node is an empty div carrying its HTML in
 * an attribute; a callout, its parts in data attributes). Classes, not attributes, carry what the
 * page's style sheet needs, so that raw HTML (whose class attributes the page drops) cannot take
 * on the page's look.
 */

/** What the page writes for a node; one entry per node type of the schema but `text`. */
type NodeSpecs = Record<string, (node: Node) => DOMOutputSpec>;
/** What the page writes around a marked run; null for a mark that is only Markdown layout. */
type MarkSpecs = Record<string, ((mark: Mark) => DOMOutputSpec) | null>;

/** The rendered content of a page. */
export interface RenderedContent {
  /** The article's inner HTML. */
  html: string;
  /** The uploaded files it shows or links: the only ones the page serves. */
  fileIds: ReadonlySet<string>;
}

/** A document (`doc` node of the Inkwell schema) as the HTML of a published page's article. */
export function renderContent(doc: Node, files: PageFiles): RenderedContent {
  const notes = numberFootnotes(doc);
  const { nodes, marks } = pageSpecs(files, notes);
  const written: Record<string, (mark: Mark) => DOMOutputSpec> = {};
  for (const [name, spec] of Object.entries(marks)) if (spec) written[name] = spec;
  const serializer = new DOMSerializer(nodes, written);
  const body = markupHtml(serializer.serializeFragment(doc.content, { document: MARKUP_DOCUMENT }));
  return { html: body + inlineNotes(notes), fileIds: files.ids };
}

/** Footnote numbers in order of first reference, as Obsidian and GitHub number them. */
export interface Footnotes {
  byLabel: Map<string, number>;
  inline: Map<Node, number>;
  /** Labels whose reference or definition already carries the anchor id. */
  anchored: Set<string>;
}

/** The footnotes of `doc`, numbered. */
export function numberFootnotes(doc: Node): Footnotes {
  const notes: Footnotes = { byLabel: new Map(), inline: new Map(), anchored: new Set() };
  let next = 1;
  doc.descendants((node) => {
    if (node.type.name === 'footnoteRef') {
      const label = String(node.attrs.label);
      if (!notes.byLabel.has(label)) notes.byLabel.set(label, next++);
    } else if (node.type.name === 'inlineFootnote') {
      notes.inline.set(node, next++);
    }
  });
  return notes;
}

/** The `id` an anchor gets the first time it is written (ids stay unique). */
function anchorOnce(notes: Footnotes, key: string, id: string): string | null {
  if (notes.anchored.has(key)) return null;
  notes.anchored.add(key);
  return id;
}

/** Inline footnotes (`^[text]`) listed after the content, each linked from its number. */
function inlineNotes(notes: Footnotes): string {
  if (notes.inline.size === 0) return '';
  const items: DOMOutputSpec[] = [];
  for (const [node, number] of notes.inline) {
    items.push(['li', { id: `fn-${number}`, value: String(number) }, String(node.attrs.text)]);
  }
  return specHtml(['section', { class: 'footnotes' }, ['ol', ...items]]);
}

const ALIGNMENTS = new Set(['left', 'center', 'right', 'justify']);
const LIST_TYPES = new Set(['1', 'a', 'A', 'i', 'I']);
const LANGUAGE = /^[a-z0-9_+#.-]{1,32}$/;
const nothing = () => trustedMarkup('');

function alignClass(value: unknown): { class?: string } {
  return typeof value === 'string' && ALIGNMENTS.has(value) ? { class: `align-${value}` } : {};
}

function span(value: unknown): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 1 ? String(value) : null;
}

function size(value: unknown): string | null {
  return (typeof value === 'string' || typeof value === 'number') && isSafeSize(String(value))
    ? String(value)
    : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** An image, or its alt text when the page cannot load it from where it is. */
function image(node: Node, files: PageFiles): DOMOutputSpec {
  const src = typeof node.attrs.src === 'string' ? files.imageSrc(node.attrs.src) : null;
  const alt = typeof node.attrs.alt === 'string' ? node.attrs.alt : '';
  if (src === null) return ['span', { class: 'image-missing' }, alt];
  return [
    'img',
    {
      src,
      alt,
      title: text(node.attrs.title),
      width: size(node.attrs.width),
      height: size(node.attrs.height),
      loading: 'lazy',
      decoding: 'async',
    },
  ];
}

function math(tex: unknown, display: boolean): DOMOutputSpec {
  const source = typeof tex === 'string' ? tex : '';
  const markup = mathMarkup(source, display);
  return markup === null ? ['code', { class: 'math-source' }, source] : trustedMarkup(markup);
}

function cell(tag: 'td' | 'th') {
  return (node: Node): DOMOutputSpec => [
    tag,
    {
      colspan: span(node.attrs.colspan),
      rowspan: span(node.attrs.rowspan),
      ...alignClass(node.attrs.align),
    },
    0,
  ];
}

/** What the page writes for each node and mark type of the schema. */
export function pageSpecs(
  files: PageFiles,
  notes: Footnotes,
): { nodes: NodeSpecs; marks: MarkSpecs } {
  return { nodes: nodeSpecs(files, notes), marks: markSpecs(files) };
}

function nodeSpecs(files: PageFiles, notes: Footnotes): NodeSpecs {
  return {
    paragraph: (node) => ['p', alignClass(node.attrs.textAlign), 0],
    heading: (node) => {
      const level = Math.min(6, Math.max(1, Number(node.attrs.level) || 1));
      return [`h${level}`, alignClass(node.attrs.textAlign), 0];
    },
    blockquote: () => ['blockquote', 0],
    horizontalRule: () => ['hr'],
    hardBreak: () => ['br'],
    // A line break of the Markdown source reads as a space.
    softBreak: () => trustedMarkup('\n'),
    bulletList: () => ['ul', 0],
    orderedList: (node) => {
      const start = Number(node.attrs.start);
      const type = String(node.attrs.type);
      return [
        'ol',
        {
          start: Number.isInteger(start) && start !== 1 ? String(start) : null,
          type: LIST_TYPES.has(type) ? type : null,
        },
        0,
      ];
    },
    listItem: () => ['li', 0],
    taskList: () => ['ul', { class: 'task-list' }, 0],
    taskItem: (node) => [
      'li',
      { class: node.attrs.checked === true ? 'task-item task-done' : 'task-item' },
      [
        'input',
        {
          type: 'checkbox',
          disabled: '',
          checked: node.attrs.checked === true ? '' : null,
          'aria-label': node.attrs.checked === true ? 'Done' : 'Not done',
        },
      ],
      ['div', 0],
    ],
    codeBlock: (node) => {
      const language = languageOf(
        typeof node.attrs.language === 'string' ? node.attrs.language : '',
      );
      return [
        'pre',
        ['code', { class: LANGUAGE.test(language) ? `language-${language}` : null }, 0],
      ];
    },
    image: (node) => ['figure', { class: 'image' }, image(node, files)],
    inlineImage: (node) => image(node, files),
    // A link rather than a frame: a reader's visit tells YouTube nothing until they follow it.
    youtube: (node) => {
      const video = parseYoutubeUrl(typeof node.attrs.src === 'string' ? node.attrs.src : '');
      if (!video) return nothing();
      const start = video.start > 0 ? `&t=${video.start}s` : '';
      const href = `https://www.youtube.com/watch?v=${video.id}${start}`;
      return [
        'p',
        { class: 'video' },
        ['a', { href, rel: LINK_REL }, 'Watch the video on YouTube'],
      ];
    },
    table: () => ['div', { class: 'table' }, ['table', ['tbody', 0]]],
    tableRow: () => ['tr', 0],
    tableHeader: cell('th'),
    tableCell: cell('td'),
    htmlBlock: (node) => [
      'div',
      { class: 'html-block' },
      trustedMarkup(pageRawHtml(String(node.attrs.html), files)),
    ],
    htmlInline: (node) => [
      'span',
      { class: 'html-inline' },
      trustedMarkup(pageRawHtml(String(node.attrs.html), files)),
    ],
    mathInline: (node) => [
      'span',
      { class: node.attrs.display === true ? 'math math-display' : 'math' },
      math(node.attrs.tex, node.attrs.display === true),
    ],
    mathBlock: (node) => ['div', { class: 'math math-block' }, math(node.attrs.tex, true)],
    footnoteRef: (node) => {
      const label = String(node.attrs.label);
      const number = notes.byLabel.get(label) ?? 0;
      return [
        'sup',
        { class: 'footnote-ref' },
        [
          'a',
          { href: `#fn-${number}`, id: anchorOnce(notes, `ref:${label}`, `fnref-${number}`) },
          String(number),
        ],
      ];
    },
    footnoteDefinition: (node) => {
      const label = String(node.attrs.label);
      const number = notes.byLabel.get(label);
      const id = number === undefined ? null : anchorOnce(notes, `def:${label}`, `fn-${number}`);
      return [
        'div',
        { class: 'footnote', id },
        ['span', { class: 'footnote-label' }, number === undefined ? label : `${number}.`],
        ['div', { class: 'footnote-body' }, 0],
      ];
    },
    inlineFootnote: (node) => {
      const number = notes.inline.get(node) ?? 0;
      return [
        'sup',
        { class: 'footnote-ref' },
        ['a', { href: `#fn-${number}`, id: `fnref-${number}` }, String(number)],
      ];
    },
    // Obsidian hides comments when a note is read; they are the writer's, not the reader's.
    commentInline: nothing,
    commentBlock: nothing,
    // Properties and link definitions are the file's bookkeeping, not its text.
    frontMatter: nothing,
    linkDefinitions: nothing,
    tag: (node) => ['span', { class: 'tag' }, `#${String(node.attrs.name)}`],
    // Plain text: the target is another of the writer's documents, which the reader may not open.
    wikilink: (node) => {
      const label = wikilinkLabel(wikilinkParts(node.attrs));
      const src = typeof node.attrs.src === 'string' ? node.attrs.src : null;
      const shown = node.attrs.embed === true && src !== null ? files.imageSrc(src) : null;
      if (shown !== null)
        return ['img', { src: shown, alt: label, class: 'embed', loading: 'lazy' }];
      return ['span', { class: 'wikilink' }, label];
    },
    callout: (node) => {
      const { type, fold, title } = calloutAttrs(node.attrs);
      const heading = title.trim() || type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();
      const attrs = { class: `callout callout-${calloutFamily(type)}` };
      if (fold === '') {
        return [
          'div',
          attrs,
          ['p', { class: 'callout-title' }, heading],
          ['div', { class: 'callout-body' }, 0],
        ];
      }
      // A foldable callout folds without script, as a details element.
      return [
        'details',
        { ...attrs, open: fold === '+' ? '' : null },
        ['summary', { class: 'callout-title' }, heading],
        ['div', { class: 'callout-body' }, 0],
      ];
    },
  };
}

function markSpecs(files: PageFiles): MarkSpecs {
  return {
    link: (mark) => {
      const href = typeof mark.attrs.href === 'string' ? files.linkHref(mark.attrs.href) : null;
      if (href === null) return ['span', 0];
      return ['a', { href, title: text(mark.attrs.title), rel: LINK_REL }, 0];
    },
    bold: () => ['strong', 0],
    italic: () => ['em', 0],
    strike: () => ['s', 0],
    underline: () => ['u', 0],
    code: () => ['code', 0],
    textStyle: (mark) => {
      const color: unknown = mark.attrs.color;
      return [
        'span',
        { style: typeof color === 'string' && isSafeColor(color) ? `color: ${color}` : null },
        0,
      ];
    },
    highlight: (mark) => {
      const color: unknown = mark.attrs.color;
      const style =
        typeof color === 'string' && isSafeColor(color) ? `background-color: ${color}` : null;
      return ['mark', { style }, 0];
    },
    // How the Markdown file wrote a character; the text is the same.
    escaped: null,
  };
}
