import type * as Y from 'yjs';
import type { VersionSummary } from '../../common/api/versions.ts';
import type { Logger } from '../logger.ts';
import type { KeepRequest, VersionStore } from './versionStore.ts';

/** A pause in editing this long keeps a version (docs/PRODUCT.md "Version history"). */
export const VERSION_PAUSE_MS = 3 * 60 * 1000;
/** During continuous editing, a version at least this often. */
export const VERSION_EVERY_MS = 30 * 60 * 1000;

/** A live document edited since its last version. */
interface Pending {
  doc: Y.Doc;
  /** When the first edit since the last version came. */
  since: number;
  /** Accounts whose edits came since. */
  writers: Set<string>;
  timer: NodeJS.Timeout;
}

/**
 * When the server keeps automatic versions of live documents: after a pause in editing, when the
 * last writer leaves, at least every {@link VERSION_EVERY_MS} while editing goes on, and at
 * shutdown; a document nobody changed gets none. Versions of one document are kept one at a time.
 */
export class VersionKeeper {
  private readonly pending = new Map<string, Pending>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: VersionStore,
    private readonly logger: Logger,
    private readonly timing = { pauseMs: VERSION_PAUSE_MS, everyMs: VERSION_EVERY_MS },
  ) {}

  /** `doc` of `documentId` changed, by `userId` (null: the server's own change). */
  edited(documentId: string, doc: Y.Doc, userId: string | null): void {
    const now = Date.now();
    let entry = this.pending.get(documentId);
    if (entry) clearTimeout(entry.timer);
    else {
      entry = {
        doc,
        since: now,
        writers: new Set(),
        timer: undefined as unknown as NodeJS.Timeout,
      };
      this.pending.set(documentId, entry);
    }
    entry.doc = doc;
    if (userId) entry.writers.add(userId);
    if (now - entry.since >= this.timing.everyMs) {
      void this.flush(documentId);
      return;
    }
    entry.timer = setTimeout(() => void this.flush(documentId), this.timing.pauseMs);
    entry.timer.unref();
  }

  /** Keeps the pending version of `documentId` now, if it was edited since its last one. */
  async flush(documentId: string): Promise<void> {
    const entry = this.pending.get(documentId);
    if (!entry) return;
    this.pending.delete(documentId);
    clearTimeout(entry.timer);
    await this.keep(documentId, entry.doc, { kind: 'auto', writers: [...entry.writers] }).catch(
      (error: unknown) => this.logger.warn('Keeping a version failed.', { documentId, err: error }),
    );
  }

  /** Keeps every pending version (shutdown). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((id) => this.flush(id)));
  }

  /**
   * Keeps `doc` as a version by hand (named, or before a restore), with the writers pending for
   * it: what they wrote is in it, so the next automatic version does not name them again.
   */
  async keepNow(documentId: string, doc: Y.Doc, request: KeepRequest) {
    const entry = this.pending.get(documentId);
    if (entry) {
      this.pending.delete(documentId);
      clearTimeout(entry.timer);
    }
    return this.keep(documentId, doc, { ...request, writers: [...(entry?.writers ?? [])] });
  }

  /** Runs the store's keep after this document's earlier ones. */
  private keep(
    documentId: string,
    doc: Y.Doc,
    request: KeepRequest,
  ): Promise<VersionSummary | null> {
    const run = (this.queues.get(documentId) ?? Promise.resolve()).then(() =>
      this.store.keep(documentId, doc, request),
    );
    const settled = run.catch(() => undefined);
    this.queues.set(documentId, settled);
    void settled.then(() => {
      if (this.queues.get(documentId) === settled) this.queues.delete(documentId);
    });
    return run;
  }
}
