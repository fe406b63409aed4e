import type { YjsStore } from './yjsStore.ts';

/** Most updates written by one statement; a burst beyond this waits for the next one. */
const MAX_BATCH = 500;

interface Waiting {
  documentId: string;
  update: Uint8Array;
  resolve(id: string): void;
  reject(error: unknown): void;
}

/**
 * Appends accepted updates to `document_yjs_updates` with group commit: an update that arrives
 * while a write is under way waits for it to end, and all those that waited go in together, in
 * one statement and one commit, as do those that arrived in the same turn of the event loop. Each
 * append still resolves only once its own update is committed (the editor is told "Saved" after).
 *
 * Why: a commit on PGlite costs about a millisecond of the server's only thread, so 200 writers at
 * 5 keys a second (bench/collabLoad.ts) kept it busy with commits alone and "Saved" queued behind
 * them; ten updates in one statement cost about what one did.
 */
export class UpdateLog {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly store: YjsStore) {}

  /** Appends `update` to document `documentId`'s log; resolves with its row id once committed. */
  append(documentId: string, update: Uint8Array): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ documentId, update, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // Not at once: the messages the server read in this turn of the event loop are each handled
      // to this point in microtasks, and PGlite answers in microtasks too, so an immediate write
      // would always go alone. After them (setImmediate runs once the I/O callbacks are done),
      // they all go in one.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        await this.write(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * Writes `batch` in one statement. Should it fail (a document deleted for good meanwhile, whose
   * rows the foreign key refuses), each update is written alone, so that only the updates that
   * cannot be stored are refused, not those of every document that shared the statement.
   */
  private async write(batch: Waiting[]): Promise<void> {
    let ids: string[];
    try {
      ids = await this.store.appendAll(batch);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const one of batch) {
        try {
          one.resolve((await this.store.appendAll([one]))[0]!);
        } catch (alone) {
          one.reject(alone);
        }
      }
      return;
    }
    batch.forEach((one, i) => one.resolve(ids[i]!));
  }
}
