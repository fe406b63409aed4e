import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  aiStreamEventSchema,
  type AiGenerateRequest,
  type AiStreamEvent,
} from '../../common/api/ai.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE, errorBodySchema } from '../../common/api/errors.ts';
import { SseParser } from '../../common/sse/sseParser.ts';
import { usageToday } from '../ai/usageLimits.ts';
import { loadConfig, type AiConfig } from '../config.ts';
import { hashToken } from '../auth/sessions.ts';
import type { Database } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { sessionCookieName } from '../middleware/session.ts';
import type { RunningServer } from '../startServer.ts';
import { openTestDatabase } from '../test/databases.ts';
import { startFakeAiProvider } from '../test/fakeAiProvider.ts';
import {
  describeWithServer,
  signedInUser,
  startTestServer,
  type TestClient,
} from '../test/testServer.ts';

const KEY = 'sk-test-7d1c0b9e8f6a5d4c3b2a1f0e9d8c7b6a';
const REPLY = 'Hello from the **fake** model.';
const fake = await startFakeAiProvider();
afterAll(() => fake.close());

/** AI settings pointing at the fake, with short timeouts. */
function aiConfig(overrides: Partial<AiConfig> = {}): AiConfig {
  return {
    ...loadConfig({}).ai,
    provider: { baseUrl: fake.baseUrl, apiKey: KEY, model: 'fake-1' },
    firstByteTimeoutMs: 1000,
    idleTimeoutMs: 500,
    totalTimeoutMs: 5000,
    ...overrides,
  };
}

const generate = (client: TestClient, json: AiGenerateRequest) =>
  client.request('POST', '/api/ai/generate', { json });

/** The events of an SSE response, checked against the shared schema. */
async function eventsOf(res: Response): Promise<AiStreamEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
  const text = await res.text();
  expect(text).not.toContain(KEY);
  const parser = new SseParser();
  const raw = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
  return raw.map((event) =>
    aiStreamEventSchema.parse({ event: event.event, data: JSON.parse(event.data) }),
  );
}

const textOf = (events: AiStreamEvent[]) =>
  events.map((event) => (event.event === 'delta' ? event.data.text : '')).join('');

/**
 * POSTs `json` to /api/ai/generate on a connection that is not reused: after refusing a large
 * upload, the server closes the connection, which would fail the next request sent on it.
 */
function postOnOwnConnection(
  client: TestClient,
  json: unknown,
): Promise<{ status: number; body: string }> {
  const url = new URL('/api/ai/generate', client.server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: {
        Cookie: `${sessionCookieName(client.server.url)}=${client.token}`,
        [CSRF_HEADER]: CSRF_HEADER_VALUE,
        Origin: url.origin,
        'Content-Type': 'application/json',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The server may hang up before the upload is over; the answer came first.
    req.on('error', (error) => reject(error));
    req.end(JSON.stringify(json));
  });
}

/** A JSON error response with `status` and `code`; returns its body. */
async function expectError(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(text).not.toContain(KEY);
  expect({ status: res.status, type: res.headers.get('Content-Type') }).toEqual({
    status,
    type: expect.stringMatching(/^application\/json/),
  });
  const body = errorBodySchema.parse(JSON.parse(text));
  expect(body.error.code).toBe(code);
  return body.error;
}

describeWithServer(
  'POST /api/ai/generate',
  (context) => {
    let server: RunningServer;
    let db: Database;
    const newClient = async (name: string) => (await signedInUser(server, db, name)).client;

    beforeAll(() => {
      ({ server, db } = context());
    });
    beforeEach(() => fake.setBehaviour({ kind: 'answer' }));

    it('renews the session cookie when the request pushes the session expiry back', async () => {
      const { client } = await signedInUser(server, db, 'Returning');
      await db.query(
        `UPDATE sessions SET last_seen_at = now() - interval '1 hour' WHERE id_hash = $1`,
        [hashToken(client.token!)],
      );
      const res = await generate(client, { command: 'improve', text: 'teh text' });
      const days = server.services.config.sessionDays;
      expect(res.headers.get('Set-Cookie')).toMatch(
        new RegExp(`^inkwell_session=${client.token}; Max-Age=${days * 86400};`),
      );
      expect(textOf(await eventsOf(res))).toBe(REPLY);
    });

    it('streams the answer as delta events, then done with the usage, and counts it', async () => {
      const { user, client } = await signedInUser(server, db, 'Streamer');
      const res = await generate(client, { command: 'improve', text: 'teh text' });
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      // Proxies such as nginx would otherwise hold the answer back until it is complete.
      expect(res.headers.get('X-Accel-Buffering')).toBe('no');
      const events = await eventsOf(res);
      expect(textOf(events)).toBe(REPLY);
      expect(events.filter((event) => event.event === 'delta').length).toBeGreaterThan(3);
      expect(events.at(-1)).toEqual({
        event: 'done',
        data: {
          usage: { inputTokens: 100, outputTokens: 10, estimated: false },
          finishReason: 'stop',
        },
      });
      const sent = fake.requests.at(-1)!.body.messages!;
      expect(sent[1]!.content).toMatch(/<<<TEXT \w+\nteh text\nTEXT \w+>>>/);
      expect(await usageToday(db, user.id)).toEqual({
        requests: 1,
        inputTokens: 100,
        outputTokens: 10,
      });
    });

    it.each([
      ['malformed JSON', '{"command": "fix", "text": ', /not valid JSON/],
      ['an unknown command', JSON.stringify({ command: 'hack', text: 'x' }), /^command: Unknown/],
      ['a tone change without a tone', JSON.stringify({ command: 'tone', text: 'x' }), /^tone:/],
      [
        'a translation without a language',
        JSON.stringify({ command: 'translate', text: 'x' }),
        /^language:/,
      ],
      ['an empty text', JSON.stringify({ command: 'fix', text: '  ' }), /^text: There is no text/],
      [
        'a long instruction',
        JSON.stringify({ command: 'ask', text: 'x', instruction: 'a'.repeat(5000) }),
        /^instruction: An instruction has at most 1000 characters/,
      ],
      ['an array', '[]', /expected object/i],
    ])(
      'answers %s with 400 invalid_request, before any call upstream, and holds no stream',
      async (_, body, message) => {
        const { user, client } = await signedInUser(server, db, 'Hostile');
        const before = fake.requests.length;
        const res = await client.request('POST', '/api/ai/generate', {
          body,
          headers: { 'Content-Type': 'application/json' },
        });
        expect((await expectError(res, 400, 'invalid_request')).message).toMatch(message);
        expect(fake.requests.length).toBe(before);
        // Admitted before its body was read, the request freed its stream and used nothing.
        const streams = await db.query('SELECT 1 FROM ai_streams WHERE user_id = $1', [user.id]);
        expect(streams.rows).toEqual([]);
        expect((await usageToday(db, user.id)).requests).toBe(0);
      },
    );

    it('answers an over-long text or context, and a 1 MB instruction, with 413', async () => {
      const client = await newClient('Big');
      const long = 'a'.repeat(24_001);
      const text = await expectError(
        await generate(client, { command: 'fix', text: long }),
        413,
        'payload_too_large',
      );
      expect(text.message).toBe('The text is longer than 24,000 characters; select less.');
      await expectError(
        await generate(client, { command: 'continue', text: 'x', context: long }),
        413,
        'payload_too_large',
      );
      // On a connection of its own: the server stops reading the upload and drops the connection.
      const huge = { command: 'ask', text: 'x', instruction: 'a'.repeat(1024 * 1024) };
      const { status, body } = await postOnOwnConnection(client, huge);
      expect(status).toBe(413);
      expect(JSON.parse(body)).toEqual({
        error: {
          code: 'payload_too_large',
          message: expect.stringMatching(/^The AI request is larger than \d+ KB\.$/),
        },
      });
    });

    it('accepts a text of exactly the cap', async () => {
      const client = await newClient('Capped');
      const events = await eventsOf(
        await generate(client, { command: 'summarize', text: 'é'.repeat(24_000) }),
      );
      expect(events.at(-1)?.event).toBe('done');
    });

    it('needs a session and the CSRF header', async () => {
      const client = await newClient('Csrf');
      const body = { command: 'fix', text: 'x' };
      const anonymous = await fetch(new URL('/api/ai/generate', server.url), {
        method: 'POST',
        headers: { 'X-Inkwell-Request': '1', Origin: new URL(server.url).origin },
        body: JSON.stringify(body),
      });
      await expectError(anonymous, 401, 'unauthenticated');
      const forged = await client.request('POST', '/api/ai/generate', {
        json: body,
        withoutCsrf: true,
      });
      await expectError(forged, 403, 'csrf_rejected');
    });

    it('answers the provider refusing the key with a JSON 502 that names no key', async () => {
      const client = await newClient('Refused');
      fake.setBehaviour({
        kind: 'status',
        status: 401,
        body: `{"error":{"message":"Incorrect API key provided: ${KEY}"}}`,
      });
      const error = await expectError(
        await generate(client, { command: 'fix', text: 'x' }),
        502,
        'ai_upstream_error',
      );
      expect(error.message).toBe('The AI provider refused the key.');
    });

    it("passes the provider's 429 on with its Retry-After, and a 5xx as 502", async () => {
      const client = await newClient('Limited');
      fake.setBehaviour({ kind: 'status', status: 429, retryAfter: '17' });
      const res = await generate(client, { command: 'fix', text: 'x' });
      expect(res.headers.get('Retry-After')).toBe('17');
      await expectError(res, 429, 'rate_limited');
      fake.setBehaviour({ kind: 'status', status: 500 });
      await expectError(
        await generate(client, { command: 'fix', text: 'x' }),
        502,
        'ai_upstream_error',
      );
    });

    it('sends an error event after the deltas when the stream is cut midway', async () => {
      const { user, client } = await signedInUser(server, db, 'Cut');
      fake.setBehaviour({ kind: 'cut', afterChunks: 3 });
      const events = await eventsOf(await generate(client, { command: 'continue', text: 'x' }));
      expect(textOf(events)).toBe('Hello from t');
      expect(events.at(-1)).toEqual({
        event: 'error',
        data: { code: 'ai_upstream_error', message: "The AI provider's answer broke off." },
      });
      // The partial answer still counts, estimated from what was sent and received.
      const usage = await usageToday(db, user.id);
      expect(usage).toMatchObject({ requests: 1, outputTokens: 3 });
      expect(usage.inputTokens).toBeGreaterThan(100);
    });

    it('sends an error event when the provider goes silent past the idle timeout', async () => {
      const client = await newClient('Silent');
      fake.setBehaviour({ kind: 'stall', afterChunks: 1 });
      const events = await eventsOf(await generate(client, { command: 'continue', text: 'x' }));
      expect(events.at(-1)).toMatchObject({
        event: 'error',
        data: { message: 'The AI provider sent nothing for 0.5 s; the answer is cut short.' },
      });
    });

    it('runs one stream per user: a second is refused while the first runs, and allowed after', async () => {
      const { user, client } = await signedInUser(server, db, 'Busy');
      const other = await newClient('Other');
      fake.setBehaviour({ kind: 'answer' }, { reply: 'slow '.repeat(40), delayMs: 15 });
      const first = generate(client, { command: 'longer', text: 'x' });
      await fake.nextRequest();
      const second = await generate(client, { command: 'fix', text: 'y' });
      expect(second.headers.get('Retry-After')).toEqual(expect.stringMatching(/^\d+$/));
      const error = await expectError(second, 429, 'rate_limited');
      expect(error.message).toBe('Another AI request is still running.');
      expect(
        (await eventsOf(await generate(other, { command: 'fix', text: 'z' }))).at(-1)?.event,
      ).toBe('done');
      expect((await eventsOf(await first)).at(-1)?.event).toBe('done');
      const third = await eventsOf(await generate(client, { command: 'fix', text: 'y' }));
      expect(third.at(-1)?.event).toBe('done');
      expect((await usageToday(db, user.id)).requests).toBe(2);
    });

    it('refuses the 21st request in a minute with 429 and Retry-After, for that user only', async () => {
      const client = await newClient('Eager');
      const other = await newClient('Patient');
      for (let request = 1; request <= 20; request += 1) {
        const events = await eventsOf(await generate(client, { command: 'fix', text: 'x' }));
        expect(events.at(-1)?.event).toBe('done');
      }
      const refused = await generate(client, { command: 'fix', text: 'x' });
      const wait = Number(refused.headers.get('Retry-After'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect((await expectError(refused, 429, 'rate_limited')).message).toMatch(
        /Too many AI requests/,
      );
      expect(
        (await eventsOf(await generate(other, { command: 'fix', text: 'x' }))).at(-1)?.event,
      ).toBe('done');
    });

    it("refuses once today's token budget is spent, until midnight UTC, for that user only", async () => {
      const spender = await signedInUser(server, db, 'Spender');
      const thrifty = await newClient('Thrifty');
      await db.query(
        `INSERT INTO ai_usage (user_id, day, requests, input_tokens, output_tokens)
         VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 50, 150000, 50000)`,
        [spender.user.id],
      );
      const before = fake.requests.length;
      const res = await generate(spender.client, { command: 'fix', text: 'x' });
      const wait = Number(res.headers.get('Retry-After'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(86_400);
      const error = await expectError(res, 429, 'rate_limited');
      expect(error.message).toMatch(/today's AI allowance of 200,000 tokens/);
      expect(fake.requests.length).toBe(before);
      expect(
        (await eventsOf(await generate(thrifty, { command: 'fix', text: 'x' }))).at(-1)?.event,
      ).toBe('done');
    });

    it('closes the upstream request within a second when the client goes away, and frees the stream', async () => {
      const { user, client } = await signedInUser(server, db, 'Leaver');
      fake.setBehaviour({ kind: 'endless' }, { delayMs: 20 });
      const abort = new AbortController();
      const upstream = fake.nextRequest();
      const res = await fetch(new URL('/api/ai/generate', server.url), {
        method: 'POST',
        headers: {
          Cookie: `${sessionCookieName(server.url)}=${client.token}`,
          'X-Inkwell-Request': '1',
          Origin: new URL(server.url).origin,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ command: 'continue', text: 'x' }),
        signal: abort.signal,
      });
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^event: delta/);
      const request = await upstream;
      const abortedAt = performance.now();
      abort.abort();
      const closedAt = await fake.closedByClient(request, 1000);
      expect(closedAt - abortedAt).toBeLessThan(1000);
      // The stream's claim is freed and the partial answer counted.
      fake.setBehaviour({ kind: 'answer' });
      await expect.poll(async () => (await usageToday(db, user.id)).requests).toBe(1);
      // Usage is recorded before the claim is freed: wait for the claim itself.
      await expect
        .poll(async () => {
          const { rows } = await db.query<{ claims: number }>(
            'SELECT count(*)::int AS claims FROM ai_streams WHERE user_id = $1',
            [user.id],
          );
          return rows[0]!.claims;
        })
        .toBe(0);
      const next = await eventsOf(await generate(client, { command: 'fix', text: 'x' }));
      expect(next.at(-1)?.event).toBe('done');
    });
  },
  { ai: aiConfig() },
);

describeWithServer(
  'POST /api/ai/generate with AI off',
  (context) => {
    it('answers 503 ai_not_configured without reading the body', async () => {
      const { client } = await signedInUser(context().server, context().db);
      const res = await client.request('POST', '/api/ai/generate', { body: 'not even JSON' });
      const error = await expectError(res, 503, 'ai_not_configured');
      expect(error.message).toMatch(/AI_BASE_URL and AI_MODEL/);
    });
  },
  { ai: { ...aiConfig(), provider: undefined } },
);

describe('the AI key', () => {
  it('appears in no response and no log line, whatever goes wrong', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    const db = await openTestDatabase('pglite');
    const server = await startTestServer(db, { ai: aiConfig(), logLevel: 'debug' }, { logger });
    try {
      const { client } = await signedInUser(server, db);
      const echo = `{"error":{"message":"Incorrect API key provided: ${KEY}","key":"${KEY}"}}`;
      const failures = [
        { kind: 'status', status: 401, body: echo },
        { kind: 'status', status: 500, body: echo },
        { kind: 'status', status: 429, body: echo },
        { kind: 'cut', afterChunks: 2 },
        { kind: 'answer' },
      ] as const;
      for (const behaviour of failures) {
        fake.setBehaviour(behaviour);
        const res = await generate(client, { command: 'fix', text: `x ${KEY.slice(0, 6)}` });
        const text = await res.text();
        expect(text).not.toContain(KEY);
        expect(JSON.stringify([...res.headers])).not.toContain(KEY);
      }
      const config = await client.request('GET', '/api/config');
      const configText = await config.text();
      expect(configText).not.toContain(KEY);
      expect(configText).not.toContain(fake.baseUrl);
      expect(lines.length).toBeGreaterThan(5);
      expect(lines.join('\n')).not.toContain(KEY);
      expect(lines.join('\n')).toContain('[redacted]');
    } finally {
      await server.close();
      await db.close();
    }
  });
});
