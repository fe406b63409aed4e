import { LRUCache } from 'lru-cache';
import type { ActiveSession } from './sessions.ts';

/** How long a session found in the database is taken on trust without asking again. */
const TRUST_MS = 2_000;
/** Sessions remembered at most; the least recently used is forgotten first. */
const MAX_ENTRIES = 10_000;

/**
 * Sessions found in the last {@link TRUST_MS}, for the embedded database only. docs/PRODUCT.md
 * "Running and scaling" keeps sessions in the database so that several instances share them; PGlite
 * can only ever be opened by this one process, which also ends every session it forgets (sign-out),
 * so a session it remembers can only be out of date by expiring in the last two seconds. Each
 * lookup runs on the server's only thread there, where it cost a stream of `PATCH` saves about a
 * tenth of their throughput.
 */
export class SessionCache {
  readonly #entries: LRUCache<string, ActiveSession>;

  /** `now` is the clock (tests move it). */
  constructor(now: () => number = Date.now) {
    // ttlResolution 0: every lookup reads the clock, so a session is never trusted past its time.
    this.#entries = new LRUCache({
      max: MAX_ENTRIES,
      ttl: TRUST_MS,
      ttlResolution: 0,
      perf: { now },
    });
  }

  /** The session behind `idHash` if it was found in the database a moment ago. */
  get(idHash: string): ActiveSession | null {
    return this.#entries.get(idHash) ?? null;
  }

  /** Remembers a session just found in the database. */
  set(session: ActiveSession): void {
    // A remembered session was not renewed by the lookup that finds it here.
    this.#entries.set(session.idHash, { ...session, renewed: false });
  }

  /** Forgets a session that has just ended. */
  forget(idHash: string): void {
    this.#entries.delete(idHash);
  }
}
