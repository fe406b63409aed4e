import type {
  DocumentMeta,
  DocumentRecord,
  DocumentSummary,
  SaveResult,
} from '../../../common/api/documents.ts';
import { api, fitsKeepalive, JsonText } from '../../lib/api.ts';
import type { Base64 } from '../../lib/base64.ts';
import { documentResponseCheck, listDocumentsResponseCheck } from '../../lib/startChecks.ts';

const documentUrl = (id: string) => `/api/documents/${encodeURIComponent(id)}`;

// A document just created here is opened next: keeping the server's answer saves downloading
// the same content again (an imported file can be megabytes).
const justCreated = new Map<string, DocumentRecord>();

/** Options of {@link listDocuments}. */
export interface ListOptions {
  /** Full-text search over titles and text. */
  q?: string;
  /** List the trash instead of the live documents. */
  trash?: boolean;
  /** List the documents others shared with the reader instead of the reader's own. */
  shared?: boolean;
  /** Cancels the request (a search superseded by more typing). */
  signal?: AbortSignal;
}

/** The signed-in writer's documents (or trash), most recently changed first. */
export async function listDocuments(options: ListOptions = {}): Promise<DocumentSummary[]> {
  const params = new URLSearchParams();
  if (options.q) params.set('q', options.q);
  if (options.trash) params.set('trash', '1');
  if (options.shared) params.set('shared', '1');
  const query = params.size > 0 ? `?${params}` : '';
  const answer = await api.get(`/api/documents${query}`, listDocumentsResponseCheck, {
    signal: options.signal,
  });
  return answer.documents;
}

/** What a new document starts with. */
export interface NewDocument {
  /** The title ('' for untitled). */
  title: string;
  /** The content as JSON text; an empty document when absent. */
  content?: string;
}

/** Creates a document and returns the server's copy. */
export async function createDocument({ title, content }: NewDocument): Promise<DocumentRecord> {
  // The content is already JSON text: spliced in rather than parsed and written again.
  const body = `{"title":${JSON.stringify(title)}${content ? `,"content":${content}` : ''}}`;
  const { document } = await api.post(
    '/api/documents',
    new JsonText(body),
    (s) => s.documentResponseSchema,
  );
  justCreated.set(document.id, document);
  return document;
}

/** A new document under an id chosen here, as JSON text. */
export interface DocumentWithId {
  /** A random UUID. */
  id: string;
  /** The title ('' for untitled). */
  title: string;
  /** The content as JSON text; absent when the Yjs state is sent instead. */
  content?: string;
  /**
   * The document's Yjs state as base64, from a tab that edits it live already: the server derives
   * the content from it and stores both (docs/ARCHITECTURE.md "Live collaboration").
   */
  yjsState?: Base64;
}

/**
 * Creates a document under the id chosen here, without the content echoed back. Repeating it
 * is harmless: the server then answers with the document it already has. With `keepalive`
 * (pagehide), null when the request is too large for the browser to send after the page has gone.
 */
export function createDocumentWithId(
  { id, title, content, yjsState }: DocumentWithId,
  keepalive = false,
): Promise<DocumentMeta> | null {
  let body = `{"id":${JSON.stringify(id)},"title":${JSON.stringify(title)}`;
  if (content !== undefined) body += `,"content":${content}`;
  // Base64 needs no escaping (lib/base64.ts).
  if (yjsState !== undefined) body += `,"yjsState":"${yjsState}"`;
  body += '}';
  if (keepalive && !fitsKeepalive(body)) return null;
  return api
    .post('/api/documents?echo=0', new JsonText(body), (s) => s.createdDocumentResponseSchema, {
      keepalive,
    })
    .then(({ document }) => document);
}

/** One document with its content; rejects with 404 `not_found` for a missing one. */
export async function getDocument(id: string): Promise<DocumentRecord> {
  const created = justCreated.get(id);
  if (created) {
    justCreated.delete(id);
    return created;
  }
  const { document } = await api.get(documentUrl(id), documentResponseCheck);
  return document;
}

/** A title save as sent: the title, on top of the version the page last knew. */
export interface TitleSaveRequest {
  baseVersion: number;
  title: string;
}

/**
 * Saves the title alone (`PATCH`; the content is saved live, over the WebSocket). With
 * `keepalive` (pagehide), null when the request is too large for the browser to send after the
 * page has gone.
 */
export function saveTitle(
  id: string,
  request: TitleSaveRequest,
  keepalive = false,
): Promise<SaveResult> | null {
  const body = JSON.stringify({ baseVersion: request.baseVersion, title: request.title });
  if (keepalive && !fitsKeepalive(body)) return null;
  return api.patch(documentUrl(id), new JsonText(body), (s) => s.saveResultSchema, { keepalive });
}

/** Moves a document to the trash. */
export function trashDocument(id: string): Promise<void> {
  return api.delete(documentUrl(id));
}

/** Brings a document back from the trash. */
export function restoreDocument(id: string): Promise<SaveResult> {
  return api.post(`${documentUrl(id)}/restore`, undefined, (s) => s.saveResultSchema);
}

/** Deletes a document in the trash for good. */
export function deleteDocumentForever(id: string): Promise<void> {
  return api.delete(`${documentUrl(id)}/permanent`);
}

/** The list row of a document, for showing it before the list is fetched again. */
export function summaryOf(document: DocumentMeta, excerpt = ''): DocumentSummary {
  const { id, title, version, createdAt, updatedAt, deletedAt } = document;
  return { id, title, excerpt, version, createdAt, updatedAt, deletedAt };
}
