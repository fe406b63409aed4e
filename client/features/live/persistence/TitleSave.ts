import type { SaveResult } from '../../../../common/api/documents.ts';
import { classifySaveFailure } from './saveFailure.ts';
import type { SaveStatus } from './saveStatus.ts';

/** Quiet time after the last change before the title is saved (docs/PRODUCT.md "Keeping work safe"). */
const SAVE_DELAY_MS = 1000;

/** What {@link TitleSave} works with. */
export interface TitleSaveOptions {
  /** The server's version when the page opened the document. */
  baseVersion: number;
  /** The title the server holds. */
  saved: string;
  /** Sends `PATCH` with the title alone on top of `baseVersion`. */
  send: (title: string, baseVersion: number, keepalive: boolean) => Promise<SaveResult> | null;
  onStatus: (status: SaveStatus) => void;
  onSaved?: (title: string, result: SaveResult) => void;
  /** Quiet time after the last change before saving, in ms. */
  delay?: number;
}

/**
 * Saves a shared document's title, which lives in the row, not in the Yjs state: after a pause
 * in typing, with `PATCH` of the title alone. The version moves with every store of live edits,
 * so a 409 is expected and says nothing about the title: it is sent again on top of the version
 * the answer names (the last title written wins, as with any field of a form).
 */
export class TitleSave {
  private readonly options: TitleSaveOptions;
  private baseVersion: number;
  private saved: string;
  private wanted: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | null = null;
  private failures = 0;
  private held = false;
  private disposed = false;

  constructor(options: TitleSaveOptions) {
    this.options = options;
    this.baseVersion = options.baseVersion;
    this.saved = this.wanted = options.saved;
  }

  /** Whether the server lacks the title shown. */
  get hasUnsavedEdits(): boolean {
    return this.wanted !== this.saved;
  }

  /** Records the title now shown. */
  edit(title: string): void {
    if (this.disposed) return;
    this.wanted = title;
    this.held = false;
    this.options.onStatus(this.hasUnsavedEdits ? { kind: 'saving' } : { kind: 'saved' });
    this.schedule(this.options.delay ?? SAVE_DELAY_MS);
  }

  /** Saves now if the title is unsaved; resolves when this attempt is over. */
  async flush(keepalive = false): Promise<void> {
    this.clearTimer();
    if (this.inFlight) await this.inFlight;
    await this.send(keepalive);
  }

  /** Stops all timers. */
  dispose(): void {
    this.disposed = true;
    this.clearTimer();
  }

  private schedule(wait: number): void {
    this.clearTimer();
    if (this.disposed || this.held || !this.hasUnsavedEdits) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send(false);
    }, wait);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(keepalive: boolean): Promise<void> {
    if (this.disposed || this.inFlight || this.held || !this.hasUnsavedEdits) {
      return this.inFlight ?? Promise.resolve();
    }
    const title = this.wanted;
    const sending = this.options.send(title, this.baseVersion, keepalive);
    if (!sending) return Promise.resolve();
    const attempt = sending.then(
      (result) => this.succeeded(title, result),
      (error: unknown) => this.failed(error),
    );
    this.inFlight = attempt.finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private succeeded(title: string, result: SaveResult): void {
    this.baseVersion = result.version;
    this.saved = title;
    this.failures = 0;
    this.options.onSaved?.(title, result);
    if (this.hasUnsavedEdits) this.schedule(0);
    else this.options.onStatus({ kind: 'saved' });
  }

  private failed(error: unknown): void {
    const failure = classifySaveFailure(error, this.failures + 1);
    switch (failure.kind) {
      case 'conflict':
        // Someone stored a version meanwhile (live edits, another tab's title): ours goes on top.
        this.baseVersion = failure.current.version;
        this.schedule(0);
        return;
      case 'held':
        this.held = true;
        this.options.onStatus({ kind: 'failed', message: failure.message });
        return;
      case 'retry':
        this.failures += 1;
        this.options.onStatus(
          failure.offline ? { kind: 'offline', kept: false } : { kind: 'retrying' },
        );
        this.schedule(failure.wait);
    }
  }
}
