import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { startFakeAiProvider, type FakeAiProvider } from '../test/fakeAiProvider.ts';
import {
  ChatCompletionsClient,
  chatCompletionsUrl,
  type ChatStream,
  type ChatTimeouts,
} from './chatCompletions.ts';
import { promptChars, type ChatMessage } from './prompts.ts';
import { ClientGoneError, retryAfterSeconds } from './upstreamErrors.ts';

const KEY = 'sk-test-3f6a9c0e1b2d4f5a6c7e8d9f0a1b2c3d';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Task: say hello.' },
];
const TIMEOUTS: ChatTimeouts = { firstByteMs: 1000, idleMs: 1000, totalMs: 5000 };

let fake: FakeAiProvider;
let logLines: string[];
let client: ChatCompletionsClient;

beforeAll(async () => {
  fake = await startFakeAiProvider();
});
afterAll(() => fake.close());

beforeEach(() => {
  fake.setBehaviour({ kind: 'answer' });
  logLines = [];
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  client = new ChatCompletionsClient(
    { baseUrl: fake.baseUrl, apiKey: KEY, model: 'fake-1' },
    logger,
  );
});

afterEach(() => {
  expect(logLines.join('\n')).not.toContain(KEY);
});

function open(options: { signal?: AbortSignal; timeouts?: Partial<ChatTimeouts> } = {}) {
  return client.open({
    messages: MESSAGES,
    maxOutputTokens: 321,
    timeouts: { ...TIMEOUTS, ...options.timeouts },
    signal: options.signal ?? new AbortController().signal,
  });
}

/** Every delta of `stream`, and what it threw at the end, if anything. */
async function collect(stream: ChatStream): Promise<{ text: string; error?: unknown }> {
  let text = '';
  try {
    for await (const delta of stream.deltas()) text += delta;
    return { text };
  } catch (error) {
    return { text, error };
  }
}

/** What `promise` rejected with. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('ChatCompletionsClient', () => {
  it('streams the answer and reports the usage the provider counted', async () => {
    const stream = await open();
    expect(await collect(stream)).toEqual({ text: 'Hello from the **fake** model.' });
    expect(stream.usage()).toEqual({ inputTokens: 100, outputTokens: 10, estimated: false });
    expect(stream.finishReason()).toBe('stop');
  });

  it('asks for a capped, streamed answer with usage, with the key as a bearer token', async () => {
    await collect(await open());
    const request = fake.requests.at(-1)!;
    expect(request.body).toEqual({
      model: 'fake-1',
      messages: MESSAGES,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 321,
    });
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['api-key']).toBeUndefined();
  });

  it('sends no Authorization header without a key (Ollama, llama.cpp)', async () => {
    const keyless = new ChatCompletionsClient(
      { baseUrl: fake.baseUrl, apiKey: undefined, model: 'llama3' },
      createLogger('silent'),
    );
    const stream = await keyless.open({
      messages: MESSAGES,
      maxOutputTokens: 10,
      timeouts: TIMEOUTS,
      signal: new AbortController().signal,
    });
    await collect(stream);
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('estimates tokens at four characters each when the provider reports no usage', async () => {
    fake.setBehaviour({ kind: 'answer' }, { reportUsage: false, reply: 'x'.repeat(41) });
    const stream = await open();
    await collect(stream);
    expect(stream.usage()).toEqual({
      inputTokens: Math.ceil(promptChars(MESSAGES) / 4),
      outputTokens: 11,
      estimated: true,
    });
  });

  it('reads CRLF streams with keep-alives, sliced through multi-byte characters', async () => {
    const reply = 'Grüße, 世界! ✍️ Ünïcödé';
    fake.setBehaviour({ kind: 'answer' }, { reply, crlf: true, keepAlive: true, sliceBytes: 3 });
    expect(await collect(await open())).toEqual({ text: reply });
  });

  it('reports an answer cut by the output cap as finishReason length', async () => {
    fake.setBehaviour({ kind: 'answer' }, { finishReason: 'length' });
    const stream = await open();
    await collect(stream);
    expect(stream.finishReason()).toBe('length');
  });

  it('takes a whole JSON answer from a provider that ignores stream: true', async () => {
    fake.setBehaviour({ kind: 'whole' }, { reply: 'All at once.' });
    const stream = await open();
    expect(await collect(stream)).toEqual({ text: 'All at once.' });
    expect(stream.usage().estimated).toBe(false);
  });

  it('switches to max_completion_tokens when the provider asks for it', async () => {
    fake.setBehaviour({ kind: 'wantsCompletionTokens' });
    expect((await collect(await open())).text).toBe('Hello from the **fake** model.');
    expect(fake.requests.at(-1)!.body.max_completion_tokens).toBe(321);
    // Remembered: the next request asks the right way at once.
    const before = fake.requests.length;
    await collect(await open());
    expect(fake.requests.length).toBe(before + 1);
  });

  it.each([401, 403])(
    'answers %i with "refused the key", logging the body without the key it echoed',
    async (status) => {
      fake.setBehaviour({
        kind: 'status',
        status,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.` } }),
      });
      const error = await failureOf(open());
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'ai_upstream_error',
        message: 'The AI provider refused the key.',
      });
      expect(logLines.join('\n')).toContain('Incorrect API key provided: [redacted]');
    },
  );

  it("passes a provider's 429 on as rate_limited with its Retry-After", async () => {
    fake.setBehaviour({ kind: 'status', status: 429, retryAfter: '42' });
    const error = await failureOf(open());
    expect(error).toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': '42' } });
  });

  it('answers a 5xx with ai_upstream_error', async () => {
    fake.setBehaviour({ kind: 'status', status: 503, body: 'overloaded' });
    expect(await failureOf(open())).toMatchObject({
      code: 'ai_upstream_error',
      message: 'The AI provider failed (HTTP 503).',
    });
  });

  it('says which model a 404 did not find', async () => {
    fake.setBehaviour({ kind: 'status', status: 404 });
    expect(await failureOf(open())).toMatchObject({ message: expect.stringContaining('"fake-1"') });
  });

  it('keeps the deltas of a stream cut midway and then fails with "broke off"', async () => {
    fake.setBehaviour({ kind: 'cut', afterChunks: 3 });
    const { text, error } = await collect(await open());
    expect(text).toBe('Hello from t');
    expect(error).toMatchObject({
      code: 'ai_upstream_error',
      message: "The AI provider's answer broke off.",
    });
  });

  it('fails after the idle timeout when the stream goes silent, and hangs up', async () => {
    fake.setBehaviour({ kind: 'stall', afterChunks: 2 });
    const started = performance.now();
    const { text, error } = await collect(await open({ timeouts: { idleMs: 300 } }));
    expect(text).toBe('Hello fr');
    expect(error).toMatchObject({
      code: 'ai_upstream_error',
      message: 'The AI provider sent nothing for 0.3 s; the answer is cut short.',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    await fake.closedByClient(fake.requests.at(-1)!, 1000);
  });

  it('fails after the total timeout even while chunks keep coming', async () => {
    fake.setBehaviour({ kind: 'endless' }, { delayMs: 20 });
    // The idle timeout is longer than the total one, so a pause on a busy machine cannot end
    // the stream first.
    const { text, error } = await collect(await open({ timeouts: { idleMs: 1000, totalMs: 600 } }));
    expect(text.length).toBeGreaterThan(5);
    expect(error).toMatchObject({
      message: 'The AI provider took longer than 0.6 s; the answer is cut short.',
    });
  });

  it('fails before streaming when the provider does not start answering in time', async () => {
    fake.setBehaviour({ kind: 'slowStart', waitMs: 3000 });
    const error = await failureOf(open({ timeouts: { firstByteMs: 300 } }));
    expect(error).toMatchObject({
      code: 'ai_upstream_error',
      message: 'The AI provider did not start answering within 0.3 s.',
    });
    await fake.closedByClient(fake.requests.at(-1)!, 1000);
  });

  it('closes the upstream connection within a second of the client going away', async () => {
    fake.setBehaviour({ kind: 'endless' }, { delayMs: 20 });
    const gone = new AbortController();
    const stream = await open({ signal: gone.signal });
    const deltas = stream.deltas();
    await deltas.next();
    const abortedAt = performance.now();
    gone.abort();
    await expect(deltas.next()).rejects.toBeInstanceOf(ClientGoneError);
    const closedAt = await fake.closedByClient(fake.requests.at(-1)!, 1000);
    expect(closedAt - abortedAt).toBeLessThan(1000);
  });

  it('stops waiting for a provider that has not answered when the client goes away', async () => {
    fake.setBehaviour({ kind: 'slowStart', waitMs: 3000 });
    const gone = new AbortController();
    const opening = open({ signal: gone.signal });
    const request = await fake.nextRequest();
    gone.abort();
    expect(await failureOf(opening)).toBeInstanceOf(ClientGoneError);
    await fake.closedByClient(request, 1000);
  });

  it('reports an unreachable provider without its address in the message', async () => {
    const closed = await startFakeAiProvider();
    await closed.close();
    const nowhere = new ChatCompletionsClient(
      { baseUrl: closed.baseUrl, apiKey: KEY, model: 'x' },
      createLogger('debug', { write: (line: string) => void logLines.push(line) }),
    );
    const error = await failureOf(
      nowhere.open({
        messages: MESSAGES,
        maxOutputTokens: 1,
        timeouts: TIMEOUTS,
        signal: new AbortController().signal,
      }),
    );
    expect(error).toMatchObject({
      code: 'ai_upstream_error',
      message: 'The AI provider could not be reached.',
    });
    expect(logLines.join('\n')).toMatch(/ECONNREFUSED/);
  });
});

describe('chatCompletionsUrl', () => {
  it('appends /chat/completions to the path and keeps a query', () => {
    expect(chatCompletionsUrl('https://api.openai.com/v1')).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
    expect(chatCompletionsUrl('http://localhost:11434/v1/')).toBe(
      'http://localhost:11434/v1/chat/completions',
    );
    expect(
      chatCompletionsUrl(
        'https://x.openai.azure.com/openai/deployments/gpt?api-version=2024-10-21',
      ),
    ).toBe(
      'https://x.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21',
    );
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, with a default and bounds', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterSeconds('42', now)).toBe(42);
    expect(retryAfterSeconds('0.2', now)).toBe(1);
    expect(retryAfterSeconds('Tue, 01 Jan 2030 00:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds(null, now)).toBe(20);
    expect(retryAfterSeconds('soon', now)).toBe(20);
    expect(retryAfterSeconds('99999999', now)).toBe(86400);
  });
});
