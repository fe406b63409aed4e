import { Agent, request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createErrorHandler } from '../errors.ts';
import { createLogger } from '../logger.ts';
import type { AppEnv } from '../services.ts';
import { limitBody, readJson } from './readJson.ts';

const MAX_BYTES = 1024;
const schema = z.object({ text: z.string() });

function testApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(createErrorHandler(createLogger('silent')));
  app.post('/echo', limitBody(MAX_BYTES, 'The note'), async (c) => {
    const { text } = await readJson(c, schema);
    // Read from Node's stream, the Web Request's body is left alone.
    return c.json({ text, webBodyUsed: c.req.raw.bodyUsed });
  });
  return app;
}

interface Answer {
  status: number;
  body: string;
}

/** A raw HTTP request, so that the body can be chunked, cut short or lie about nothing. */
function send(
  port: number,
  headers: Record<string, string>,
  write: (req: ReturnType<typeof httpRequest>) => void,
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/echo', method: 'POST', headers, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    write(req);
  });
}

describe('limitBody and readJson behind Node’s server', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer(getRequestListener(testApp().fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads the body from the socket stream, multi-byte characters split across chunks', async () => {
    const bytes = Buffer.from(JSON.stringify({ text: 'naïve café ✓ 🎉' }));
    const answer = await send(port, { 'Content-Type': 'application/json' }, (req) => {
      // Cut inside the four bytes of the emoji.
      const cut = bytes.indexOf(Buffer.from('🎉')) + 2;
      req.write(bytes.subarray(0, cut));
      setTimeout(() => req.end(bytes.subarray(cut)), 20);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ text: 'naïve café ✓ 🎉', webBodyUsed: false });
  });

  it('refuses a declared length over the limit with 413 before reading it', async () => {
    const answer = await send(
      port,
      { 'Content-Type': 'application/json', 'Content-Length': String(MAX_BYTES + 1) },
      (req) => req.end('x'.repeat(MAX_BYTES + 1)),
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'payload_too_large', message: 'The note is larger than 1 KB.' },
    });
  });

  it('refuses a chunked body with 413 once it streams past the limit', async () => {
    const answer = await send(
      port,
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      (req) => {
        const chunk = 'y'.repeat(300);
        for (let i = 0; i < 5; i++) req.write(chunk);
        req.end();
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toContain('payload_too_large');
  });

  it('keeps the connection usable after refusing a body that streamed past the limit', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let sockets = 0;
    server.on('connection', () => sockets++);
    try {
      const refused = await send(
        port,
        { 'Transfer-Encoding': 'chunked' },
        (req) => req.end('z'.repeat(MAX_BYTES * 3)),
        agent,
      );
      expect(refused.status).toBe(413);
      const next = await send(port, {}, (req) => req.end('{"text":"next"}'), agent);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body).text).toBe('next');
      expect(sockets).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('answers 400 for a body that is not JSON, or not the expected shape', async () => {
    const notJson = await send(port, { 'Content-Type': 'application/json' }, (req) =>
      req.end('{"text": '),
    );
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.message).toBe('The request body is not valid JSON.');
    const wrongShape = await send(port, { 'Content-Type': 'application/json' }, (req) =>
      req.end('{"text": 7}'),
    );
    expect(wrongShape.status).toBe(400);
    expect(JSON.parse(wrongShape.body).error.message).toMatch(/^text: /);
  });

  it('keeps serving after a client that stopped sending mid-body', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/echo',
        method: 'POST',
        headers: { 'Content-Length': '500' },
      });
      req.on('error', () => resolve());
      req.write('{"text": "half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    const answer = await send(port, {}, (req) => req.end('{"text":"after"}'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).text).toBe('after');
  });
});

describe('limitBody and readJson in process (no Node request)', () => {
  const app = testApp();

  it('reads the body from the Web stream', async () => {
    const res = await app.request('/echo', { method: 'POST', body: '{"text":"in process"}' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { text: string }).text).toBe('in process');
  });

  it('refuses a streamed body over the limit with 413', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new Uint8Array(400).fill(0x61));
        controller.close();
      },
    });
    const res = await app.request('/echo', {
      method: 'POST',
      body: stream,
      // @ts-expect-error: Node's fetch needs `duplex` for a stream body; lib.dom lacks it.
      duplex: 'half',
    });
    expect(res.status).toBe(413);
  });
});

describe('readJson on deeply nested JSON', () => {
  it('reads a body nested a million levels deep: JSON.parse does not recurse', async () => {
    // What the documents API relies on: depth is checked after parsing (MAX_DEPTH), so the
    // parse itself must survive any nesting that fits in the body limit (V8's parser keeps
    // its own stack; JSON.stringify, by contrast, overflows near 10,000 levels).
    const levels = 1_000_000;
    const app = new Hono<AppEnv>();
    app.onError(createErrorHandler(createLogger('silent')));
    app.post('/deep', limitBody(5 * 1024 * 1024, 'The document'), async (c) => {
      let node: unknown = await readJson(c, z.array(z.unknown()));
      let depth = 0;
      while (Array.isArray(node)) [node, depth] = [node[0], depth + 1];
      return c.json({ depth });
    });
    const body = '['.repeat(levels) + ']'.repeat(levels);
    const res = await app.request('/deep', { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ depth: levels });
  });
});
