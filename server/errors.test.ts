import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describe, expect, it } from 'vitest';
import {
  createErrorHandler,
  InvalidDocumentError,
  RateLimitedError,
  VersionConflictError,
} from './errors.ts';
import type { Logger } from './logger.ts';

function appThrowing(error: unknown) {
  const logged: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message, cause) => logged.push(`${message} ${String(cause)}`),
  };
  const app = new Hono();
  app.onError(createErrorHandler(logger));
  app.post('/limited', bodyLimit({ maxSize: 4 }), (c) => c.text('ok'));
  app.get('/boom', () => {
    throw error;
  });
  return { app, logged };
}

describe('createErrorHandler', () => {
  it('writes a named error as { error: { code, message } } with its status', async () => {
    const { app } = appThrowing(InvalidDocumentError('Headings go from 1 to 6.'));
    const res = await app.request('/boom');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_document', message: 'Headings go from 1 to 6.' },
    });
  });

  it('adds the details of a version conflict to the error object', async () => {
    const { app } = appThrowing(VersionConflictError({ version: 7 }));
    const res = await app.request('/boom');
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: {
        code: 'version_conflict',
        message: 'The document was changed elsewhere.',
        current: { version: 7 },
      },
    });
  });

  it('sends Retry-After with rate_limited', async () => {
    const { app } = appThrowing(RateLimitedError(2.2));
    const res = await app.request('/boom');
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('3');
  });

  it('hides an unexpected error behind 500 internal and logs it', async () => {
    const { app, logged } = appThrowing(new Error('password=hunter2 at db.ts:12'));
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal', message: 'Something went wrong on the server.' },
    });
    expect(text).not.toContain('hunter2');
    expect(logged.join('\n')).toContain('hunter2');
  });

  it("maps Hono's own HTTP exceptions to our codes", async () => {
    const { app } = appThrowing(null);
    const res = await app.request('/limited', { method: 'POST', body: 'far too long' });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });
});
