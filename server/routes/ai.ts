import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
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
import type { GenerateRequest } from '../ai/prompts.ts';
import { ClientGoneError } from '../ai/upstreamErrors.ts';
import { AuthenticationError, toAppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { bodyReader, readJson } from '../middleware/readJson.ts';
import { renewSessionCookie, requestSession, sessionCookieName } from '../middleware/session.ts';
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
 * `POST /api/ai/generate` (docs/PRODUCT.md "AI assistant"): the answer as Server-Sent Events
 * `delta`, then `done` or `error`. What can be refused before the provider answers (no session, AI
 * off, a limit, a bad or oversized body, the provider refusing) is a plain JSON error. Mounted
 * behind the CSRF check and exempt from `requireSession` (SELF_AUTHENTICATING_API_ROUTES in
 * server/app.ts): it looks its session up together with its admission.
 */
export function aiRoutes(services: Services): Hono<AppEnv> {
  const { logger } = services;
  const gateway = new AiGateway(services.config.ai, services.db, logger);
  const readBody = bodyReader(aiBodyLimit(services.config.ai.maxInputChars), 'The AI request');
  const cookieName = sessionCookieName(services.publicUrl);
  const app = new Hono<AppEnv>();

  app.post('/api/ai/generate', async (c) => {
    const token = getCookie(c, cookieName);
    if (!gateway.enabled) {
      // Who asks still comes first; then, with AI off, nothing they send matters.
      if (!(await requestSession(c, services))) throw AuthenticationError();
      gateway.requireEnabled();
    }
    // The request waits on these before it leaves for the provider: one round trip, not two.
    // A request refused below for its body has been counted against the minute's requests.
    const admitted = token ? await gateway.admit(token, services.config.sessionDays) : null;
    if (!admitted) throw AuthenticationError();
    const { session, lease } = admitted;
    if (session.renewed) renewSessionCookie(c, services);
    c.set('session', session);
    let request: GenerateRequest;
    try {
      await readBody(c);
      request = await readJson(c, aiGenerateRequestSchema);
      gateway.checkInput(request);
    } catch (error) {
      await lease.end(null);
      throw error;
    }

    const userId = session.user.id;
    const clientGone = new AbortController();
    const onClientGone = () => clientGone.abort();
    // Fires when the connection drops while the provider has not answered yet.
    c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });
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
  });

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
