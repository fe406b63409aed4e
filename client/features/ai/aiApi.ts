import {
  aiStreamEventSchema,
  type AiGenerateRequest,
  type AiStreamEvent,
} from '../../../common/api/ai.ts';
import { api, ApiError, NetworkError, type ApiClient } from '../../lib/api.ts';
import { readSseEvents } from '../../../common/sse/sseParser.ts';

/** How to turn the assistant on, shown wherever it is off. */
export const AI_SETUP_HINT =
  'Set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the provider needs one) on the server to turn it on — see the README.';

/** A failure of the assistant, with the sentence to show in the suggestion box. */
export class AiFailure extends Error {
  override name = 'AiFailure';
}

/** The sentence for a failed AI request: specific about the cause, fit to show to people. */
export function describeAiError(
  code: string,
  message: string,
  retryAfterSeconds: number | undefined,
): string {
  switch (code) {
    case 'ai_not_configured':
      return `AI isn't set up on this server. ${AI_SETUP_HINT}`;
    case 'rate_limited':
      return retryAfterSeconds
        ? `Too many AI requests — try again in ${retryAfterSeconds} s.`
        : `Too many AI requests — ${message}`;
    case 'ai_upstream_error':
      return `The AI provider failed: ${message}`;
    default:
      return message;
  }
}

function failureFrom(error: unknown): AiFailure {
  if (error instanceof ApiError) {
    return new AiFailure(describeAiError(error.code, error.message, error.retryAfter));
  }
  if (error instanceof NetworkError) {
    return new AiFailure('The server could not be reached. Check your connection and retry.');
  }
  return new AiFailure('The AI answer broke off. Please retry.', { cause: error });
}

/**
 * Starts `POST /api/ai/generate` and yields its events (delta, then done or error). Failures
 * before the stream (503, 429, 413…) and broken connections throw {@link AiFailure}; an abort
 * of `signal` throws the fetch's AbortError.
 */
export async function* generate(
  request: AiGenerateRequest,
  signal: AbortSignal,
  client: ApiClient = api,
): AsyncGenerator<AiStreamEvent> {
  let response: Response;
  try {
    response = await client.stream('/api/ai/generate', request, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw failureFrom(error);
  }
  if (!response.body) throw new AiFailure('The server sent no answer. Please retry.');
  try {
    for await (const raw of readSseEvents(response.body)) {
      let data: unknown;
      try {
        data = JSON.parse(raw.data);
      } catch {
        continue;
      }
      const parsed = aiStreamEventSchema.safeParse({ event: raw.event, data });
      // Unknown events are skipped: a newer server may send more kinds.
      if (parsed.success) yield parsed.data;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw failureFrom(error);
  }
}
