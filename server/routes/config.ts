import { Hono } from 'hono';
import type { ConfigResponse } from '../../common/api/config.ts';
import { DEFAULT_LIMITS } from '../../common/api/limits.ts';
import type { AppEnv, Services } from '../services.ts';

/**
 * `GET /api/config`: whether AI is on and with which model, and the limits the server enforces.
 * Mounted behind `requireSession`; the provider's address and key never leave the server.
 */
export function configRoutes(services: Services): Hono<AppEnv> {
  const { config } = services;
  const body: ConfigResponse = {
    ai: {
      enabled: config.ai.provider !== undefined,
      model: config.ai.provider?.model ?? null,
    },
    limits: {
      documentBytes: config.documentMaxBytes,
      titleChars: DEFAULT_LIMITS.titleChars,
      importBytes: DEFAULT_LIMITS.importBytes,
      aiInputChars: config.ai.maxInputChars,
      fileBytes: config.files.maxBytes,
    },
  };
  const app = new Hono<AppEnv>();
  app.get('/api/config', (c) => c.json(body));
  return app;
}
