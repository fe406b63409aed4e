import { randomUUID } from 'node:crypto';
import { Redis as IORedis } from 'ioredis';
import type { Logger } from '../logger.ts';

/**
 * Something that may take a live socket's right away, told to every instance. It only says where
 * to look: the receiver checks the database before closing anything, so a forged or stale
 * message can close nothing that should stay open.
 */
export type Invalidation =
  /** A session ended (signed out): its hash. */
  | { kind: 'session'; sessionHash: string }
  /** Who may open a document may have changed (trashed, deleted forever, later a share). */
  | { kind: 'document'; documentId: string };

/** The Redis channel every instance publishes to and listens on. */
export const INVALIDATION_CHANNEL = 'inkwell:invalidate';
/** A message longer than this is nobody's (a real one is under 200 characters). */
const MAX_MESSAGE_CHARS = 1_000;
const HASH = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The invalidation in `text`, or a reason it is none (not JSON, too long, unknown kind…). */
export function parseInvalidation(
  text: string,
): { from: string; invalidation: Invalidation } | { problem: string } {
  if (text.length > MAX_MESSAGE_CHARS) return { problem: 'too long' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'not an object' };
  }
  const { from, kind, sessionHash, documentId } = value as Record<string, unknown>;
  if (typeof from !== 'string') return { problem: 'no sender' };
  if (kind === 'session' && typeof sessionHash === 'string' && HASH.test(sessionHash)) {
    return { from, invalidation: { kind, sessionHash } };
  }
  if (kind === 'document' && typeof documentId === 'string' && UUID.test(documentId)) {
    return { from, invalidation: { kind, documentId } };
  }
  return { problem: 'unknown kind or bad fields' };
}

/**
 * The invalidation channel on the Redis of `REDIS_URL`: one connection publishes, one listens.
 * Its own messages are skipped (the sender acted on them already). Redis delivers a message
 * at most once and not to an instance that is disconnected then; the engine's periodic check
 * catches what is missed.
 */
export class InvalidationBus {
  private readonly id = randomUUID();
  private readonly pub: IORedis;
  private readonly sub: IORedis;

  constructor(
    url: string,
    private readonly logger: Logger,
    onInvalidation: (invalidation: Invalidation) => void,
  ) {
    this.pub = new IORedis(url);
    this.sub = this.pub.duplicate();
    for (const client of [this.pub, this.sub]) {
      client.on('error', (error: unknown) =>
        logger.warn('The Redis invalidation channel failed.', { err: error }),
      );
    }
    this.sub
      .subscribe(INVALIDATION_CHANNEL)
      .catch((error: unknown) =>
        logger.warn('Subscribing to the invalidation channel failed.', { err: error }),
      );
    this.sub.on('message', (channel: string, text: string) => {
      if (channel !== INVALIDATION_CHANNEL) return;
      const parsed = parseInvalidation(text);
      if ('problem' in parsed) {
        // Never the text itself: it may be huge or hostile.
        logger.warn('Ignored a message on the invalidation channel.', {
          problem: parsed.problem,
          chars: text.length,
        });
        return;
      }
      if (parsed.from === this.id) return;
      onInvalidation(parsed.invalidation);
    });
  }

  /** Resolves once the subscription is in place (tests; messages before it are missed). */
  async ready(): Promise<void> {
    await this.sub.subscribe(INVALIDATION_CHANNEL);
  }

  /** Tells the other instances; a failure is logged (their periodic check remains). */
  publish(invalidation: Invalidation): void {
    this.pub
      .publish(INVALIDATION_CHANNEL, JSON.stringify({ from: this.id, ...invalidation }))
      .catch((error: unknown) =>
        this.logger.warn('Publishing an invalidation failed.', { err: error }),
      );
  }

  close(): void {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
