import { Mark, type Node as PMNode, type NodeType, type Schema } from '@tiptap/pm/model';
import type { DocumentContent } from '../../common/api/documents.ts';
import { attributeTypeProblem } from '../../common/editor/attributeTypes.ts';
import { AttributeTypeError } from '../../common/editor/cleanDocJson.ts';
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

/** Options of {@link validateContent}. */
export interface ValidateOptions {
  /**
   * The content was read back from the database, where it may predate a rule: an attribute of
   * the wrong type is repaired (left out, so its default applies) rather than refused, so that
   * an export of such a document still answers.
   */
  stored?: boolean;
}

/**
 * Checks document JSON against the editor schema (the same one the browser uses), with the type
 * of every attribute (attributeTypes.ts), and applies the link rule of docs/PRODUCT.md "Links and
 * URLs", as an import would. Throws 422 `invalid_document` with the reason.
 */
export function validateContent(
  content: DocumentContent,
  options: ValidateOptions = {},
): ValidContent {
  const cleaned = sanitizeWithinDepth(content, options.stored === true);
  if (!cleaned) throw InvalidDocumentError('The document is not a document the editor can open.');
  const problem = schemaProblem(inkwellSchema(), cleaned);
  if (problem) throw InvalidDocumentError(`The document does not fit the editor: ${problem}`);
  return { json: cleaned as DocumentContent, jsonText: JSON.stringify(cleaned) };
}

/**
 * {@link sanitizeDocJson}, which also refuses content nesting deeper than MAX_DEPTH before anything
 * recursive (the schema check, JSON.stringify) could overflow the call stack, and an attribute of
 * the wrong type unless `repair`: 422, not 500.
 */
function sanitizeWithinDepth(
  content: DocumentContent,
  repair: boolean,
): ReturnType<typeof sanitizeDocJson> {
  try {
    return sanitizeDocJson(content, { wrongTypes: repair ? 'repair' : 'refuse' });
  } catch (error) {
    if (error instanceof DocumentTooDeepError) throw InvalidDocumentError(error.message, error);
    if (error instanceof AttributeTypeError) {
      throw InvalidDocumentError(`The document does not fit the editor: ${error.message}`, error);
    }
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
 * as there), plus the type of every attribute (attributeTypes.ts), without
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
  // `create` computes the attributes, as `Node.fromJSON` does; ProseMirror takes any value.
  const { attrs } = type.create(node.attrs as Record<string, unknown> | null | undefined);
  const attrProblem = attributeTypeProblem(type.name, attrs);
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
    const mark = markType.create(attrs as Record<string, unknown> | null | undefined);
    const attrProblem = attributeTypeProblem(markType.name, mark.attrs);
    if (attrProblem) throw new RangeError(attrProblem);
    marks.push(mark);
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
 * The text of a document for excerpts and search. A leaf with text of its own (a `#tag`, math)
 * gives it, so that a click on a tag finds the documents that carry it; other leaves a space.
 */
export function plainTextOf(doc: PMNode): string {
  const leaf = (node: PMNode) => node.type.spec.leafText?.(node) ?? ' ';
  return doc.textBetween(0, doc.content.size, '\n', leaf).slice(0, SEARCH_TEXT_CHARS);
}

/** The content of a new, empty document. */
export const EMPTY_DOCUMENT: DocumentContent = { type: 'doc', content: [{ type: 'paragraph' }] };
