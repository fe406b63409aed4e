import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from './config.ts';
import {
  createErrorHandler,
  errorResponse,
  InvalidRequestError,
  NotFoundError,
  notFoundHandler,
} from './errors.ts';
import { createLogger, type Logger } from './logger.ts';

/** Where `vite build` writes the client. */
export const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

/** Longest request URL the app answers; browsers and proxies stop well before this. */
export const MAX_URL_LENGTH = 8192;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** What `createApp` takes besides the configuration; tests use it to point at their own files. */
export interface AppOptions {
  /** Folder of the built client; defaults to `dist/client`. */
  clientDir?: string;
  /** Where to log; defaults to stdout/stderr at `config.logLevel`. */
  logger?: Logger;
}

/** The Inkwell HTTP app: health check, the API, and the built client with its SPA fallback. */
export function createApp(config: Config, options: AppOptions = {}): Hono {
  const clientDir = options.clientDir ?? DEFAULT_CLIENT_DIR;
  const log = options.logger ?? createLogger(config.logLevel);
  const app = new Hono();

  app.onError(createErrorHandler(log));
  app.notFound(notFoundHandler);

  app.use(
    secureHeaders({
      referrerPolicy: 'strict-origin-when-cross-origin',
      // HSTS belongs to whatever terminates TLS; from http://localhost it would only mislead.
      strictTransportSecurity: false,
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Tiptap and the editor's menus position themselves with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Documents show images from any web host and play YouTube through youtube-nocookie.
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        mediaSrc: ["'self'", 'https:'],
        frameSrc: ['https://www.youtube-nocookie.com'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        connectSrc: ["'self'"],
      },
    }),
  );
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    log.debug(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  });
  app.use(async (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH) {
      return errorResponse(c, InvalidRequestError('The URL is too long.'));
    }
    await next();
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  // Stays after every API route, so that no /api request ever falls through to the client.
  app.all('/api/*', () => {
    throw NotFoundError('There is no such API endpoint.');
  });

  if (existsSync(join(clientDir, 'index.html'))) {
    serveClient(app, clientDir);
  } else {
    log.info(
      `No client build in ${clientDir}: run npm run build (npm run dev serves it from Vite).`,
    );
  }
  return app;
}

/** The built client: hashed assets cached for good, everything else revalidated, SPA fallback. */
function serveClient(app: Hono, clientDir: string): void {
  app.use('/assets/*', withCacheControl(IMMUTABLE, serveStatic({ root: clientDir })));
  // A missing hashed asset is a stale tab after a deploy; HTML in its place would only confuse it.
  app.all('/assets/*', () => {
    throw NotFoundError();
  });
  app.use('*', withCacheControl(REVALIDATE, serveStatic({ root: clientDir })));

  const serveIndex = withCacheControl(
    REVALIDATE,
    serveStatic({ root: clientDir, path: 'index.html' }),
  );
  app.get('*', async (c, next) => {
    if (!acceptsHtml(c.req.header('Accept')) || !isAppRoute(c.req.path)) return next();
    return serveIndex(c, next);
  });
}

/** Sets `Cache-Control` on what `serve` finds, leaving the 404 that follows a miss alone. */
function withCacheControl(value: string, serve: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    const res = await serve(c, next);
    // On a miss, serveStatic returns whatever next() gave back, which is not a Response.
    if (res instanceof Response) res.headers.set('Cache-Control', value);
    return res;
  };
}

function acceptsHtml(accept: string | undefined): boolean {
  return accept?.toLowerCase().includes('text/html') ?? false;
}

/** Client routes are plain paths such as `/d/<uuid>`; anything with a file extension is a file. */
function isAppRoute(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}
