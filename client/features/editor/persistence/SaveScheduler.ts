/** Where the document stands with respect to the device copy. */
export type SaveState = 'saved' | 'pending' | 'saving' | 'error';

/** Options of {@link SaveScheduler}. */
export interface SaveSchedulerOptions {
  /** Writes the current document; rejects when it could not. */
  save: () => Promise<void>;
  /** Receives each change of state (not each edit). */
  onState: (state: SaveState) => void;
  /** Quiet time after the last edit before saving, in ms. */
  delay?: number;
  /** Longest an edit waits while typing goes on, in ms (DESIGN §8: never more than 5 s). */
  maxWait?: number;
  /** Wait before retrying a failed save, in ms; doubles up to a minute. */
  retryDelay?: number;
}

const MAX_RETRY_MS = 60_000;

/**
 * Decides when to save: after a pause in typing, at the latest `maxWait` after the first unsaved
 * edit, and at once on `flush`. An edit costs one clock read; no timer is reset per keystroke.
 */
export class SaveScheduler {
  private readonly save: () => Promise<void>;
  private readonly onState: (state: SaveState) => void;
  private readonly delay: number;
  private readonly maxWait: number;
  private readonly retryDelay: number;
  private state: SaveState = 'saved';
  private dirtySince = 0;
  private lastEdit = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | undefined;
  private failures = 0;
  private disposed = false;

  constructor(options: SaveSchedulerOptions) {
    this.save = options.save;
    this.onState = options.onState;
    this.delay = options.delay ?? 1000;
    this.maxWait = options.maxWait ?? 5000;
    this.retryDelay = options.retryDelay ?? 2000;
  }

  /** Whether some edit has not reached the device copy yet. */
  get hasUnsavedChanges(): boolean {
    return this.dirtySince !== 0 || this.inFlight !== undefined;
  }

  /** Records an edit. */
  markDirty(): void {
    const now = Date.now();
    this.lastEdit = now;
    if (this.dirtySince === 0) {
      this.dirtySince = now;
      if (this.state === 'saved') this.setState('pending');
    }
    if (this.timer === undefined && this.inFlight === undefined) this.arm(this.delay);
  }

  /** Saves now if anything is unsaved; resolves when the device copy is current. */
  async flush(): Promise<void> {
    this.clearTimer();
    if (this.inFlight) await this.inFlight;
    if (this.dirtySince !== 0) await this.run();
  }

  /** Stops all timers; later edits are ignored. */
  dispose(): void {
    this.disposed = true;
    this.clearTimer();
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.tick(), ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    if (this.disposed || this.dirtySince === 0) return;
    const now = Date.now();
    const quiet = now - this.lastEdit;
    const waited = now - this.dirtySince;
    if (quiet < this.delay && waited < this.maxWait) {
      this.arm(Math.min(this.delay - quiet, this.maxWait - waited));
      return;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.disposed) return;
    this.dirtySince = 0;
    this.setState('saving');
    this.inFlight = this.save();
    try {
      await this.inFlight;
      this.failures = 0;
      this.setState(this.dirtySince === 0 ? 'saved' : 'pending');
    } catch {
      this.failures += 1;
      this.dirtySince ||= Date.now();
      this.setState('error');
    } finally {
      this.inFlight = undefined;
    }
    if (this.dirtySince !== 0 && this.timer === undefined && !this.disposed) {
      const backoff = this.retryDelay * 2 ** Math.max(0, this.failures - 1);
      this.arm(this.failures > 0 ? Math.min(backoff, MAX_RETRY_MS) : this.delay);
    }
  }

  private setState(state: SaveState): void {
    if (state === this.state) return;
    this.state = state;
    this.onState(state);
  }
}
