/**
 * TEST DOUBLE, for tests only (never used by `npm start`): an OpenAI-compatible
 * `POST /v1/chat/completions` on a free localhost port. It streams a reply in small chunks with a
 * delay, can be told to fail in the ways real providers do (401, 429 with Retry-After, 500, a
 * stream cut midway, a stream that stalls or never ends, a slow start), and records each request:
 * what it received and whether and when the client closed the connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with the next requests. */
export type FakeBehaviour =
  /** Streams the reply, then a finish reason, usage (when asked for) and `[DONE]`. */
  | { kind: 'answer' }
  /** Answers with one JSON completion, as a provider that ignores `stream: true`. */
  | { kind: 'whole' }
  /** Answers `status` with `body` and, if given, a `Retry-After` header. */
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  /** Sends `afterChunks` chunks of the reply, then drops the connection. */
  | { kind: 'cut'; afterChunks: number }
  /** Sends `afterChunks` chunks of the reply, then nothing, keeping the connection open. */
  | { kind: 'stall'; afterChunks: number }
  /** Sends a chunk every `delayMs`, forever (for the total timeout). */
  | { kind: 'endless' }
  /** Sends nothing, not even headers, for `waitMs`, then answers as `answer`. */
  | { kind: 'slowStart'; waitMs: number }
  /** Refuses `max_tokens` as OpenAI's reasoning models do (400), answers `max_completion_tokens`. */
  | { kind: 'wantsCompletionTokens' };

/** How the fake streams. */
export interface FakeStreamOptions {
  /** The answer's text. */
  reply: string;
  /** Characters of the reply per chunk. */
  chunkChars: number;
  /** Wait between chunks, in milliseconds. */
  delayMs: number;
  /** Report usage when the request asks for it with `stream_options.include_usage`. */
  reportUsage: boolean;
  /** Usage to report (defaults: 100 input, 10 output). */
  usage: { promptTokens: number; completionTokens: number };
  /** Finish reason of the last chunk. */
  finishReason: string;
  /** Line endings: CRLF instead of LF. */
  crlf: boolean;
  /** Send `: keep-alive` comments between chunks. */
  keepAlive: boolean;
  /** Write every event in slices of this many bytes (splitting UTF-8 characters); 0 writes whole. */
  sliceBytes: number;
}

/** One request the fake received. */
export interface FakeRequest {
  /** The parsed JSON body (`model`, `messages`, `max_tokens`, `stream`, `stream_options`…). */
  body: Record<string, unknown> & { messages?: { role: string; content: string }[] };
  /** The request's headers. */
  headers: IncomingMessage['headers'];
  /** `performance.now()` when it arrived. */
  receivedAt: number;
  /** `performance.now()` when the client closed the connection before the answer was over. */
  closedByClientAt?: number;
}

/** A running fake provider. */
export interface FakeAiProvider {
  /** The base URL to configure as `AI_BASE_URL`: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every request so far, oldest first. */
  requests: FakeRequest[];
  /** Sets the behaviour and stream options of every later request (options merge into the defaults). */
  setBehaviour(behaviour: FakeBehaviour, options?: Partial<FakeStreamOptions>): void;
  /** Resolves with the next request to arrive. */
  nextRequest(): Promise<FakeRequest>;
  /** Resolves with `closedByClientAt` once the client closed `request`, or rejects after `timeoutMs`. */
  closedByClient(request: FakeRequest, timeoutMs?: number): Promise<number>;
  /** Stops the server and drops its connections. */
  close(): Promise<void>;
}

/** The stream options a fake starts with and `setBehaviour` goes back to. */
export const DEFAULT_STREAM_OPTIONS: FakeStreamOptions = {
  reply: 'Hello from the **fake** model.',
  chunkChars: 4,
  delayMs: 2,
  reportUsage: true,
  usage: { promptTokens: 100, completionTokens: 10 },
  finishReason: 'stop',
  crlf: false,
  keepAlive: false,
  sliceBytes: 0,
};

/** Responses the fake cut itself, whose close is not the client's doing. */
const cutByFake = new WeakSet<ServerResponse>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a fake provider on 127.0.0.1 and a free port, answering `answer` by default. */
export async function startFakeAiProvider(): Promise<FakeAiProvider> {
  let behaviour: FakeBehaviour = { kind: 'answer' };
  let options = DEFAULT_STREAM_OPTIONS;
  const requests: FakeRequest[] = [];
  const waiting: ((request: FakeRequest) => void)[] = [];
  const closeWatchers = new Map<FakeRequest, () => void>();

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const record: FakeRequest = {
        body: JSON.parse(raw || '{}') as FakeRequest['body'],
        headers: req.headers,
        receivedAt: performance.now(),
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished && !cutByFake.has(res)) {
          record.closedByClientAt ??= performance.now();
          closeWatchers.get(record)?.();
        }
      });
      waiting.splice(0).forEach((resolve) => resolve(record));
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      await respond(res, record, behaviour, options);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour(next, overrides = {}) {
      behaviour = next;
      options = { ...DEFAULT_STREAM_OPTIONS, ...overrides };
    },
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    closedByClient(request, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        if (request.closedByClientAt !== undefined) return resolve(request.closedByClientAt);
        const timer = setTimeout(
          () => reject(new Error('the client kept the connection')),
          timeoutMs,
        );
        closeWatchers.set(request, () => {
          clearTimeout(timer);
          resolve(request.closedByClientAt!);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function respond(
  res: ServerResponse,
  record: FakeRequest,
  behaviour: FakeBehaviour,
  options: FakeStreamOptions,
): Promise<void> {
  const model = String(record.body.model ?? 'fake');
  if (behaviour.kind === 'status') {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (behaviour.retryAfter) headers['Retry-After'] = behaviour.retryAfter;
    res.writeHead(behaviour.status, headers).end(behaviour.body ?? '{"error":{"message":"fake"}}');
    return;
  }
  if (behaviour.kind === 'wantsCompletionTokens' && 'max_tokens' in record.body) {
    const message =
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
    res
      .writeHead(400, { 'Content-Type': 'application/json' })
      .end(
        JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'max_tokens' } }),
      );
    return;
  }
  if (behaviour.kind === 'whole') {
    const body = {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      model,
      choices: [
        { index: 0, message: { role: 'assistant', content: options.reply }, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: options.usage.promptTokens,
        completion_tokens: options.usage.completionTokens,
      },
    };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    return;
  }
  if (behaviour.kind === 'slowStart') await sleep(behaviour.waitMs);
  if (res.destroyed) return;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const eol = options.crlf ? '\r\n' : '\n';
  const send = async (data: string) => {
    const bytes = Buffer.from(
      `data: ${data}${eol}${eol}${options.keepAlive ? `: keep-alive${eol}${eol}` : ''}`,
    );
    const step = options.sliceBytes > 0 ? options.sliceBytes : bytes.length;
    for (let at = 0; at < bytes.length && !res.destroyed; at += step) {
      res.write(bytes.subarray(at, at + step));
      if (step < bytes.length) await sleep(0);
    }
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });

  await send(chunk({ role: 'assistant', content: '' }));
  const pieces = splitReply(options.reply, options.chunkChars);
  for (let index = 0; ; index += 1) {
    if (res.destroyed) return;
    if (
      (behaviour.kind === 'cut' || behaviour.kind === 'stall') &&
      index === behaviour.afterChunks
    ) {
      if (behaviour.kind === 'cut') {
        cutByFake.add(res);
        res.destroy();
      }
      return;
    }
    const piece = behaviour.kind === 'endless' ? '.' : pieces[index];
    if (piece === undefined) break;
    await send(chunk({ content: piece }));
    await sleep(options.delayMs);
  }
  await send(chunk({}, options.finishReason));
  const streamOptions = record.body.stream_options as { include_usage?: boolean } | undefined;
  if (options.reportUsage && streamOptions?.include_usage) {
    const { promptTokens, completionTokens } = options.usage;
    await send(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        model,
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      }),
    );
  }
  await send('[DONE]');
  res.end();
}

function splitReply(reply: string, size: number): string[] {
  const characters = Array.from(reply);
  const pieces: string[] = [];
  for (let at = 0; at < characters.length; at += size)
    pieces.push(characters.slice(at, at + size).join(''));
  return pieces;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
