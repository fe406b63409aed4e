import {
  Fragment,
  type Mark,
  type NodeType,
  type Node as ProseMirrorNode,
  type Schema,
} from '@tiptap/pm/model';
import type { updateYFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { FRONT_MATTER } from '../dialects/frontMatter/FrontMatter.ts';
import { CARRIED_MARKS, carriedMarks } from './inlineMarks.ts';

/**
 * What y-tiptap keeps about the shared document: each Y type and the ProseMirror node (or, for a
 * Y.XmlText, the text nodes) it was last in step with. `updateYFragment` reads it to tell an
 * untouched child by identity, and writes it as it goes. (Its type is not exported by name.)
 */
export type YMeta = Parameters<typeof updateYFragment>[3];

/** An empty {@link YMeta}. */
export function createMeta(): YMeta {
  return { mapping: new Map(), isOMark: new Map() };
}

/** Told what a remote block held that the schema refuses, and what was kept of it. */
export type RepairReport = (problem: string) => void;

/** y-tiptap names an overlapping mark (one that does not exclude itself) `name--hash`. */
const HASHED_MARK = /^(.*)--[a-zA-Z0-9+/=]{8}$/;

type YChild = Y.XmlElement | Y.XmlText | Y.XmlHook;

/**
 * Types never accepted from the shared document as elements: the top node and text, and those
 * of the reader's schema that exist only in its editor (the client's chunks).
 */
const NEVER_ELEMENTS = ['doc', 'text'];

/** What reading the shared document needs: the schema, y-tiptap's meta, where repairs are told. */
interface Reader {
  schema: Schema;
  meta: YMeta;
  report: RepairReport;
  editorOnly: ReadonlySet<string>;
}

function marksOf(
  attributes: Record<string, unknown> | undefined,
  schema: Schema,
  report: RepairReport,
): readonly Mark[] {
  if (!attributes) return [];
  let marks: readonly Mark[] = [];
  for (const [key, attrs] of Object.entries(attributes)) {
    const name = HASHED_MARK.exec(key)?.[1] ?? key;
    const type = schema.marks[name];
    if (!type) {
      // The text stays; only a formatting this editor cannot show is left out.
      report(`unknown mark ${name}`);
      continue;
    }
    try {
      marks = type.create(attrs as Record<string, unknown> | null).addToSet(marks);
    } catch {
      report(`mark ${name} with bad attributes`);
    }
  }
  return marks;
}

/**
 * The inline content of `nodes`: inline nodes as they are, the text of blocks among them (a
 * paragraph a modified client put inside a text) in their place, a hard break between blocks.
 */
function inlineOf(nodes: readonly ProseMirrorNode[], schema: Schema): ProseMirrorNode[] {
  const inline: ProseMirrorNode[] = [];
  const hardBreak = schema.nodes.hardBreak;
  for (const node of nodes) {
    if (node.isInline) {
      inline.push(node);
      continue;
    }
    const text = node.textBetween(0, node.content.size, '\n', ' ');
    if (text === '') continue;
    if (inline.length > 0 && hardBreak) inline.push(hardBreak.create());
    inline.push(schema.text(text));
  }
  return inline;
}

/** `nodes` as blocks: runs of inline nodes in paragraphs, blocks kept. */
function blocksFrom(nodes: readonly ProseMirrorNode[], schema: Schema): ProseMirrorNode[] {
  const paragraph = schema.nodes.paragraph;
  if (!paragraph) throw new RangeError('The schema has no paragraph.');
  const blocks: ProseMirrorNode[] = [];
  let run: ProseMirrorNode[] = [];
  const flush = () => {
    if (run.length > 0) blocks.push(paragraph.create(null, inlineOf(run, schema)));
    run = [];
  };
  for (const node of nodes) {
    if (node.isInline) run.push(node);
    else if (node.type.isInGroup('block') || node.type.name === FRONT_MATTER) {
      flush();
      blocks.push(node);
    } else {
      // A list item or a table row out of place: its blocks, or its text.
      flush();
      const inner: ProseMirrorNode[] = [];
      node.forEach((child) => inner.push(child));
      blocks.push(...(node.isTextblock ? blocksFrom([node], schema) : blocksFrom(inner, schema)));
    }
  }
  flush();
  return blocks;
}

function buildText(text: Y.XmlText, reader: Reader, parent: NodeType | null): ProseMirrorNode[] {
  const { schema, meta, report } = reader;
  const nodes: ProseMirrorNode[] = [];
  let clean = true;
  const delta = text.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[];
  for (const { insert, attributes } of delta) {
    if (typeof insert === 'string') {
      if (insert !== '') nodes.push(schema.text(insert, marksOf(attributes, schema, report)));
    } else if (insert instanceof Y.XmlElement) {
      // An element embedded in a text: y-tiptap's reader throws on it and deletes the whole
      // text from the shared document. Its content is kept here, in place.
      clean = false;
      report(`an element <${insert.nodeName}> inside a text`);
      nodes.push(...buildChild(insert, reader, parent));
    } else {
      clean = false;
      report('an embed inside a text');
    }
  }
  if (clean) meta.mapping.set(text, nodes);
  return nodes;
}

/** `parent` is the type the child's element stands for, null when it stands for none. */
function buildChild(child: YChild, reader: Reader, parent: NodeType | null): ProseMirrorNode[] {
  if (child instanceof Y.XmlText) return buildText(child, reader, parent);
  if (child instanceof Y.XmlElement) return buildElement(child, reader, parent);
  reader.report('a hook');
  return [];
}

/**
 * The ProseMirror nodes for `element`: one node when the schema accepts it, else what can be
 * kept of it (its blocks, its text), never nothing while it holds text.
 */
function buildElement(
  element: Y.XmlElement,
  reader: Reader,
  parent: NodeType | null,
): ProseMirrorNode[] {
  const { schema, meta, report } = reader;
  const name = element.nodeName;
  const refused = NEVER_ELEMENTS.includes(name) || reader.editorOnly.has(name);
  const type = refused ? undefined : schema.nodes[name];
  const children: ProseMirrorNode[] = [];
  for (const child of element.toArray()) children.push(...buildChild(child, reader, type ?? null));
  if (!type) {
    report(`unknown element <${element.nodeName}>`);
    return children;
  }
  // Marks on inline nodes other than text travel in an attribute (inlineMarks.ts).
  const { [CARRIED_MARKS]: carried, ...attrs } = element.getAttributes() as Record<string, unknown>;
  let marks: readonly Mark[] | undefined;
  if (carried !== undefined) {
    if (type.isInline) marks = carriedMarks(carried, schema, parent, report);
    else report(`marks carried on <${element.nodeName}>, which is no inline node`);
  }
  try {
    const node = type.createChecked(attrs, children, marks);
    meta.mapping.set(element, node);
    return [node];
  } catch {
    report(`<${element.nodeName}> with content or attributes the schema refuses`);
  }
  // Repaired: not mapped, so that a local edit of it compares by content and writes the repair.
  const content = type.inlineContent ? inlineOf(children, schema) : blocksFrom(children, schema);
  try {
    return [type.createChecked(attrs, content, marks)];
  } catch {
    return children;
  }
}

/**
 * The one top-level block for a top-level child of the shared document. Exactly one, so that the
 * editor's blocks and the fragment's children stay index for index: what the schema refuses is
 * repaired into a block that keeps its text (Tiptap's content check, without stopping the sync).
 */
export function buildTopBlock(
  child: YChild,
  schema: Schema,
  meta: YMeta,
  report: RepairReport,
  /** Node types of `schema` that exist only in the editor, never in the shared document. */
  editorOnly: ReadonlySet<string> = new Set(),
): ProseMirrorNode {
  const nodes = buildChild(child, { schema, meta, report, editorOnly }, schema.topNodeType);
  const blocks = blocksFrom(nodes, schema);
  const only = blocks.length === 1 ? blocks[0] : undefined;
  const paragraph = schema.nodes.paragraph;
  if (!paragraph) throw new RangeError('The schema has no paragraph.');
  let block = only;
  if (!block) {
    if (blocks.length > 1) report('several blocks where one was expected');
    block = paragraph.create(null, Fragment.fromArray(inlineOf(blocks, schema)));
  }
  meta.mapping.set(child, block);
  return block;
}
