import type { ActiveSession } from './sessions.ts';

/** How long a session found in the database is taken on trust without asking again. */
const TRUST_MS = 2_000;
/** Sessions remembered at most; the oldest is forgotten first. */
const MAX_ENTRIES = 10_000;

/**
 * Sessions found in the last {@link TRUST_MS}, for the embedded database only. docs/PRODUCT.md
 * "Running and scaling" keeps sessions in the database so that several instances share them; PGlite
 * can only ever be opened by this one process, which also ends every session it forgets (sign-out),
 * so a session it remembers can only be out of date by expiring in the last two seconds. Each
 * lookup runs on the server's only thread there, where it cost an autosave about a tenth of its
 * throughput.
 */
export class SessionCache {
  readonly #entries = new Map<string, { session: ActiveSession; until: number }>();

  /** `now` is the clock (tests move it). */
  constructor(private readonly now: () => number = Date.now) {}

  /** The session behind `idHash` if it was found in the database a moment ago. */
  get(idHash: string): ActiveSession | null {
    const entry = this.#entries.get(idHash);
    if (!entry) return null;
    if (entry.until > this.now()) return entry.session;
    this.#entries.delete(idHash);
    return null;
  }

  /** Remembers a session just found in the database. */
  set(session: ActiveSession): void {
    this.#entries.delete(session.idHash);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    // A remembered session was not renewed by the lookup that finds it here.
    const remembered = { ...session, renewed: false };
    this.#entries.set(session.idHash, { session: remembered, until: this.now() + TRUST_MS });
  }

  /** Forgets a session that has just ended. */
  forget(idHash: string): void {
    this.#entries.delete(idHash);
  }
}
