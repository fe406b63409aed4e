import type { SaveResult } from '../../../../common/api/documents.ts';
import {
  DEFAULT_TIMING,
  type AutosaveOptions,
  type AutosaveTiming,
  type SaveRequest,
  type Snapshot,
} from './AutosaveOptions.ts';
import { classifySaveFailure } from './saveFailure.ts';
import { sameStatus, type SaveStatus } from './saveStatus.ts';

/**
 * Saves one document: every edit goes to a draft on this device within about a second, and to
 * the server after a pause in typing (at most `maxWait` after the first unsaved edit), one request
 * at a time, each carrying the version it was based on. A draft is deleted only once the server
 * has acknowledged the edit it holds and no newer one exists. An edit costs a counter and a clock
 * read; the document is serialised only when a draft or a save is written. A document the server
 * does not have yet (an import being created) is created first; edits wait for it.
 */
export class Autosave<D> {
  private readonly options: AutosaveOptions<D>;
  private readonly timing: AutosaveTiming;
  private read: () => Snapshot<D>;
  private saved: Snapshot<D> | null;
  private baseVersion: number;
  /** False until the server has acknowledged creating the document (see `options.create`). */
  private created: boolean;
  private change: number;
  private drafted: number;
  private acked: number;
  private lastEdit = 0;
  private undraftedSince = 0;
  private unsavedSince = 0;
  private inFlight: Promise<void> | null = null;
  private draftWrite: Promise<void> | null = null;
  private draftsFailing = false;
  private conflict = false;
  private held = false;
  private failures = 0;
  private retryAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private detached = false;
  private disposed = false;
  private current: SaveStatus = { kind: 'saved' };

  constructor(options: AutosaveOptions<D>) {
    this.options = options;
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.read = options.read;
    this.saved = options.saved;
    this.baseVersion = options.baseVersion;
    this.created = options.create === undefined;
    const restored = options.restoredChange ?? 0;
    // A restored draft is on disk already and is saved at once.
    this.change = this.drafted = restored;
    this.acked = restored > 0 ? restored - 1 : 0;
    if (options.conflicted) {
      this.conflict = true;
      this.setStatus({ kind: 'conflict' });
    } else if (restored > 0 || !this.created) {
      this.unsavedSince = 1;
      this.setStatus({ kind: 'saving' });
      this.schedule();
    }
  }

  /** Whether the server lacks something: an edit, or the document itself. */
  get hasUnsavedEdits(): boolean {
    return !this.created || this.change > this.acked;
  }

  /** Whether every edit is in this device's draft (and a document not yet created, at all). */
  get isDrafted(): boolean {
    return this.drafted >= this.change && (this.created || this.drafted > 0);
  }

  /** Records an edit of the title or the content. */
  edit(): void {
    if (this.disposed || this.detached) return;
    const now = Date.now();
    this.change += 1;
    this.lastEdit = now;
    this.undraftedSince ||= now;
    this.unsavedSince ||= now;
    // A refused save is tried again after the next edit, which may have fixed it; a refused
    // create would send the same document again.
    if (this.created) this.held = false;
    if (this.current.kind === 'saved') this.setStatus({ kind: 'saving' });
    this.schedule();
  }

  /** Saves now if anything is unsaved; resolves when this attempt is over. */
  async flush(): Promise<void> {
    this.clearTimer();
    if (this.inFlight) await this.inFlight;
    if (this.change > this.drafted && !this.draftWrite) void this.writeDraft();
    await this.runSave(false);
    await this.draftWrite;
    this.schedule();
  }

  /** The page is going: writes the draft and sends a small save with keepalive. */
  flushOnPageHide(): void {
    if (this.change > this.drafted) void this.writeDraft();
    void this.runSave(true);
  }

  /** Retries at once, as when the browser comes back online. */
  retryNow(): void {
    if (this.current.kind !== 'offline' && this.current.kind !== 'retrying') return;
    this.retryAt = 0;
    this.clearTimer();
    void this.runSave(false);
    this.schedule();
  }

  /** Conflict: saves the editor's copy on top of the server's `version`. */
  keepMine(version: number): Promise<void> {
    this.baseVersion = version;
    this.saved = null;
    this.conflict = false;
    this.unsavedSince ||= Date.now();
    if (this.change === this.acked) this.change += 1;
    return this.flush();
  }

  /** Conflict: the editor now shows the server's copy `shown` at `version`; nothing is unsaved. */
  takeTheirs(version: number, shown: Snapshot<D>): Promise<void> {
    this.baseVersion = version;
    this.saved = shown;
    this.conflict = false;
    this.held = false;
    this.acked = this.drafted = this.change;
    this.undraftedSince = this.unsavedSince = 0;
    this.failures = 0;
    this.retryAt = 0;
    this.setStatus({ kind: 'saved' });
    return this.options.drafts.deleteUpTo(this.options.documentId, this.change).catch(() => {
      // A draft left behind matches the server's copy and is dropped when next opened.
    });
  }

  /**
   * The editor is going away: carry on with its last state until the edits are saved (or held
   * in the draft, to be offered again when the document is opened), then stop.
   */
  detach(last: Snapshot<D>): void {
    this.read = () => last;
    this.detached = true;
    if (this.change > this.drafted && !this.draftWrite) void this.writeDraft();
    this.stopWhenSettled();
  }

  /** Stops all timers; the draft stays on the device. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimer();
    this.options.onDisposed?.();
  }

  private stopWhenSettled(): void {
    if (!this.detached || this.inFlight || this.draftWrite) return;
    if ((this.created && this.change <= this.acked) || this.conflict || this.held) this.dispose();
    else this.schedule();
  }

  private canSend(): boolean {
    return !this.disposed && !this.inFlight && !this.conflict && !this.held;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.disposed) return;
    const due = this.nextDue();
    if (due === Infinity) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - Date.now()));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private draftDue(): number {
    if (this.change <= this.drafted || this.draftWrite || !this.undraftedSince) return Infinity;
    const { draftDelay, draftMaxWait } = this.timing;
    return Math.min(this.lastEdit + draftDelay, this.undraftedSince + draftMaxWait);
  }

  private saveDue(): number {
    if (this.created && this.change <= this.acked) return Infinity;
    if (!this.canSend() || !this.unsavedSince) return Infinity;
    const { delay, maxWait } = this.timing;
    return Math.max(this.retryAt, Math.min(this.lastEdit + delay, this.unsavedSince + maxWait));
  }

  private nextDue(): number {
    return Math.min(this.draftDue(), this.saveDue());
  }

  private tick(): void {
    this.timer = undefined;
    const now = Date.now();
    if (this.draftDue() <= now) void this.writeDraft();
    if (this.saveDue() <= now) void this.runSave(false);
    this.schedule();
  }

  private writeDraft(json?: string): Promise<void> {
    const change = this.change;
    if (change <= this.acked) return Promise.resolve();
    const { title, doc } = this.read();
    this.undraftedSince = 0;
    const draft = {
      documentId: this.options.documentId,
      baseVersion: this.baseVersion,
      title,
      json: json ?? this.options.serialize(doc),
      change,
      savedAt: Date.now(),
    };
    const write = this.options.drafts.put(draft).then(
      () => {
        // A draft written against a base version that a save has since replaced is stale.
        if (draft.baseVersion === this.baseVersion) this.drafted = Math.max(this.drafted, change);
        this.draftsFailing = false;
      },
      () => {
        this.draftsFailing = true;
      },
    );
    const tracked = write.finally(() => {
      if (this.draftWrite === tracked) this.draftWrite = null;
      if (this.current.kind === 'offline') this.setStatus(this.offlineStatus());
      this.stopWhenSettled();
      this.schedule();
    });
    this.draftWrite = tracked;
    return tracked;
  }

  private runSave(keepalive: boolean): Promise<void> {
    if (!this.canSend()) return Promise.resolve();
    if (!this.created) return this.runCreate(keepalive);
    if (this.change <= this.acked) return Promise.resolve();
    const change = this.change;
    const snapshot = this.read();
    const titleChanged = this.saved === null || snapshot.title !== this.saved.title;
    const contentChanged = this.saved === null || snapshot.doc !== this.saved.doc;
    if (!titleChanged && !contentChanged) {
      // Undone back to the saved state: nothing to send, and the draft can go.
      this.unsavedSince = 0;
      this.acknowledge(change);
      return Promise.resolve();
    }
    const request: SaveRequest = { baseVersion: this.baseVersion };
    if (titleChanged) request.title = snapshot.title;
    if (contentChanged) request.content = this.options.serialize(snapshot.doc);
    const sending = this.options.send(request, keepalive);
    // Too large to outlive the page: the draft holds the edits until the next visit.
    if (!sending) return Promise.resolve();
    this.unsavedSince = 0;
    if (this.drafted < change && !this.draftWrite) void this.writeDraft(request.content);
    if (this.current.kind === 'saved' || this.current.kind === 'failed') {
      this.setStatus({ kind: 'saving' });
    }
    return this.track(
      sending.then(
        (result) => this.succeeded(change, snapshot, result),
        (error: unknown) => this.failed(error),
      ),
    );
  }

  private runCreate(keepalive: boolean): Promise<void> {
    const sending = this.options.create?.(keepalive);
    if (!sending) return Promise.resolve();
    this.unsavedSince = 0;
    if (this.current.kind === 'failed') this.setStatus({ kind: 'saving' });
    return this.track(
      sending.then(
        (result) => this.createAcknowledged(result),
        (error: unknown) => this.failed(error),
      ),
    );
  }

  private track(attempt: Promise<void>): Promise<void> {
    this.inFlight = attempt.finally(() => {
      this.inFlight = null;
      this.stopWhenSettled();
      this.schedule();
    });
    return this.inFlight;
  }

  private createAcknowledged(result: SaveResult): void {
    this.created = true;
    // Nothing else can have saved a version yet: only this device knew the id until now, so the
    // drafts written meanwhile already name the version a create makes.
    this.baseVersion = result.version;
    this.failures = 0;
    this.retryAt = 0;
    if (this.saved) this.options.onSaved?.(this.saved, result);
    if (this.change > this.acked) {
      // Edits made before or while the create went out are saved next.
      this.unsavedSince ||= Date.now();
      this.setStatus({ kind: 'saving' });
    } else {
      this.setStatus({ kind: 'saved' });
    }
  }

  private succeeded(change: number, snapshot: Snapshot<D>, result: SaveResult): void {
    this.baseVersion = result.version;
    this.saved = snapshot;
    this.failures = 0;
    this.retryAt = 0;
    this.options.onSaved?.(snapshot, result);
    this.acknowledge(change);
  }

  private acknowledge(change: number): void {
    this.acked = Math.max(this.acked, change);
    if (this.change > this.acked) {
      // Newer edits wait for the next save; their draft must name the new base version, or
      // reopening after a crash would take our own save for someone else's.
      this.setStatus({ kind: 'saving' });
      this.drafted = Math.min(this.drafted, this.acked);
      this.undraftedSince ||= Date.now();
      if (!this.draftWrite) void this.writeDraft();
      return;
    }
    this.setStatus({ kind: 'saved' });
    const { drafts, documentId } = this.options;
    void Promise.resolve(this.draftWrite)
      .then(() => drafts.deleteUpTo(documentId, change))
      .catch(() => {
        // Left behind, it matches the server's copy and is dropped when next opened.
      });
  }

  private failed(error: unknown): void {
    const failure = classifySaveFailure(error, this.failures + 1, this.timing);
    switch (failure.kind) {
      case 'conflict':
        this.conflict = true;
        this.setStatus({ kind: 'conflict' });
        if (!this.detached) this.options.onConflict(failure.current);
        return;
      case 'held':
        this.held = true;
        this.setStatus({ kind: 'failed', message: failure.message });
        return;
      case 'retry': {
        const now = Date.now();
        if (failure.offline && !this.created && this.change === this.acked) {
          // The document exists only in this page: keep it on the device, as an edit would be.
          this.change += 1;
          this.lastEdit = now;
          this.undraftedSince ||= now;
        }
        this.failures += 1;
        this.retryAt = now + failure.wait;
        this.unsavedSince ||= now;
        this.setStatus(failure.offline ? this.offlineStatus() : { kind: 'retrying' });
      }
    }
  }

  private offlineStatus(): SaveStatus {
    return { kind: 'offline', kept: !this.draftsFailing && this.isDrafted };
  }

  private setStatus(status: SaveStatus): void {
    if (sameStatus(status, this.current)) return;
    this.current = status;
    if (!this.detached) this.options.onStatus(status);
  }
}
