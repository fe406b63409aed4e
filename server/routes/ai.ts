import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import {
  AI_INSTRUCTION_MAX_CHARS,
  AI_LANGUAGE_MAX_CHARS,
  aiGenerateRequestSchema,
  type AiDoneEvent,
  type AiErrorEvent,
} from '../../common/api/ai.ts';
import { AiGateway } from '../ai/aiGateway.ts';
import type { ChatStream } from '../ai/chatCompletions.ts';
import { ClientGoneError } from '../ai/upstreamErrors.ts';
import { toAppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { limitBody, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';

/** Room for the command, tone and JSON punctuation around the texts of a request. */
const ENVELOPE_BYTES = 16 * 1024;
/** The most bytes one character of a string takes in JSON: a `\u001f`-style escape. */
const JSON_BYTES_PER_CHAR = 6;

/** Largest body of `POST /api/ai/generate`: text and context at the cap, even fully escaped. */
export function aiBodyLimit(maxInputChars: number): number {
  const chars = 2 * maxInputChars + AI_INSTRUCTION_MAX_CHARS + AI_LANGUAGE_MAX_CHARS;
  return chars * JSON_BYTES_PER_CHAR + ENVELOPE_BYTES;
}

/**
 * `POST /api/ai/generate` (DESIGN §6): the answer as Server-Sent Events `delta`, then `done` or
 * `error`. What can be refused before the provider answers (AI off, a bad or oversized body, a
 * limit, the provider refusing) is a plain JSON error. Mounted behind `requireSession` and CSRF.
 */
export function aiRoutes(services: Services): Hono<AppEnv> {
  const { logger } = services;
  const gateway = new AiGateway(services.config.ai, services.db, logger);
  const bodyLimit = limitBody(aiBodyLimit(services.config.ai.maxInputChars), 'The AI request');
  const app = new Hono<AppEnv>();

  app.post(
    '/api/ai/generate',
    async (_c, next) => {
      // Before the body is read: with AI off, nothing the client sends matters.
      gateway.requireEnabled();
      await next();
    },
    bodyLimit,
    async (c) => {
      const request = await readJson(c, aiGenerateRequestSchema);
      gateway.checkInput(request);
      const userId = c.get('session').user.id;
      const clientGone = new AbortController();
      const onClientGone = () => clientGone.abort();
      // Fires when the connection drops while the provider has not answered yet.
      c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });

      const lease = await gateway.admit(userId);
      let upstream: ChatStream;
      try {
        upstream = await gateway.open(request, clientGone.signal);
      } catch (error) {
        await lease.end({ inputTokens: 0, outputTokens: 0, estimated: false });
        if (!(error instanceof ClientGoneError)) throw error;
        logger.debug('AI request closed by the client before the answer started.', { userId });
        return c.body(null, 204);
      }
      c.header('X-Accel-Buffering', 'no');
      return streamSSE(c, async (stream) => {
        // Fires when the connection drops while the answer streams.
        stream.onAbort(onClientGone);
        try {
          await relay(stream, upstream, clientGone.signal, logger);
        } finally {
          c.req.raw.signal.removeEventListener('abort', onClientGone);
          await lease.end(upstream.usage());
        }
      });
    },
  );

  return app;
}

/** Passes the answer on as `delta` events, then `done`, or `error` when it fails midway. */
async function relay(
  stream: SSEStreamingApi,
  upstream: ChatStream,
  clientGone: AbortSignal,
  logger: Logger,
): Promise<void> {
  try {
    for await (const text of upstream.deltas()) {
      await stream.writeSSE({ event: 'delta', data: JSON.stringify({ text }) });
    }
    const done: AiDoneEvent = { usage: upstream.usage(), finishReason: upstream.finishReason() };
    await stream.writeSSE({ event: 'done', data: JSON.stringify(done) });
  } catch (thrown) {
    if (thrown instanceof ClientGoneError || clientGone.aborted) {
      logger.debug('AI stream closed by the client.');
      return;
    }
    const error = toAppError(thrown);
    if (error.code === 'internal') logger.error('AI stream failed.', thrown);
    else logger.warn('AI stream ended with an error.', { code: error.code, reason: error.message });
    const retryAfter = Number(error.headers['Retry-After']);
    const event: AiErrorEvent = {
      code: error.code,
      message: error.message,
      ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
    await stream.writeSSE({ event: 'error', data: JSON.stringify(event) });
  } finally {
    upstream.close();
  }
}
