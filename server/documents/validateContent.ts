import type { Node as PMNode } from '@tiptap/pm/model';
import type { DocumentContent } from '../../common/api/documents.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
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
  /** The document as a ProseMirror node (for export and text). */
  doc: PMNode;
}

/**
 * Checks document JSON against the editor schema (the same one the browser uses) and applies the
 * link rule of DESIGN §4, as an import would. Throws 422 `invalid_document` with the reason.
 */
export function validateContent(content: DocumentContent): ValidContent {
  const cleaned = sanitizeDocJson(content);
  if (!cleaned) throw InvalidDocumentError('The document is not a document the editor can open.');
  let doc: PMNode;
  try {
    doc = inkwellSchema().nodeFromJSON(cleaned);
    doc.check();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw InvalidDocumentError(`The document does not fit the editor: ${reason}`, error);
  }
  const problem = attributeProblem(doc);
  if (problem) throw InvalidDocumentError(`The document does not fit the editor: ${problem}`);
  return { json: cleaned as DocumentContent, jsonText: JSON.stringify(cleaned), doc };
}

/**
 * The schema checks which nodes may go where, not what their attributes hold; these are the
 * attributes whose values the editor and the Markdown export depend on.
 */
function attributeProblem(doc: PMNode): string | null {
  let problem: string | null = null;
  doc.descendants((node) => {
    if (problem) return false;
    // A loop over keys, not Object.entries: this runs for every node of every save.
    const attrs = node.attrs as Record<string, unknown>;
    for (const name in attrs) {
      const value = attrs[name];
      if (value !== null && typeof value === 'object') {
        problem = `${node.type.name}.${name} must be a plain value.`;
      }
    }
    const { level, start } = node.attrs as { level?: unknown; start?: unknown };
    if (
      node.type.name === 'heading' &&
      !(Number.isInteger(level) && Number(level) >= 1 && Number(level) <= 6)
    ) {
      problem = 'a heading level must be 1 to 6.';
    }
    if (node.type.name === 'orderedList' && !(Number.isInteger(start) && Number(start) >= 0)) {
      problem = 'a numbered list must start at a whole number.';
    }
    return !problem;
  });
  return problem;
}

/** The text of a document for excerpts and search. */
export function plainTextOf(doc: PMNode): string {
  return doc.textBetween(0, doc.content.size, '\n', ' ').slice(0, SEARCH_TEXT_CHARS);
}

/** The content of a new, empty document. */
export const EMPTY_DOCUMENT: DocumentContent = { type: 'doc', content: [{ type: 'paragraph' }] };
