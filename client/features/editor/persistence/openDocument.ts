import type { JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type {
  DocumentContent,
  DocumentMeta,
  DocumentRecord,
} from '../../../../common/api/documents.ts';
import { cleanDocJson, hasHtmlNodes } from '../../../../common/editor/cleanDocJson.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { loadHtmlSanitizer } from '../nodeViews/htmlSanitizer.ts';
import type { PendingDocument } from '../../documents/pendingDocuments.ts';
import { asDraft, type DraftStore } from './draftStore.ts';

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
  /** The title the editor shows: the server's, or the draft's. */
  title: string;
  /** The content the editor shows, checked, in the shared schema. */
  content: ProseMirrorNode;
  /** The version the shown content is based on. */
  baseVersion: number;
  /** The change counter of a restored draft (to be saved at once); 0 when none. */
  restoredChange: number;
  /** The server's copy, when it moved on since the shown draft was started: the writer chooses. */
  conflict: DocumentRecord | null;
  /** A notice for the writer, such as a restored draft. */
  notice: string | null;
  /** A problem for the writer, such as a draft that could not be read. */
  problem: string | null;
  /** Whether the server does not have the document yet: it is being created (an import). */
  creating: boolean;
}

/** What {@link openDocument} works with. */
export interface OpenDocumentDeps {
  /** Loads the server's copy; rejects with the API's error (404 for a missing document). */
  fetchDocument: (id: string) => Promise<DocumentRecord>;
  /** The document under `id` if it is shown before the server has it; it is then not fetched. */
  pendingDocument?: (id: string) => PendingDocument | undefined;
  /** The drafts of this device. */
  drafts: DraftStore;
}

/** Thrown when the server's copy does not fit the editor; nothing can be edited then. */
export class UnreadableDocumentError extends Error {
  override name = 'UnreadableDocumentError';
}

const RESTORED = 'Restored unsaved changes from this device.';
const UNREADABLE_DRAFT =
  "Unsaved changes kept on this device couldn't be opened. They were kept aside, and the saved version is shown.";
const NO_STORAGE =
  "This browser's storage is not available: edits are saved to the server only, not kept on this device.";

/**
 * Opens a document: the server's copy, with the unsaved edits this device holds for it. A draft
 * based on the server's version is applied (and saved at once); a draft based on an older
 * version is shown with the server's copy as a conflict; a draft equal to the server's copy is
 * dropped; a draft that cannot be read is kept aside, never deleted. A document still being
 * created (an import) opens from memory: the codec built it, so it is not checked again.
 */
export async function openDocument(id: string, deps: OpenDocumentDeps): Promise<OpenedDocument> {
  const readDraft = deps.drafts.get(id).then(
    (record) => ({ record, failed: false }),
    () => ({ record: undefined, failed: true }),
  );
  const pending = deps.pendingDocument?.(id);
  const { record, doc, copy } = pending ? { ...pending, copy: null } : await fetchChecked(id, deps);
  const { record: stored, failed } = await readDraft;
  const opened: OpenedDocument = {
    record,
    title: record.title,
    content: doc,
    baseVersion: record.version,
    restoredChange: 0,
    conflict: null,
    notice: null,
    problem: failed ? NO_STORAGE : null,
    creating: pending !== undefined,
  };
  if (stored === undefined) return opened;

  const draft = asDraft(stored);
  const mine = draft && draft.documentId === id ? await checkDraftJson(draft.json) : null;
  if (!draft || !mine) {
    await deps.drafts.keepAside(id, stored).catch(() => undefined);
    return { ...opened, problem: UNREADABLE_DRAFT };
  }
  if (mine.doc.eq(doc) && draft.title === record.title) {
    // Already saved (the acknowledgement came, the clean-up did not): nothing to offer. A
    // document still being created keeps it until the server has the document.
    if (!pending) await deps.drafts.deleteUpTo(id, draft.change).catch(() => undefined);
    return opened;
  }
  const shown = {
    ...opened,
    title: draft.title,
    content: mine.doc,
    restoredChange: Math.max(1, draft.change),
  };
  if (draft.baseVersion === record.version) return { ...shown, notice: RESTORED };
  const conflict = copy ?? withContent(record, doc);
  return { ...shown, baseVersion: draft.baseVersion, conflict };
}

/** The server's copy, checked; throws {@link UnreadableDocumentError} when it cannot be opened. */
async function fetchChecked(id: string, deps: OpenDocumentDeps) {
  const record = await deps.fetchDocument(id);
  const checked = await checkContent(record.content);
  if (!checked) throw new UnreadableDocumentError("This document couldn't be opened.");
  return { record, doc: checked.doc, copy: record };
}

function withContent(record: DocumentMeta, doc: ProseMirrorNode): DocumentRecord {
  return { ...record, content: doc.toJSON() as DocumentContent };
}

async function checkDraftJson(json: string): Promise<CheckedContent | null> {
  try {
    return await checkContent(JSON.parse(json));
  } catch {
    return null;
  }
}
