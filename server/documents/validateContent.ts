import { Mark, type Node as PMNode, type NodeType, type Schema } from '@tiptap/pm/model';
import type { DocumentContent } from '../../common/api/documents.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { DocumentTooDeepError } from '../../common/editor/documentDepth.ts';
import { sanitizeDocJson } from '../../common/editor/sanitizeDocJson.ts';
import { InvalidDocumentError } from '../errors.ts';

/** Longest text kept for search: PostgreSQL's tsvector tops out at 1 MB, and lexemes add up. */
const SEARCH_TEXT_CHARS = 200_000;

/** Content that passed the editor schema and the URL rules, ready to store. */
export interface ValidContent {
  /** The JSON to store: the input with disallowed links, images and HTML taken out. */
  json: DocumentContent;
  /** `json` as text, made once: for the size check and the database. */
  jsonText: string;
}

/**
 * Checks document JSON against the editor schema (the same one the browser uses) and applies the
 * link rule of docs/PRODUCT.md "Links and URLs", as an import would. Throws 422 `invalid_document`
 * with the reason.
 */
export function validateContent(content: DocumentContent): ValidContent {
  const cleaned = sanitizeWithinDepth(content);
  if (!cleaned) throw InvalidDocumentError('The document is not a document the editor can open.');
  const problem = schemaProblem(inkwellSchema(), cleaned);
  if (problem) throw InvalidDocumentError(`The document does not fit the editor: ${problem}`);
  return { json: cleaned as DocumentContent, jsonText: JSON.stringify(cleaned) };
}

/**
 * {@link sanitizeDocJson}, which also refuses content nesting deeper than MAX_DEPTH before anything
 * recursive (the schema check, JSON.stringify) could overflow the call stack: 422, not 500.
 */
function sanitizeWithinDepth(content: DocumentContent): ReturnType<typeof sanitizeDocJson> {
  try {
    return sanitizeDocJson(content);
  } catch (error) {
    if (error instanceof DocumentTooDeepError) throw InvalidDocumentError(error.message, error);
    throw error;
  }
}

/** Validated content as a ProseMirror node (for export and text); it is known to load. */
export function documentNode(content: ValidContent): PMNode {
  return inkwellSchema().nodeFromJSON(content.json);
}

/** A node checked by {@link checkNode}: what its parent needs to know of it. */
interface Checked {
  type: NodeType;
  marks: readonly Mark[];
}

/**
 * Why `json` would not load in `schema`, or null if it would. It accepts what
 * `schema.nodeFromJSON(json).check()` accepts (adjacent text with the same marks counting as one,
 * as there), plus the attribute values the editor and the Markdown export depend on, without
 * building the document: every save passes through here, and building a 100 KB document took
 * more of the server's time than the rest of the check.
 */
export function schemaProblem(schema: Schema, json: unknown): string | null {
  return problemOf(() => checkNode(schema, json, true));
}

/**
 * {@link schemaProblem} without the rules on which nodes may go where: whether each node, its
 * attributes and its marks would load. What only breaks those rules is what two valid concurrent
 * edits can make (a list item whose two paragraphs two writers deleted), which the live document
 * repairs rather than refuses (server/collab/schemaGuard.ts).
 */
export function structureProblem(schema: Schema, json: unknown): string | null {
  return problemOf(() => checkNode(schema, json, false));
}

function problemOf(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `placement`: whether children must fit their parent's content expression. */
function checkNode(schema: Schema, json: unknown, placement: boolean): Checked {
  if (typeof json !== 'object' || json === null) throw new RangeError('A node must be an object.');
  const node = json as { type?: unknown; attrs?: unknown; content?: unknown; marks?: unknown };
  if (typeof node.type !== 'string') throw new RangeError('A node has no type.');
  const marks = node.marks ? checkMarks(schema, node.marks) : Mark.none;
  if (node.type === 'text') {
    const { text } = node as { text?: unknown };
    if (typeof text !== 'string' || text === '') throw new RangeError('A text node has no text.');
    return { type: schema.nodes.text!, marks };
  }
  // The schema's tables have no prototype: only its own types are found.
  const type = schema.nodes[node.type];
  if (!type) throw new RangeError(`There is no node type ${node.type}.`);
  // `create` computes and validates the attributes, as `Node.fromJSON` does.
  const { attrs } = type.create(node.attrs as Record<string, unknown> | null | undefined);
  const attrProblem = attributeProblem(type.name, attrs);
  if (attrProblem) throw new RangeError(attrProblem);
  let match = type.contentMatch;
  if (node.content) {
    if (!Array.isArray(node.content)) throw new RangeError(`${type.name}.content is not a list.`);
    let previous: Checked | null = null;
    for (const child of node.content as unknown[]) {
      const checked = checkNode(schema, child, placement);
      if (!placement) continue;
      // ProseMirror joins adjacent text with the same marks into one node before matching.
      const joined =
        previous?.type.isText && checked.type.isText && Mark.sameSet(previous.marks, checked.marks);
      const next = joined ? match : match.matchType(checked.type);
      if (!next || !type.allowsMarks(checked.marks)) {
        throw new RangeError(`${describe(checked)} cannot go in ${type.name} there.`);
      }
      match = next;
      previous = checked;
    }
  }
  if (placement && !match.validEnd) {
    throw new RangeError(`${type.name} is missing content it needs.`);
  }
  return { type, marks };
}

/** Marks as `Node.fromJSON` makes them (sorted by rank), and refused as `Node.check` refuses a set. */
function checkMarks(schema: Schema, json: unknown): readonly Mark[] {
  if (!Array.isArray(json)) throw new RangeError('A node\u2019s marks are not a list.');
  const marks: Mark[] = [];
  for (const raw of json as unknown[]) {
    const { type, attrs } = (raw ?? {}) as { type?: unknown; attrs?: unknown };
    const markType = typeof type === 'string' ? schema.marks[type] : undefined;
    if (!markType) throw new RangeError(`There is no mark type ${String(type)}.`);
    marks.push(markType.create(attrs as Record<string, unknown> | null | undefined));
  }
  const sorted = Mark.setFrom(marks);
  let set: readonly Mark[] = Mark.none;
  for (const mark of sorted) set = mark.addToSet(set);
  if (!Mark.sameSet(set, sorted)) {
    throw new RangeError(`These marks cannot go together: ${sorted.map((m) => m.type.name)}.`);
  }
  return sorted;
}

function describe(checked: Checked): string {
  const marks = checked.marks.map((mark) => mark.type.name);
  return marks.length > 0 ? `${checked.type.name} (${marks.join(', ')})` : checked.type.name;
}

/**
 * The schema checks which nodes may go where, not what their attributes hold; these are the
 * attributes whose values the editor and the Markdown export depend on.
 */
function attributeProblem(typeName: string, attrs: Record<string, unknown>): string | null {
  // A loop over keys, not Object.entries: this runs for every node of every save.
  for (const name in attrs) {
    const value = attrs[name];
    if (value === null || typeof value !== 'object' || isColumnWidths(name, value)) continue;
    return `${typeName}.${name} must be a plain value.`;
  }
  if (typeName === 'heading') {
    const { level } = attrs;
    if (!(Number.isInteger(level) && Number(level) >= 1 && Number(level) <= 6)) {
      return 'a heading level must be 1 to 6.';
    }
  }
  if (typeName === 'orderedList') {
    const { start } = attrs;
    if (!(Number.isInteger(start) && Number(start) >= 0)) {
      return 'a numbered list must start at a whole number.';
    }
  }
  return null;
}

/**
 * A table cell's column widths: the editor reads them from pasted HTML (`<col width>`, as Google
 * Docs and Word write) as a list of numbers, a width it cannot read as null.
 */
function isColumnWidths(name: string, value: object): boolean {
  return (
    name === 'colwidth' &&
    Array.isArray(value) &&
    value.every((width) => width === null || typeof width === 'number')
  );
}

/**
 * The text of a document for excerpts and search. A leaf with text of its own (a `#tag`, math)
 * gives it, so that a click on a tag finds the documents that carry it; other leaves a space.
 */
export function plainTextOf(doc: PMNode): string {
  const leaf = (node: PMNode) => node.type.spec.leafText?.(node) ?? ' ';
  return doc.textBetween(0, doc.content.size, '\n', leaf).slice(0, SEARCH_TEXT_CHARS);
}

/** The content of a new, empty document. */
export const EMPTY_DOCUMENT: DocumentContent = { type: 'doc', content: [{ type: 'paragraph' }] };
