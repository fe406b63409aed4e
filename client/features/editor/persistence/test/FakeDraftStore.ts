import { isSupersededBy, type Draft, type DraftStore } from '../draftStore.ts';

/**
 * A test double of the IndexedDB draft store: a Map with the same rules, a log of writes, and a
 * switch that makes every call fail as a full or blocked storage would.
 */
export class FakeDraftStore implements DraftStore {
  /** The stored records by document id. */
  readonly records = new Map<string, unknown>();
  /** Records moved aside. */
  readonly keptAside: { documentId: string; record: unknown }[] = [];
  /** Every draft put, in order. */
  readonly puts: Draft[] = [];
  /** When true, every call rejects. */
  failing = false;

  private check(): void {
    if (this.failing) throw new Error('FakeDraftStore: storage unavailable');
  }

  async get(documentId: string): Promise<unknown> {
    this.check();
    return this.records.get(documentId);
  }

  async put(draft: Draft): Promise<void> {
    this.check();
    this.puts.push(draft);
    this.records.set(draft.documentId, draft);
  }

  async deleteUpTo(documentId: string, change: number): Promise<void> {
    this.check();
    if (isSupersededBy(this.records.get(documentId), change)) this.records.delete(documentId);
  }

  async keepAside(documentId: string, record: unknown): Promise<void> {
    this.check();
    this.keptAside.push({ documentId, record });
    this.records.delete(documentId);
  }

  /** The stored draft of a document, as a test reads it. */
  draft(documentId: string): Draft | undefined {
    return this.records.get(documentId) as Draft | undefined;
  }
}
