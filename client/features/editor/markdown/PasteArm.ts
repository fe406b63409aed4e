/**
 * Remembers for a while that the writer asked to paste as Markdown, so that the paste event
 * that follows (or a clipboard read) is taken as Markdown exactly once.
 */
export class PasteArm {
  private until = 0;
  private token = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Arms for `ms` milliseconds and returns a token naming this request. */
  arm(ms: number): number {
    this.until = this.now() + ms;
    this.token += 1;
    return this.token;
  }

  /** Whether still armed, and (given a token) still for that same request. */
  isArmed(token?: number): boolean {
    return this.now() <= this.until && (token === undefined || token === this.token);
  }

  /** Disarms and reports whether it was armed: the caller then owns this paste. */
  take(token?: number): boolean {
    const armed = this.isArmed(token);
    if (armed) this.until = 0;
    return armed;
  }
}
