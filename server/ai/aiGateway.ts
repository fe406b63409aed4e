import { hostname } from 'node:os';
import type { AiUsage } from '../../common/api/ai.ts';
import { activeSession, sessionKey, type ActiveSession } from '../auth/sessions.ts';
import type { AiConfig } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { AiNotConfiguredError, PayloadTooLargeError, RateLimitedError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { ChatCompletionsClient, type ChatStream } from './chatCompletions.ts';
import { buildMessages, type GenerateRequest } from './prompts.ts';
import { admitSessionRequest, recordUsage, releaseStream } from './usageLimits.ts';

/** How long past the total timeout a stream's claim counts as held, for clocks and slow cleanup. */
const STALE_MARGIN_SECONDS = 60;
/** Retry-After for a request refused because the user's previous answer is still streaming. */
const BUSY_RETRY_SECONDS = 2;

/** One admitted request: its stream claim, to be ended exactly once. */
export interface AiLease {
  /**
   * Records the request's usage (none when it never reached the provider: null) and frees the
   * user's stream; logs rather than throws.
   */
  end(usage: AiUsage | null): Promise<void>;
}

/**
 * The AI assistant's server side without HTTP: input caps, the per-user limits kept in the
 * database (requests per minute, one stream at a time, tokens per day) and the provider.
 */
export class AiGateway {
  readonly #client: ChatCompletionsClient | undefined;
  /** Names this process in `ai_streams`, for whoever inspects a stuck claim. */
  readonly #instance = `${hostname()}/${process.pid}`;

  constructor(
    private readonly config: AiConfig,
    private readonly db: Queryable,
    private readonly logger: Logger,
  ) {
    this.#client = config.provider ? new ChatCompletionsClient(config.provider, logger) : undefined;
  }

  /** Whether a provider is configured. */
  get enabled(): boolean {
    return this.#client !== undefined;
  }

  /** The configured model, or null when AI is off. */
  get model(): string | null {
    return this.config.provider?.model ?? null;
  }

  /** 503 `ai_not_configured` unless a provider is configured. */
  requireEnabled(): void {
    if (!this.#client) {
      throw AiNotConfiguredError(
        'The AI assistant is not set up on this server. An administrator can turn it on with AI_BASE_URL and AI_MODEL.',
      );
    }
  }

  /** 413 `payload_too_large` when the text or the context is over the input cap. */
  checkInput(request: GenerateRequest): void {
    const cap = this.config.maxInputChars;
    const chars = cap.toLocaleString('en-US');
    if (request.text.length > cap) {
      throw PayloadTooLargeError(`The text is longer than ${chars} characters; select less.`);
    }
    if ((request.context?.length ?? 0) > cap) {
      throw PayloadTooLargeError(`The surrounding text is longer than ${chars} characters.`);
    }
  }

  /**
   * The session behind the cookie value `token` and one request of its user admitted, in one
   * round trip; null when there is no live session, and then nothing is counted. Throws 429
   * `rate_limited` when the daily budget is spent, the minute's requests are used up, or another
   * answer of theirs is still streaming.
   */
  async admit(
    token: string,
    sessionDays: number,
  ): Promise<{ session: ActiveSession; lease: AiLease } | null> {
    const { db, config } = this;
    const idHash = sessionKey(token);
    if (!idHash) return null;
    const found = await admitSessionRequest(db, idHash, {
      dailyTokenBudget: config.dailyTokenBudget,
      requestsPerMinute: config.requestsPerMinute,
      instance: this.#instance,
      staleAfterSeconds: Math.ceil(config.totalTimeoutMs / 1000) + STALE_MARGIN_SECONDS,
    });
    if (!found) return null;
    const session = await activeSession(db, idHash, found.session, sessionDays);
    const { admission } = found;
    if (!admission.admitted) {
      switch (admission.reason) {
        case 'budget':
          throw RateLimitedError(
            admission.waitSeconds,
            `You have used today's AI allowance of ${config.dailyTokenBudget.toLocaleString('en-US')} tokens. It renews at midnight UTC.`,
          );
        case 'rate':
          throw RateLimitedError(
            admission.waitSeconds,
            `Too many AI requests. Try again in ${admission.waitSeconds} s.`,
          );
        case 'busy':
          throw RateLimitedError(BUSY_RETRY_SECONDS, 'Another AI request is still running.');
      }
    }
    return { session, lease: this.#lease(session.user.id, admission.streamId) };
  }

  /** The stream claim `streamId` of `userId`, ended at most once. */
  #lease(userId: string, streamId: string): AiLease {
    const { db } = this;
    let ended = false;
    return {
      end: async (usage) => {
        if (ended) return;
        ended = true;
        try {
          if (usage) await recordUsage(db, userId, usage);
        } catch (error) {
          this.logger.error('Recording AI usage failed.', error, { userId });
        }
        try {
          await releaseStream(db, userId, streamId);
        } catch (error) {
          // The claim goes stale after the total timeout and frees itself then.
          this.logger.error('Freeing an AI stream failed.', error, { userId });
        }
      },
    };
  }

  /**
   * Sends `request` to the provider and waits for its answer to start. `signal` aborts it (the
   * client left). Throws an `AppError` when the provider refuses or cannot be reached.
   */
  async open(request: GenerateRequest, signal: AbortSignal): Promise<ChatStream> {
    this.requireEnabled();
    const { config } = this;
    return this.#client!.open({
      messages: buildMessages(request),
      maxOutputTokens: config.maxOutputTokens,
      timeouts: {
        firstByteMs: config.firstByteTimeoutMs,
        idleMs: config.idleTimeoutMs,
        totalMs: config.totalTimeoutMs,
      },
      signal,
    });
  }
}
