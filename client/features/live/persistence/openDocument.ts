import type { JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { DocumentMeta, DocumentRecord } from '../../../../common/api/documents.ts';
import { cleanDocJson, hasHtmlNodes } from '../../../../common/editor/cleanDocJson.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { loadHtmlSanitizer } from '../../editor/nodeViews/htmlSanitizer.ts';
import type { PendingDocument } from '../../documents/pendingDocuments.ts';

/** Document JSON that passed the link rule and the schema. */
export interface CheckedContent {
  /** The cleaned JSON, for the editor. */
  json: JSONContent;
  /** The same as a node, to compare copies. */
  doc: ProseMirrorNode;
}

/** Never called: `cleanDocJson` only sanitises raw-HTML nodes, and the JSON has none. */
const noHtml = (): string => '';

/**
 * Cleans and checks document JSON from outside (the server, IndexedDB): the link rule of
 * docs/PRODUCT.md "Links and URLs", then the schema. Null when it is not a usable document.
 */
export async function checkContent(json: unknown): Promise<CheckedContent | null> {
  // The HTML sanitiser (htmlparser2 and its entity tables) loads only for documents with raw HTML.
  const sanitizeHtml = hasHtmlNodes(json) ? await loadHtmlSanitizer() : noHtml;
  try {
    // Throws for content nested deeper than a document may be (docs/limits.md).
    const clean = cleanDocJson(json, sanitizeHtml);
    if (!clean) return null;
    const doc = inkwellSchema().nodeFromJSON(clean);
    doc.check();
    return { json: clean, doc };
  } catch {
    return null;
  }
}

/** What the editor opens with. */
export interface OpenedDocument {
  /** The server's copy, without its content; this device's, for a document being created. */
  record: DocumentMeta;
  /** The title the editor shows. */
  title: string;
  /**
   * The last saved content, checked, in the shared schema: shown read-only until the shared
   * document (whose state the server derives it from) is synced.
   */
  content: ProseMirrorNode;
  /** Whether the server does not have the document yet: it is being created (an import). */
  creating: boolean;
}

/** What {@link openDocument} works with. */
export interface OpenDocumentDeps {
  /** Loads the server's copy; rejects with the API's error (404 for a missing document). */
  fetchDocument: (id: string) => Promise<DocumentRecord>;
  /** The document under `id` if it is shown before the server has it; it is then not fetched. */
  pendingDocument?: (id: string) => PendingDocument | undefined;
}

/** Thrown when the server's copy does not fit the editor; nothing can be edited then. */
export class UnreadableDocumentError extends Error {
  override name = 'UnreadableDocumentError';
}

/**
 * Opens a document: the server's last saved copy, shown while the shared document connects
 * (this device's unsaved edits live in that document's IndexedDB copy, see collab/). A document
 * still being created (an import) opens from memory: the codec built it, so it is not checked
 * again.
 */
export async function openDocument(id: string, deps: OpenDocumentDeps): Promise<OpenedDocument> {
  const pending = deps.pendingDocument?.(id);
  if (pending) {
    return {
      record: pending.record,
      title: pending.record.title,
      content: pending.doc,
      creating: true,
    };
  }
  const record = await deps.fetchDocument(id);
  const checked = await checkContent(record.content);
  if (!checked) throw new UnreadableDocumentError("This document couldn't be opened.");
  return { record, title: record.title, content: checked.doc, creating: false };
}
