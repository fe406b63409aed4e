import type { DocumentSummary } from '../../../common/api/documents.ts';

/** The sidebar's list of live documents. */
export interface DocumentListState {
  /** Most recently changed first. */
  documents: readonly DocumentSummary[];
  /** `loading` until the first answer; `error` when the last refresh failed. */
  status: 'loading' | 'ready' | 'error';
}

/** What a save changes in a row. */
export type RowChanges = Partial<
  Pick<DocumentSummary, 'title' | 'excerpt' | 'updatedAt' | 'version'>
>;

/**
 * The documents of the sidebar, shared by every screen: fetched on start, on focus and after
 * creating or deleting, and updated in place after saves. A save that changes nothing shown
 * (the open document is already first, same title and excerpt) updates the row without telling
 * subscribers: a React commit while the editor has focus walks the whole document.
 */
export class DocumentList {
  private state: DocumentListState = { documents: [], status: 'loading' };
  private readonly listeners = new Set<() => void>();
  private readonly load: () => Promise<DocumentSummary[]>;
  private refreshing: Promise<void> | null = null;
  // What changed here while a refresh was out, so that its older answer does not undo it.
  private readonly addedMeanwhile = new Set<string>();
  private readonly removedMeanwhile = new Set<string>();
  // Documents shown before the server has them (an import being created): kept through refreshes.
  private readonly pending = new Set<string>();

  constructor(load: () => Promise<DocumentSummary[]>) {
    this.load = load;
  }

  /** The current state (the same object until something changes). */
  getState = (): DocumentListState => this.state;

  /** Calls `listener` after each visible change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Fetches the list again; concurrent calls share one request. */
  refresh(): Promise<void> {
    this.refreshing ??= this.fetch().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * Adds a document at the top (it was just created or restored). A `pending` one is not on the
   * server yet: refreshes keep it until {@link confirm} or {@link remove}.
   */
  add(summary: DocumentSummary, { pending = false }: { pending?: boolean } = {}): void {
    if (pending) this.pending.add(summary.id);
    this.addedMeanwhile.add(summary.id);
    this.removedMeanwhile.delete(summary.id);
    const rest = this.state.documents.filter((row) => row.id !== summary.id);
    this.set({ ...this.state, documents: [summary, ...rest] });
  }

  /** The server has the pending document `id`: refreshes show it as they find it. */
  confirm(id: string): void {
    this.pending.delete(id);
  }

  /** Applies a save to a row; a newer `updatedAt` moves it to the top. */
  update(id: string, changes: RowChanges): void {
    const documents = this.state.documents;
    const index = documents.findIndex((row) => row.id === id);
    const row = documents[index];
    if (!row) return;
    const next = { ...row, ...changes };
    const moves = index > 0 && next.updatedAt > (documents[0]?.updatedAt ?? '');
    const visible = moves || next.title !== row.title || next.excerpt !== row.excerpt;
    const rest = documents.filter((other) => other.id !== id);
    const reordered = moves
      ? [next, ...rest]
      : documents.map((other) => (other === row ? next : other));
    const state = { ...this.state, documents: reordered };
    if (visible) this.set(state);
    else this.state = state;
  }

  /** Takes a document off the list (it went to the trash). */
  remove(id: string): void {
    this.pending.delete(id);
    this.removedMeanwhile.add(id);
    this.addedMeanwhile.delete(id);
    if (!this.state.documents.some((row) => row.id === id)) return;
    const documents = this.state.documents.filter((row) => row.id !== id);
    this.set({ ...this.state, documents });
  }

  private async fetch(): Promise<void> {
    this.addedMeanwhile.clear();
    this.removedMeanwhile.clear();
    let answer: DocumentSummary[];
    try {
      answer = await this.load();
    } catch {
      // A list already shown stays; only a first load that failed is an error.
      if (this.state.status !== 'ready') this.set({ ...this.state, status: 'error' });
      return;
    }
    this.set({ documents: this.merge(answer), status: 'ready' });
  }

  /** The server's answer with what happened here meanwhile: newer saves, creations, deletions. */
  private merge(answer: DocumentSummary[]): DocumentSummary[] {
    const local = new Map(this.state.documents.map((row) => [row.id, row]));
    const rows = answer
      .filter((row) => !this.removedMeanwhile.has(row.id))
      .map((row) => {
        const mine = local.get(row.id);
        return mine && mine.version > row.version ? mine : row;
      });
    const known = new Set(rows.map((row) => row.id));
    for (const id of new Set([...this.addedMeanwhile, ...this.pending])) {
      const row = local.get(id);
      if (row && !known.has(id)) rows.push(row);
    }
    return rows.sort((a, b) =>
      a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0,
    );
  }

  private set(state: DocumentListState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
