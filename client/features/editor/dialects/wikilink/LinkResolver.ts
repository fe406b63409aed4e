import type { LinkedDocument } from '../../../../../common/api/links.ts';
import { MAX_RESOLVE_TARGETS } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';

/** Asks the server which documents some targets find. */
export type ResolveTargets = (targets: string[]) => Promise<Array<LinkedDocument | null>>;

/**
 * Which of the writer's documents each wikilink of an open document finds: asked of the server
 * in batches, a moment after the node views ask, and remembered for the editor's life.
 */
export class LinkResolver {
  private readonly known = new Map<string, LinkedDocument | null>();
  private readonly wanted = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private inFlight = false;

  constructor(private readonly resolveTargets: ResolveTargets) {}

  /** The document `target` finds, null for none, undefined while the server has not said. */
  lookup(target: string): LinkedDocument | null | undefined {
    if (this.known.has(target)) return this.known.get(target);
    this.wanted.add(target);
    this.schedule();
    return undefined;
  }

  /** Calls `listener` whenever answers arrive; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks again about every target known (a document was created or renamed meanwhile). */
  refresh(): void {
    for (const target of this.known.keys()) this.wanted.add(target);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    // One request for all the node views a transaction draws.
    setTimeout(() => void this.flush(), 0);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const targets = [...this.wanted].slice(0, MAX_RESOLVE_TARGETS);
    if (targets.length === 0) return;
    for (const target of targets) this.wanted.delete(target);
    this.inFlight = true;
    try {
      const documents = await this.resolveTargets(targets);
      targets.forEach((target, i) => this.known.set(target, documents[i] ?? null));
      for (const listener of this.listeners) listener();
    } catch {
      // Offline or signed out: the links stay neutral; a click asks again.
    } finally {
      this.inFlight = false;
      if (this.wanted.size > 0) this.schedule();
    }
  }
}
