import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { csrfProtection } from './middleware/csrf.ts';
import { requestSession, requireSession, type RouteKey } from './middleware/session.ts';
import { aiRoutes } from './routes/ai.ts';
import { authRoutes } from './routes/auth.ts';
import { collabRoutes } from './routes/collab.ts';
import { configRoutes } from './routes/config.ts';
import { documentRoutes } from './routes/documents.ts';
import { fileRoutes } from './routes/files.ts';
import { linkRoutes } from './routes/links.ts';
import { publishedRoutes } from './routes/published.ts';
import { sessionRoutes } from './routes/session.ts';
import { sharingRoutes } from './routes/sharing.ts';
import { versionRoutes } from './routes/versions.ts';
import { vaultRoutes } from './routes/vault.ts';
import type { AppEnv, Services } from './services.ts';
import {
  createErrorHandler,
  errorResponse,
  InvalidRequestError,
  NotFoundError,
  notFoundHandler,
} from './errors.ts';

/**
 * Where `vite build` writes the client, dist/client: beside the compiled server (dist/server/app.js)
 * or, when the sources run through tsx (server/app.ts), under the package root.
 */
export const DEFAULT_CLIENT_DIR = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../dist/client' : '../client', import.meta.url),
);

/** Longest request URL the app answers; browsers and proxies stop well before this. */
export const MAX_URL_LENGTH = 8192;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** API routes anyone may call without a session; every other `/api` route needs one. */
export const PUBLIC_API_ROUTES: readonly RouteKey[] = [];

/**
 * API routes that answer 401 `unauthenticated` themselves, so the general session check skips
 * them: the AI route looks its session up in the same query that admits the request, and a
 * second lookup would cost every AI request a round trip.
 */
export const SELF_AUTHENTICATING_API_ROUTES: readonly RouteKey[] = ['POST /api/ai/generate'];

/** What `createApp` takes besides its services; tests use it to point at their own files. */
export interface AppOptions {
  /** Folder of the built client; defaults to `dist/client`. */
  clientDir?: string;
}

/**
 * The Inkwell HTTP app: health check, sign-in, the API, and the built client with its SPA
 * fallback. The embedded identity provider is not in here: it is a Koa app, and the Node server
 * (server/startServer.ts) hands it the requests under `/idp` before they reach Hono.
 */
export function createApp(services: Services, options: AppOptions = {}): Hono<AppEnv> {
  const clientDir = options.clientDir ?? DEFAULT_CLIENT_DIR;
  const log = services.logger;
  const app = new Hono<AppEnv>();

  app.onError(createErrorHandler(log));
  app.notFound(notFoundHandler);

  app.use(
    secureHeaders({
      referrerPolicy: 'strict-origin-when-cross-origin',
      // HSTS belongs to whatever terminates TLS; from http://localhost it would only mislead.
      strictTransportSecurity: false,
      // A route that sends its own policy keeps it: the published page's is stricter.
      overwrite: false,
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Tiptap and the editor's menus position themselves with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Documents show images from any web host and play YouTube through youtube-nocookie; an
        // image being uploaded shows its local copy (a blob: address) until the server has it.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        mediaSrc: ["'self'", 'https:'],
        frameSrc: ['https://www.youtube-nocookie.com'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        connectSrc: ["'self'"],
      },
    }),
  );
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    log.debug('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms });
  });
  app.use(async (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH) {
      return errorResponse(c, InvalidRequestError('The URL is too long.'));
    }
    await next();
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.route('/', authRoutes(services));
  // Public, outside /api (no session, no CSRF check), and before the client's fallback.
  app.route('/', publishedRoutes(services));
  app.use('/api/*', csrfProtection(new URL(services.publicUrl).origin));
  // Before every API route, so a route added later is closed unless it is listed.
  app.use(
    '/api/*',
    requireSession(services, [...PUBLIC_API_ROUTES, ...SELF_AUTHENTICATING_API_ROUTES]),
  );
  app.route('/', aiRoutes(services));
  app.route('/', sessionRoutes(services));
  app.route('/', documentRoutes(services));
  app.route('/', linkRoutes(services));
  app.route('/', sharingRoutes(services));
  app.route('/', versionRoutes(services));
  app.route('/', fileRoutes(services));
  app.route('/', configRoutes(services));
  app.route('/', vaultRoutes(services));
  app.route('/', collabRoutes(services));

  // Stays after every API route, so that no /api request ever falls through to the client.
  app.all('/api/*', () => {
    throw NotFoundError('There is no such API endpoint.');
  });

  if (existsSync(join(clientDir, 'index.html'))) {
    serveClient(app, clientDir, services);
  } else {
    log.info(
      `No client build in ${clientDir}: run npm run build (npm run dev serves it from Vite).`,
    );
  }
  return app;
}

/** The built client: hashed assets cached for good, everything else revalidated, SPA fallback. */
function serveClient(app: Hono<AppEnv>, clientDir: string, services: Services): void {
  app.use('/assets/*', withCacheControl(IMMUTABLE, serveStatic({ root: clientDir })));
  // A missing hashed asset is a stale tab after a deploy; HTML in its place would only confuse it.
  app.all('/assets/*', () => {
    throw NotFoundError();
  });
  const serveIndex = withCacheControl(
    REVALIDATE,
    serveStatic({ root: clientDir, path: 'index.html' }),
  );
  const canonical = new URL(services.publicUrl);
  app.get('*', async (c, next) => {
    if (!acceptsHtml(c.req.header('Accept')) || !isAppRoute(c.req.path)) return next();
    const url = new URL(c.req.url);
    const pathAndQuery = `${url.pathname}${url.search}`;
    // Sign-in cookies and the provider's redirects are bound to one host name: opened as
    // 127.0.0.1 while the app is localhost, nobody could sign in. Only for the default address,
    // as behind a proxy the Host header may differ from PUBLIC_URL by design.
    if (!services.config.publicUrl && c.req.header('Host') !== canonical.host) {
      return c.redirect(`${canonical.origin}${pathAndQuery}`);
    }
    // A signed-out visitor goes through sign-in and comes back here (docs/PRODUCT.md "Screens and
    // routes").
    if (!(await requestSession(c, services))) {
      return c.redirect(`/auth/login?returnTo=${encodeURIComponent(pathAndQuery)}`);
    }
    return serveIndex(c, next);
  });
  // After the page routes: `/` is also a folder with an index.html, which must not skip sign-in.
  app.use('*', withCacheControl(REVALIDATE, serveStatic({ root: clientDir })));
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
