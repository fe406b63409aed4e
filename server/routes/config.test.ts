import { expect, it } from 'vitest';
import { configResponseSchema } from '../../common/api/config.ts';
import { loadConfig } from '../config.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';

const SECRET_KEY = 'sk-config-test-0a9b8c7d6e5f';
const BASE_URL = 'https://llm.internal.example/v1';

describeWithServer(
  'GET /api/config with AI on',
  (context) => {
    it('says AI is on with its model, and the limits, but never the key or the address', async () => {
      const { client } = await signedInUser(context().server, context().db);
      const res = await client.request('GET', '/api/config');
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(configResponseSchema.parse(JSON.parse(text))).toEqual({
        ai: { enabled: true, model: 'gpt-4o-mini' },
        limits: {
          documentBytes: 1024 * 1024,
          titleChars: 200,
          importBytes: 10 * 1024 * 1024,
          aiInputChars: 8000,
          fileBytes: 20 * 1024 * 1024,
        },
      });
      expect(text).not.toContain(SECRET_KEY);
      expect(text).not.toContain('llm.internal');
    });
  },
  {
    documentMaxBytes: 1024 * 1024,
    ai: loadConfig({
      AI_BASE_URL: BASE_URL,
      AI_API_KEY: SECRET_KEY,
      AI_MODEL: 'gpt-4o-mini',
      AI_MAX_INPUT_CHARS: '8000',
    }).ai,
  },
);

describeWithServer('GET /api/config with AI off', (context) => {
  it('says AI is off, with the default limits', async () => {
    const { client } = await signedInUser(context().server, context().db);
    const res = await client.request('GET', '/api/config');
    expect(await res.json()).toEqual({
      ai: { enabled: false, model: null },
      limits: {
        documentBytes: 5 * 1024 * 1024,
        titleChars: 200,
        importBytes: 10 * 1024 * 1024,
        aiInputChars: 24_000,
        fileBytes: 20 * 1024 * 1024,
      },
    });
  });

  it('needs a session', async () => {
    const res = await fetch(new URL('/api/config', context().server.url));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});
