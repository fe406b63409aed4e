import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createApiClient,
  fitsKeepalive,
  JsonText,
  KEEPALIVE_MAX_BYTES,
  NetworkError,
  signInUrl,
} from './api.ts';

interface Call {
  url: string;
  init: RequestInit;
}

/** A test double for fetch: records each call and answers with the next queued response. */
function fakeFetch(...answers: (Response | Error)[]) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    const answer = answers.shift();
    if (!answer) throw new Error('fakeFetch: no answer queued');
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const document = {
  id: '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f',
  title: 'Notes',
  version: 7,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  deletedAt: null,
  content: { type: 'doc', content: [{ type: 'paragraph' }] },
};

function client(...answers: (Response | Error)[]) {
  const double = fakeFetch(...answers);
  const onUnauthenticated = vi.fn();
  const api = createApiClient({
    fetch: double.fetch,
    loadSchemas: () => import('./apiSchemas.ts'),
    onUnauthenticated,
  });
  return { api, calls: double.calls, onUnauthenticated };
}

describe('createApiClient', () => {
  it('parses an answer with the chosen schema', async () => {
    const { api, calls } = client(json(200, { document }));
    const answer = await api.get('/api/documents/x', (s) => s.documentResponseSchema);
    expect(answer.document.version).toBe(7);
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.credentials).toBe('same-origin');
  });

  it('sends the CSRF header on state-changing requests only', async () => {
    const { api, calls } = client(
      json(200, { documents: [] }),
      new Response(null, { status: 204 }),
    );
    await api.get('/api/documents', (s) => s.listDocumentsResponseSchema);
    await api.delete('/api/documents/x');
    const headers = calls.map((call) => call.init.headers as Record<string, string>);
    expect(headers[0]?.['X-Inkwell-Request']).toBeUndefined();
    expect(headers[1]?.['X-Inkwell-Request']).toBe('1');
  });

  it('sends JSON text as it is and objects as JSON', async () => {
    const saved = { id: 'x', version: 2, updatedAt: '2025-01-01T00:00:00.000Z' };
    const { api, calls } = client(json(200, saved), json(200, saved));
    await api.patch('/a', new JsonText('{"baseVersion":1,"title":"t"}'), (s) => s.saveResultSchema);
    await api.patch('/a', { baseVersion: 1 }, (s) => s.saveResultSchema, { keepalive: true });
    expect(calls[0]?.init.body).toBe('{"baseVersion":1,"title":"t"}');
    expect(calls[1]?.init.body).toBe('{"baseVersion":1}');
    expect(calls[1]?.init.keepalive).toBe(true);
  });

  it('sends PUT with the CSRF header and the body as JSON', async () => {
    const saved = { id: 'x', version: 2, updatedAt: '2025-01-01T00:00:00.000Z' };
    const { api, calls } = client(json(200, saved));
    await api.put('/a', { role: 'viewer' }, (s) => s.saveResultSchema);
    expect(calls[0]?.init.method).toBe('PUT');
    expect(calls[0]?.init.body).toBe('{"role":"viewer"}');
    expect((calls[0]?.init.headers as Record<string, string>)['X-Inkwell-Request']).toBe('1');
  });

  it('reads the JSON answer of a DELETE that has one', async () => {
    const saved = { id: 'x', version: 2, updatedAt: '2025-01-01T00:00:00.000Z' };
    const { api, calls } = client(json(200, saved));
    const answer = await api.deleteWith('/a', (s) => s.saveResultSchema);
    expect(calls[0]?.init.method).toBe('DELETE');
    expect(answer.version).toBe(2);
  });

  it('throws an ApiError with the code, message, status and details of an error body', async () => {
    const body = { error: { code: 'payload_too_large', message: 'Too big.', limit: 5 } };
    const { api } = client(json(413, body));
    const error = await api.post('/a', {}, (s) => s.saveResultSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'payload_too_large', message: 'Too big.', status: 413 });
    expect((error as ApiError).details).toEqual({ limit: 5 });
  });

  it("carries the server's copy on a version conflict", async () => {
    const body = { error: { code: 'version_conflict', message: 'Changed.', current: document } };
    const { api } = client(json(409, body));
    const error = await api.patch('/a', {}, (s) => s.saveResultSchema).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('version_conflict');
    expect((error as ApiError).current?.version).toBe(7);
  });

  it('names the error by its status when the body is not an API error', async () => {
    const { api } = client(
      new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Retry-After': '3' } }),
    );
    const error = await api.get('/a', (s) => s.saveResultSchema).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ai_upstream_error', status: 502, retryAfter: 3 });
  });

  it('throws a NetworkError when fetch itself fails', async () => {
    const { api } = client(new TypeError('Failed to fetch'));
    await expect(api.get('/a', (s) => s.saveResultSchema)).rejects.toBeInstanceOf(NetworkError);
  });

  it('lets an abort through as it is', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('Aborted', 'AbortError');
    const { api } = client(abort);
    const error = await api
      .get('/a', (s) => s.saveResultSchema, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBe(abort);
  });

  it('rejects an answer that does not match its schema', async () => {
    const { api } = client(json(200, { document: { id: 1 } }));
    const error = await api.get('/a', (s) => s.documentResponseSchema).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal', status: 200 });
  });

  it('reports the end of the session once, however many requests see 401', async () => {
    const body = { error: { code: 'unauthenticated', message: 'Sign in.' } };
    const { api, onUnauthenticated } = client(json(401, body), json(401, body));
    const first = await api.get('/a', (s) => s.meResponseSchema).catch((e: unknown) => e);
    await api.get('/b', (s) => s.meResponseSchema).catch(() => undefined);
    expect(first).toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });
});

describe('ApiClient.stream', () => {
  it('posts with the CSRF header and resolves with the unread event stream', async () => {
    const body = 'event: delta\ndata: {"text":"Hi"}\n\n';
    const { api, calls } = client(
      new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    );
    const response = await api.stream('/api/ai/generate', { command: 'improve', text: 'x' });
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(calls[0]?.init.method).toBe('POST');
    expect(headers['X-Inkwell-Request']).toBe('1');
    expect(headers.Accept).toBe('text/event-stream');
    expect(await response.text()).toBe(body);
  });

  it('rejects an error answer before the stream with its code and Retry-After', async () => {
    const { api } = client(
      json(429, { error: { code: 'rate_limited', message: 'Slow down.' } }, { 'Retry-After': '7' }),
    );
    const error = await api.stream('/api/ai/generate', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 7 });
  });
});

describe('ApiClient.getRaw', () => {
  it('gets a file without asking for JSON and resolves with its unread bytes', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const { api, calls } = client(
      new Response(bytes, { headers: { 'Content-Type': 'image/png' } }),
    );
    const response = await api.getRaw('/files/abc');
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(calls[0]?.init.method).toBe('GET');
    expect(headers.Accept).toBe('*/*');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  it('rejects a missing file with its code', async () => {
    const { api } = client(json(404, { error: { code: 'not_found', message: 'No such file.' } }));
    const error = await api.getRaw('/files/abc').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('fitsKeepalive', () => {
  it('accepts small bodies and refuses those over the limit in UTF-8 bytes', () => {
    expect(fitsKeepalive('{"a":1}')).toBe(true);
    expect(fitsKeepalive('x'.repeat(KEEPALIVE_MAX_BYTES + 1))).toBe(false);
    // 30,000 characters of three bytes each: small in characters, too large in bytes.
    expect(fitsKeepalive('€'.repeat(30_000))).toBe(false);
    expect(fitsKeepalive('€'.repeat(20_000))).toBe(true);
  });
});

describe('signInUrl', () => {
  it('returns to the page with its query', () => {
    expect(signInUrl('/d/1?q=a b')).toBe('/auth/login?returnTo=%2Fd%2F1%3Fq%3Da%20b');
  });
});

describe('createApiClient without zod', () => {
  it('reads an answer with a check of its own without loading the schemas', async () => {
    const loadSchemas = vi.fn(() => import('./apiSchemas.ts'));
    const api = createApiClient({
      fetch: fakeFetch(json(200, { n: 2 })).fetch,
      loadSchemas,
      onUnauthenticated: vi.fn(),
    });
    const answer = await api.get('/api/n', {
      parse: (data) => data as { n: number },
    });
    expect(answer.n).toBe(2);
    expect(loadSchemas).not.toHaveBeenCalled();
  });

  it('sends a state-changing request before the schemas have loaded', async () => {
    const double = fakeFetch(new Response(null, { status: 204 }));
    const api = createApiClient({
      fetch: double.fetch,
      loadSchemas: () => new Promise(() => undefined),
      onUnauthenticated: vi.fn(),
    });
    void api.delete('/api/documents/x', { keepalive: true });
    // No await in between: a keepalive request on pagehide must leave at once.
    expect(double.calls).toHaveLength(1);
    expect((double.calls[0]?.init.headers as Record<string, string>)['X-Inkwell-Request']).toBe(
      '1',
    );
  });

  it('loads the schemas to read an error answer', async () => {
    const loadSchemas = vi.fn(() => import('./apiSchemas.ts'));
    const api = createApiClient({
      fetch: fakeFetch(json(404, { error: { code: 'not_found', message: 'Gone.' } })).fetch,
      loadSchemas,
      onUnauthenticated: vi.fn(),
    });
    const failure = api.get('/api/n', { parse: (data) => data });
    await expect(failure).rejects.toMatchObject({ code: 'not_found', message: 'Gone.' });
    expect(loadSchemas).toHaveBeenCalledTimes(1);
  });
});
