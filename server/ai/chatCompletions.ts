import { z } from 'zod';
import { AI_FINISH_REASONS, type AiUsage } from '../../common/api/ai.ts';
import type { AiProviderConfig } from '../config.ts';
import { AiUpstreamError, AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { promptChars, type ChatMessage } from './prompts.ts';
import { SseParser } from '../../common/sse/sseParser.ts';
import { postJson, readSome, type UpstreamResponse } from './postJson.ts';
import { loggableBody, statusError, stoppedError, type StopReason } from './upstreamErrors.ts';

/** The timeouts of one upstream request, in milliseconds. */
export interface ChatTimeouts {
  /** From sending the request to the first bytes of the answer. */
  firstByteMs: number;
  /** Between two pieces of the answer. */
  idleMs: number;
  /** The whole request. */
  totalMs: number;
}

/** One request to the provider. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** The answer's cap, sent as `max_tokens`. */
  maxOutputTokens: number;
  timeouts: ChatTimeouts;
  /** Aborted when the client goes away; the upstream request is then aborted at once. */
  signal: AbortSignal;
}

/** Why the answer ended (`length`: the output cap cut it). */
export type FinishReason = (typeof AI_FINISH_REASONS)[number];

/** An answer being received. */
export interface ChatStream {
  /**
   * The answer's pieces as they arrive. Throws an `AppError` when the provider fails or times
   * out midway, `ClientGoneError` when the client left. Leaving the loop early closes the request.
   */
  deltas(): AsyncGenerator<string, void, undefined>;
  /** Closes the request and stops its timers; harmless after the answer ended. */
  close(): void;
  /** Why the answer ended; `stop` until the provider says otherwise. */
  finishReason(): FinishReason;
  /** The provider's token counts, or an estimate from what was sent and received so far. */
  usage(): AiUsage;
}

const chunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        delta: z.looseObject({ content: z.string().nullish() }).nullish(),
        // The non-streaming shape, for providers that ignore `stream: true`.
        message: z.looseObject({ content: z.string().nullish() }).nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z
    .looseObject({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() })
    .nullish(),
  error: z.unknown().optional(),
});

/** Largest answer read from a provider that ignored `stream: true`. */
const MAX_WHOLE_ANSWER_CHARS = 4 * 1024 * 1024;

/** A client of one OpenAI-compatible Chat Completions endpoint. */
export class ChatCompletionsClient {
  /** Set once the provider turned `max_tokens` down for `max_completion_tokens` (OpenAI's reasoning models). */
  #completionTokensParam = false;
  /** Where and with which headers every request goes: the same for each, so made once. */
  readonly #url: URL;
  readonly #headers: Readonly<Record<string, string>>;

  constructor(
    private readonly provider: AiProviderConfig,
    private readonly logger: Logger,
  ) {
    this.#url = new URL(chatCompletionsUrl(provider.baseUrl));
    this.#headers = requestHeaders(this.#url, provider.apiKey);
  }

  /**
   * Sends `request` and waits for the answer's status. Throws an `AppError` when the provider
   * refuses or cannot be reached, so that the route can still answer with a plain JSON error.
   */
  async open(request: ChatRequest): Promise<ChatStream> {
    const { timeouts } = request;
    const controller = new AbortController();
    let stopped: StopReason | undefined;
    const stop = (reason: StopReason) => {
      stopped ??= reason;
      controller.abort();
    };
    const total = setTimeout(() => stop('total'), timeouts.totalMs);
    let phase = setTimeout(() => stop('firstByte'), timeouts.firstByteMs);
    const onClientGone = () => stop('client');
    request.signal.addEventListener('abort', onClientGone);
    if (request.signal.aborted) stop('client');
    const finish = () => {
      clearTimeout(total);
      clearTimeout(phase);
      request.signal.removeEventListener('abort', onClientGone);
      controller.abort();
    };
    /** `midAnswer`: the connection failed after the answer started, which is a cut, not a refusal. */
    const failure = (error: unknown, midAnswer: boolean): Error => {
      if (stopped) return stoppedError(stopped, timeouts);
      if (error instanceof AppError) return error;
      const message = midAnswer
        ? "The AI provider's answer broke off."
        : 'The AI provider could not be reached.';
      this.logger.warn(message, { cause: describe(error) });
      return AiUpstreamError(message);
    };

    let response: UpstreamResponse;
    try {
      response = await this.#send(request, controller.signal);
    } catch (error) {
      finish();
      throw failure(error, false);
    }

    const state: AnswerState = { finishReason: 'stop', finished: false, outputChars: 0 };
    const inputChars = promptChars(request.messages);
    const onBytes = () => {
      clearTimeout(phase);
      phase = setTimeout(() => stop('idle'), timeouts.idleMs);
    };
    const take = (data: string) => readChunk(data, state, this.logger, this.provider.apiKey);
    const { body } = response;
    // A provider that ignores `stream: true` answers with one JSON object.
    const whole = !(response.header('Content-Type') ?? '').includes('text/event-stream');

    return {
      close: finish,
      finishReason: () => state.finishReason,
      // Providers that ignore stream_options (or are cut off) report no usage: then about four
      // characters make a token, the rule of thumb OpenAI gives for English text.
      usage: () =>
        state.usage ?? {
          inputTokens: Math.ceil(inputChars / 4),
          outputTokens: Math.ceil(state.outputChars / 4),
          estimated: true,
        },
      async *deltas() {
        const parser = new SseParser();
        const decoder = new TextDecoder();
        let raw = '';
        try {
          for await (const value of body) {
            onBytes();
            if (whole) {
              raw += decoder.decode(value, { stream: true });
              if (raw.length > MAX_WHOLE_ANSWER_CHARS)
                throw AiUpstreamError('The AI answer is too large.');
              continue;
            }
            for (const event of parser.push(value)) {
              const chunk = take(event.data);
              if (chunk.text) yield chunk.text;
              if (chunk.done) return;
            }
          }
          const events = whole ? [{ data: raw + decoder.decode() }] : parser.end();
          for (const event of events) {
            const chunk = take(event.data);
            if (chunk.text) yield chunk.text;
            if (chunk.done) return;
          }
          // Without [DONE], a finish reason still marks a whole answer (some servers skip [DONE]).
          if (!whole && !state.finished)
            throw AiUpstreamError("The AI provider's answer broke off.");
        } catch (error) {
          throw failure(error, true);
        } finally {
          finish();
        }
      },
    };
  }

  async #send(request: ChatRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const post = (capParam: 'max_tokens' | 'max_completion_tokens') =>
      postJson(
        this.#url,
        this.#headers,
        JSON.stringify({
          model: this.provider.model,
          messages: request.messages,
          stream: true,
          stream_options: { include_usage: true },
          [capParam]: request.maxOutputTokens,
        }),
        signal,
      );
    let response = await post(this.#completionTokensParam ? 'max_completion_tokens' : 'max_tokens');
    if (isSuccess(response)) return response;
    let body = await readSome(response, 4096);
    // OpenAI's reasoning models refuse max_tokens and name the parameter they want instead.
    if (
      response.status === 400 &&
      !this.#completionTokensParam &&
      body.includes('max_completion_tokens')
    ) {
      this.#completionTokensParam = true;
      response = await post('max_completion_tokens');
      if (isSuccess(response)) return response;
      body = await readSome(response, 4096);
    }
    this.logger.warn('The AI provider answered with an error.', {
      status: response.status,
      body: loggableBody(body, this.provider.apiKey),
    });
    throw statusError(response.status, response.header('Retry-After'), this.provider.model);
  }
}

/** The headers of a request to `url`: JSON in, a stream (or JSON) out, and the key if there is one. */
function requestHeaders(url: URL, key: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream, application/json',
  };
  if (key) {
    headers.Authorization = `Bearer ${key}`;
    // Azure OpenAI's deployment URLs take the key in their own header; its v1 API takes either.
    if (url.hostname.endsWith('.azure.com')) headers['api-key'] = key;
  }
  return headers;
}

function isSuccess(response: UpstreamResponse): boolean {
  return response.status >= 200 && response.status < 300;
}

/** `<base>/chat/completions`, keeping the base's query (Azure's `api-version`). */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url.toString();
}

/** What has arrived of an answer so far. */
interface AnswerState {
  finishReason: FinishReason;
  /** A finish reason arrived. */
  finished: boolean;
  /** Characters of answer text received, for estimating the output tokens. */
  outputChars: number;
  /** What the provider reported. */
  usage?: AiUsage;
}

/** Reads one event's data into `state`: the text it adds, and whether it ends the answer. */
function readChunk(
  data: string,
  state: AnswerState,
  logger: Logger,
  apiKey: string | undefined,
): { text: string; done: boolean } {
  if (data === '[DONE]') return { text: '', done: true };
  let parsed: z.infer<typeof chunkSchema>;
  try {
    parsed = chunkSchema.parse(JSON.parse(data));
  } catch (error) {
    logger.warn('The AI provider sent an unreadable chunk.', { chunk: loggableBody(data, apiKey) });
    throw AiUpstreamError('The AI provider sent an answer that could not be read.', error);
  }
  if (parsed.error !== undefined && parsed.error !== null) {
    logger.warn('The AI provider reported an error mid-answer.', {
      body: loggableBody(JSON.stringify(parsed.error), apiKey),
    });
    throw AiUpstreamError('The AI provider failed while answering.');
  }
  if (parsed.usage) {
    state.usage = {
      inputTokens: Math.max(0, parsed.usage.prompt_tokens),
      outputTokens: Math.max(0, parsed.usage.completion_tokens),
      estimated: false,
    };
  }
  let text = '';
  for (const choice of parsed.choices ?? []) {
    text += choice.delta?.content ?? choice.message?.content ?? '';
    if (choice.finish_reason) {
      state.finished = true;
      state.finishReason = (AI_FINISH_REASONS as readonly string[]).includes(choice.finish_reason)
        ? (choice.finish_reason as FinishReason)
        : 'other';
    }
  }
  state.outputChars += text.length;
  return { text, done: false };
}

/** An error's message and its cause's (`connect ECONNREFUSED …`); neither holds headers. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
