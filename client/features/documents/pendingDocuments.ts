import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { DocumentMeta, SaveResult } from '../../../common/api/documents.ts';
import type { ApiError } from '../../lib/api.ts';
import type { Base64 } from '../../lib/base64.ts';
import { whenQuiet } from '../../lib/schedule.ts';
import { isRefusal } from '../live/persistence/saveFailure.ts';
import { serializeDoc } from '../live/persistence/serializeDoc.ts';
import { createDocumentWithId, type DocumentWithId } from './documentsApi.ts';

/** A document made on this device (an imported file) that the server has not acknowledged yet. */
export interface PendingDocument {
  /** Its row: the id chosen here, version 1, times from this device's clock. */
  record: DocumentMeta;
  /** The content, as the Markdown codec built it in the shared schema. */
  doc: ProseMirrorNode;
}

/** Told how a pending document's create ended. */
export interface PendingHandlers {
  /** The server has the document. */
  onCreated?: (document: DocumentMeta) => void;
  /** The server refused it for good (too large, not a valid document); the error says why. */
  onRefused?: (error: ApiError) => void;
}

/** What {@link PendingDocuments} works with; tests pass fakes. */
export interface PendingDocumentsDeps {
  /** Sends a create; with `keepalive`, null when the request is too large to outlive the page. */
  send: (request: DocumentWithId, keepalive: boolean) => Promise<DocumentMeta> | null;
  /** The content as JSON text. */
  serialize: (doc: ProseMirrorNode) => string;
  /** Resolves when serialising a large document will not hold up the page. */
  whenQuiet: () => Promise<void>;
}

interface Entry {
  document: PendingDocument;
  handlers: PendingHandlers;
  /** The request's content, serialised on the first attempt and sent again by retries. */
  body: string | null;
  /** The Yjs state (base64) of the live document this tab made from it: sent instead of the content. */
  state: (() => Base64) | null;
  /** Resolves once {@link state} can be read without holding up the page (its build done). */
  stateReady: (() => Promise<void>) | null;
  /** {@link state} read off the page's thread, for an attempt that can wait for it. */
  stateOffThread: (() => Promise<Base64>) | null;
  /** What {@link state} gave on the first attempt, sent again by retries. */
  stateBody: Base64 | null;
  /** The attempt under way. */
  sending: Promise<SaveResult> | null;
}

const resultOf = ({ id, version, updatedAt }: DocumentMeta): SaveResult => ({
  id,
  version,
  updatedAt,
});

/**
 * Documents shown before the server has them: an import opens at once while its create goes out
 * in the background. One create request is under way per document at a time; every attempt
 * sends the same id and content, so a retry after a lost answer is harmless (the server answers
 * with the document it has). Retrying is up to the caller (createOnServer.ts).
 */
export class PendingDocuments {
  private readonly entries = new Map<string, Entry>();
  /** How each finished create ended, for a caller that asks afterwards. */
  private readonly outcomes = new Map<string, Promise<SaveResult>>();

  constructor(private readonly deps: PendingDocumentsDeps) {}

  /** Keeps `document` until the server has it; nothing is sent until {@link send}. */
  add(document: PendingDocument, handlers: PendingHandlers = {}): void {
    this.entries.set(document.record.id, {
      document,
      handlers,
      body: null,
      state: null,
      stateReady: null,
      stateOffThread: null,
      stateBody: null,
      sending: null,
    });
  }

  /**
   * The tab edits `id` live already, on a Y.Doc it built from the content: the create sends
   * that document's state (`state`, base64, read on the first attempt) instead of the content,
   * so that the server stores the very state the editor shows (nothing converted on the server,
   * nothing to sync at connection). Read once the page is quiet, as the content would be, and
   * once `ready` resolves (the live document built in slices meanwhile, newDocumentState.ts), by
   * `offThread` when given (a worker: typing never waits for it); read at once, by `state`, for
   * a request with keepalive.
   */
  useState(
    id: string,
    state: () => Base64,
    ready?: () => Promise<void>,
    offThread?: () => Promise<Base64>,
  ): void {
    const entry = this.entries.get(id);
    if (!entry || entry.sending) return;
    entry.state = state;
    entry.stateReady = ready ?? null;
    entry.stateOffThread = offThread ?? null;
  }

  /** The document under `id`, while its create is not acknowledged or refused. */
  get(id: string): PendingDocument | undefined {
    return this.entries.get(id)?.document;
  }

  /**
   * Creates the document on the server, or joins the attempt under way; resolves with its
   * version once the server has it. The first attempt waits for the page to be quiet before
   * serialising. With `keepalive` (the page is going), null when the request is too large.
   */
  send(id: string, keepalive = false): Promise<SaveResult> | null {
    const entry = this.entries.get(id);
    if (!entry) {
      return this.outcomes.get(id) ?? Promise.reject(new Error(`No document ${id} is pending.`));
    }
    if (entry.sending) return entry.sending;
    if (keepalive) {
      // The page is going: no waiting, and only a request small enough to outlive it. A tab
      // editing live sends its state: the device copy holds that Y.Doc, and content converted
      // on the server would come back from it a second time.
      const sending = this.deps.send(
        this.stateRequestOf(entry) ?? this.contentRequestOf(entry),
        true,
      );
      return sending ? this.track(entry, sending) : null;
    }
    return this.track(entry, this.sendWhenQuiet(entry));
  }

  private async sendWhenQuiet(entry: Entry): Promise<DocumentMeta> {
    // Encoding a large document's state costs about as much as serialising its content: both
    // wait until the editor showing it has been painted.
    if (entry.body === null && entry.stateBody === null) {
      await this.deps.whenQuiet();
      await entry.stateReady?.();
      // Read where typing does not wait for it, when it can be; retries send it again.
      if (entry.state && entry.stateOffThread) entry.stateBody = await entry.stateOffThread();
    }
    const request = this.stateRequestOf(entry) ?? this.contentRequestOf(entry);
    const sending = this.deps.send(request, false);
    if (!sending) throw new Error('A create without keepalive is always sent.');
    return sending;
  }

  /** The create with the content, serialised on the first attempt. */
  private contentRequestOf(entry: Entry): DocumentWithId {
    const { id, title } = entry.document.record;
    entry.body ??= this.deps.serialize(entry.document.doc);
    return { id, title, content: entry.body };
  }

  /** The create with the live document's state, when the tab edits it live; read on the first attempt. */
  private stateRequestOf(entry: Entry): DocumentWithId | null {
    if (!entry.state) return null;
    const { id, title } = entry.document.record;
    entry.stateBody ??= entry.state();
    return { id, title, yjsState: entry.stateBody };
  }

  private track(entry: Entry, sending: Promise<DocumentMeta>): Promise<SaveResult> {
    const id = entry.document.record.id;
    const tracked = sending.then(
      (document) => {
        this.settle(id, Promise.resolve(resultOf(document)));
        entry.handlers.onCreated?.(document);
        return resultOf(document);
      },
      (error: unknown) => {
        if (entry.sending === tracked) entry.sending = null;
        if (isRefusal(error)) {
          const refused = Promise.reject(error);
          // Read by whoever asks later; nobody may be listening now.
          refused.catch(() => undefined);
          this.settle(id, refused);
          entry.handlers.onRefused?.(error);
        }
        throw error;
      },
    );
    entry.sending = tracked;
    return tracked;
  }

  private settle(id: string, outcome: Promise<SaveResult>): void {
    // The content is the server's now (or never will be): the memory goes.
    this.entries.delete(id);
    this.outcomes.set(id, outcome);
  }
}

/** The app's pending documents. */
export const pendingDocuments = new PendingDocuments({
  send: createDocumentWithId,
  serialize: serializeDoc,
  whenQuiet,
});
