import type { JSONContent } from '@tiptap/core';
import {
  Fragment,
  Mark,
  Schema,
  type MarkType,
  type Node as PMNode,
  type NodeType,
} from '@tiptap/pm/model';

/*
 * Marks on inline nodes other than text, through Yjs (docs/ARCHITECTURE.md "Live collaboration").
 *
 * y-tiptap writes a mark as a format of a Y.XmlText and nothing else, so a link around an inline
 * image (every README badge), bold around a wikilink or a link on inline math would be dropped
 * by every conversion (yjs/y-prosemirror#47). Here such a node's marks travel in one attribute of
 * its Y.XmlElement, {@link CARRIED_MARKS}: the marks' JSON list as a string. A string, because
 * y-tiptap compares attribute values with `!==` before writing them: a list would be written
 * again each time the element is diffed, and could undo another writer's change of its marks.
 *
 * Why not an attribute of the editor schema: it would sit (as null) in every inline node of every
 * editor and stored document, change the stored JSON of each of them, and need keeping out of
 * HTML, Markdown and the API. Instead the writer hands y-tiptap a copy of a block whose marked
 * inline nodes come from a carrier schema: the same schema with that one attribute added to
 * inline node types, which y-tiptap then diffs and writes like any other attribute. The carrier
 * nodes live only for the write; the readers turn the attribute back into marks, each checked
 * against the schema and the parent (an unknown mark, bad attributes or a mark the parent does
 * not allow are dropped and reported; the node stays).
 */

/** The Y.XmlElement attribute that carries an inline node's marks (never a schema attribute). */
export const CARRIED_MARKS = 'inkwellMarks';

/** Told what a carried mark list held that the schema refuses; that part is dropped. */
export type MarkReport = (problem: string) => void;

const carriers = new WeakMap<Schema, Schema>();

/** `schema` with {@link CARRIED_MARKS} on every inline node type other than text. */
function carrierSchema(schema: Schema): Schema {
  let carrier = carriers.get(schema);
  if (carrier) return carrier;
  let nodes = schema.spec.nodes;
  schema.spec.nodes.forEach((name, spec) => {
    if (!isMarkedInlineType(schema.nodes[name])) return;
    nodes = nodes.update(name, {
      ...spec,
      attrs: { ...spec.attrs, [CARRIED_MARKS]: { default: null } },
    });
  });
  carrier = new Schema({ nodes, marks: schema.spec.marks, topNode: schema.spec.topNode });
  carriers.set(schema, carrier);
  return carrier;
}

function isMarkedInlineType(type: NodeType | undefined): boolean {
  return type !== undefined && type.isInline && !type.isText;
}

/**
 * `node` as y-tiptap's writer (`updateYFragment`, `prosemirrorToYXmlFragment`) must see it: every
 * inline node with marks replaced by a carrier copy holding them in {@link CARRIED_MARKS}. The
 * same object when nothing inside has such marks, and unchanged children keep their identity, so
 * y-tiptap's mapping still recognises them and only blocks holding marked inline nodes are
 * rebuilt. Whoever keeps y-tiptap's mapping should map the written Y type to `node` afterwards.
 */
export function withCarriedMarks(node: PMNode): PMNode {
  if (node.isText) return node;
  if (node.isInline) {
    if (node.marks.length === 0) return node;
    const type = carrierSchema(node.type.schema).nodes[node.type.name]!;
    const marks = JSON.stringify(node.marks.map((mark) => mark.toJSON() as unknown));
    // Inline nodes are atoms in this schema; their (empty) content is kept as it is.
    return type.create({ ...node.attrs, [CARRIED_MARKS]: marks }, node.content);
  }
  if (node.childCount === 0) return node;
  let children: PMNode[] | null = null;
  node.forEach((child, _offset, index) => {
    const carried = withCarriedMarks(child);
    if (carried === child && !children) return;
    children ??= Array.from({ length: index }, (_, i) => node.child(i));
    children.push(carried);
  });
  // `create`, not `createChecked`: the carrier children belong to the carrier schema.
  return children ? node.copy(Fragment.fromArray(children)) : node;
}

/**
 * The marks a {@link CARRIED_MARKS} value holds that `schema` knows and accepts together, and
 * that `parent` (when known) allows; the rest reported and left out. Never throws.
 */
export function carriedMarks(
  value: unknown,
  schema: Schema,
  parent: NodeType | null,
  report: MarkReport,
): readonly Mark[] {
  if (value === null || value === undefined) return Mark.none;
  const list = parseList(value);
  if (!list) {
    report('carried marks that are not a list');
    return Mark.none;
  }
  let marks: readonly Mark[] = Mark.none;
  for (const json of list) {
    const type = markTypeOf(json, schema);
    if (!type) {
      report(`unknown carried mark ${describe(json)}`);
      continue;
    }
    if (parent && !parent.allowsMarkType(type)) {
      report(`mark ${type.name} where ${parent.name} allows none`);
      continue;
    }
    try {
      const mark = schema.markFromJSON(json);
      // addToSet drops what the new mark excludes, as ProseMirror does when marks are added.
      marks = mark.addToSet(marks);
    } catch {
      report(`carried mark ${type.name} with bad attributes`);
    }
  }
  return marks;
}

/** The list a carried value names: JSON text of a list, nothing else. */
function parseList(value: unknown): unknown[] | null {
  if (typeof value !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as unknown[]) : null;
  } catch {
    return null;
  }
}

function markTypeOf(json: unknown, schema: Schema): MarkType | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { type } = json as { type?: unknown };
  // The schema's tables have no prototype: only its own types are found.
  return typeof type === 'string' ? schema.marks[type] : undefined;
}

function describe(json: unknown): string {
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : json;
  return JSON.stringify(type ?? null).slice(0, 40);
}

/**
 * ProseMirror JSON as y-tiptap's reader (`yXmlFragmentToProsemirrorJSON`) writes it, with each
 * {@link CARRIED_MARKS} attribute turned back into the node's marks through
 * {@link carriedMarks}; `parent` is the type `json` sits in (null for the document). Unknown
 * node types are left as they are, for the schema check to refuse.
 */
export function restoreCarriedMarks(
  json: JSONContent,
  schema: Schema,
  report: MarkReport,
  parent: NodeType | null = null,
): JSONContent {
  const type = json.type === undefined ? undefined : schema.nodes[json.type];
  let result = json;
  if (json.attrs && Object.hasOwn(json.attrs, CARRIED_MARKS)) {
    const { [CARRIED_MARKS]: value, ...attrs } = json.attrs;
    result = { ...json, attrs };
    if (Object.keys(attrs).length === 0) delete result.attrs;
    if (!isMarkedInlineType(type)) {
      report(`carried marks on ${String(json.type)}, which is no inline node`);
    } else {
      const marks = carriedMarks(value, schema, parent, report);
      if (marks.length > 0) {
        result.marks = [
          ...(json.marks ?? []),
          ...marks.map((mark) => mark.toJSON() as { type: string }),
        ];
      }
    }
  }
  if (!Array.isArray(json.content)) return result;
  const content = json.content.map((child) =>
    restoreCarriedMarks(child, schema, report, type ?? null),
  );
  return content.some((child, i) => child !== json.content![i]) ? { ...result, content } : result;
}
