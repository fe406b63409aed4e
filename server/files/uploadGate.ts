import type { Queryable } from '../db/database.ts';
import { hit, type RateRule } from '../db/rateLimits.ts';
import { RateLimitedError } from '../errors.ts';

/** What an {@link UploadGate} lets through (`FILE_UPLOADS_*`, `FILE_DECODES_AT_ONCE`). */
export interface UploadGateLimits {
  /** Uploads one person may start per minute, counted in `rate_limits` across instances. */
  uploadsPerMinute: number;
  /** Uploads one person may have under way at once in this process. */
  uploadsAtOnce: number;
  /** Images this process decodes at once, whoever sent them; the others wait their turn. */
  decodesAtOnce: number;
}

/** What a person over `uploadsAtOnce` is told to wait: about one upload's receiving and decoding. */
const BUSY_RETRY_SECONDS = 5;

/** One person's uploads in a minute. */
const uploadsByUser = (userId: string, limit: number): RateRule => ({
  key: `files:user:${userId}`,
  limit,
  windowSeconds: 60,
});

const seconds = (n: number) => (n === 1 ? '1 second' : `${n} seconds`);

/**
 * Keeps decoding within memory. One person may start `uploadsPerMinute` uploads a minute, have
 * `uploadsAtOnce` under way, and the process decodes `decodesAtOnce` images at a time.
 *
 * The two counts at once live in this process, not the database: what they bound is memory, and
 * memory is per process. With several instances a person may have `uploadsAtOnce` under way on
 * each; the rate, counted in the database, still bounds them all together.
 */
export class UploadGate {
  private readonly underWay = new Map<string, number>();
  private decoding = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly db: Queryable,
    private readonly limits: UploadGateLimits,
  ) {}

  /**
   * Admits one upload of `userId` and returns what ends it, or throws 429 `rate_limited` (with
   * `Retry-After`) when they have too many under way or have started too many this minute.
   * Admitted before its body is read, so a refused upload costs no transfer.
   */
  async admit(userId: string): Promise<() => void> {
    const { uploadsAtOnce, uploadsPerMinute } = this.limits;
    const count = this.underWay.get(userId) ?? 0;
    if (count >= uploadsAtOnce) {
      throw RateLimitedError(
        BUSY_RETRY_SECONDS,
        `You have ${uploadsAtOnce === 1 ? 'an upload' : `${uploadsAtOnce} uploads`} under way already. Try again in ${seconds(BUSY_RETRY_SECONDS)}, once one has finished.`,
      );
    }
    // Counted before the first await, so that uploads arriving together cannot all pass.
    this.underWay.set(userId, count + 1);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const left = (this.underWay.get(userId) ?? 1) - 1;
      if (left > 0) this.underWay.set(userId, left);
      else this.underWay.delete(userId);
    };
    try {
      const wait = await hit(this.db, [uploadsByUser(userId, uploadsPerMinute)]);
      if (wait > 0) {
        throw RateLimitedError(
          wait,
          `Too many uploads: at most ${uploadsPerMinute} a minute. Try again in ${seconds(wait)}.`,
        );
      }
    } catch (error) {
      end();
      throw error;
    }
    return end;
  }

  /** Runs `decode` once fewer than `decodesAtOnce` images are being decoded, in the order asked. */
  async decode<T>(decode: () => Promise<T>): Promise<T> {
    if (this.decoding >= this.limits.decodesAtOnce) {
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.decoding += 1;
    }
    try {
      return await decode();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot take it first.
      const next = this.queue.shift();
      if (next) next();
      else this.decoding -= 1;
    }
  }
}
