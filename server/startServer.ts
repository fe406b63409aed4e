import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { createApp } from './app.ts';
import { createEmbeddedIdp } from './auth/idp/embeddedIdp.ts';
import { CollabEngine } from './collab/collabEngine.ts';
import { RelyingParty, type ProviderSettings } from './auth/relyingParty.ts';
import { deleteExpired } from './auth/sessions.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { DocumentStore } from './documents/documentStore.ts';
import { createFileStorage } from './files/createFileStorage.ts';
import { VersionStore } from './versions/versionStore.ts';
import { sweepFiles } from './files/sweepFiles.ts';
import { createLogger, type Logger } from './logger.ts';
import { SessionCache } from './auth/sessionCache.ts';
import { ShareTokens } from './sharing/tokens.ts';
import type { Services } from './services.ts';

/** How long requests in flight (saves above all) get to finish after a stop before they are cut. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often expired sessions and abandoned sign-ins are swept. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** How often saved documents are indexed for excerpts and search (listing also does it). */
const INDEX_INTERVAL_MS = 15_000;

/** What `startServer` takes besides the configuration; tests use it to share a database. */
export interface StartOptions {
  logger?: Logger;
  /** Folder of the built client; defaults to `dist/client`. */
  clientDir?: string;
  /** An open, migrated database to use instead of the one the configuration names; not closed on stop. */
  database?: Database;
}

/** A running Inkwell server. */
export interface RunningServer {
  /** The address it serves, e.g. `http://localhost:3000`. */
  url: string;
  services: Services;
  server: Server;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * Opens and migrates the database, listens, then sets up sign-in (which needs the port when it is
 * picked at random) and the app. Until then requests get 503.
 */
export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const db = options.database ?? (await openConfiguredDatabase(config, logger));
  let inFlight = 0;
  let handler = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' }).end('Starting up.');
  };
  let appFetch: ((request: Request, env: object) => Response | Promise<Response>) | undefined;
  let appListener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  // @hono/node-server upgrades WebSockets itself (`upgradeWebSocket` in the app), with a `ws`
  // server that only completes handshakes: the app's session and Origin checks run first. Its
  // maxPayload closes a socket whose message is larger (1009) before the message is buffered.
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: config.collab.maxMessageBytes,
  });
  const server = createAdaptorServer({
    fetch: (request, env) =>
      appFetch
        ? appFetch(request, env)
        : new Response('Starting up.', { status: 503, headers: { 'Retry-After': '1' } }),
    websocket: { server: sockets },
    createServer: ((options: object, listener: typeof appListener) => {
      appListener = listener;
      return createServer(options, (req, res) => {
        inFlight += 1;
        res.on('close', () => {
          inFlight -= 1;
        });
        handler(req, res);
      });
    }) as unknown as typeof createServer,
  }) as Server;
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(config.port, config.host, () => {
        server.off('error', fail);
        done();
      });
    });
    const { port } = server.address() as AddressInfo;
    const publicUrl = config.publicUrl ?? `http://localhost:${port}`;
    const idp = config.oidc
      ? undefined
      : await createEmbeddedIdp({
          db,
          publicUrl,
          logger,
          signupsPerHour: config.idpSignupsPerHour,
          trustProxy: config.trustProxy,
        });
    const provider: ProviderSettings = idp
      ? {
          kind: 'embedded',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          tokenAuthMethod: undefined,
        }
      : { kind: 'hosted', ...config.oidc! };
    const services: Services = {
      config,
      publicUrl,
      db,
      files: await createFileStorage(config.files, db),
      logger,
      relyingParty: new RelyingParty(provider, publicUrl, logger),
      shareTokens: await ShareTokens.load(db),
      sessionCache: db.kind === 'pglite' ? new SessionCache() : undefined,
      collab: new CollabEngine(db, logger, {
        redisUrl: config.collab.redisUrl,
        documentMaxBytes: config.documentMaxBytes,
        versionTiming: config.collab.versionTiming,
      }),
    };
    services.collab
      ?.recover()
      .catch((error: unknown) => logger.warn('Recovering live documents failed.', { err: error }));
    const app = createApp(services, { clientDir: options.clientDir });
    appFetch = (request, env) => app.fetch(request, env);
    handler = (req, res) => {
      if (idp && (req.url === '/idp' || req.url?.startsWith('/idp/'))) idp.handle(req, res);
      else appListener?.(req, res);
    };
    const sweep = setInterval(() => {
      deleteExpired(db).catch((error: unknown) =>
        logger.warn('Sweeping sessions failed.', { err: error }),
      );
      // Versions first: a file only a thinned version named goes in the same sweep.
      new VersionStore(db)
        .thin()
        .catch((error: unknown) => logger.warn('Thinning versions failed.', { err: error }))
        .then(() => sweepFiles(db, services.files))
        .catch((error: unknown) => logger.warn('Sweeping files failed.', { err: error }));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    const documents = new DocumentStore(db);
    const indexer = setInterval(() => {
      documents
        .index()
        .catch((error: unknown) => logger.warn('Indexing documents failed.', { err: error }));
    }, INDEX_INTERVAL_MS);
    indexer.unref();

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        clearInterval(sweep);
        clearInterval(indexer);
        // Live documents are stored before the database closes; their sockets are closed, as
        // upgraded sockets are no longer the HTTP server's to wait for.
        await services.collab?.close();
        const closed = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        const deadline = Date.now() + SHUTDOWN_GRACE_MS;
        while (inFlight > 0 && Date.now() < deadline) {
          await new Promise((wait) => setTimeout(wait, 20));
        }
        server.closeAllConnections();
        await closed;
        services.files.close();
        if (!options.database) await db.close();
      })());
    logger.info(`Inkwell listening on ${publicUrl}`, {
      database: db.kind,
      identityProvider: provider.kind,
    });
    return { url: publicUrl, services, server, close };
  } catch (error) {
    server.close();
    if (!options.database) await db.close();
    throw error;
  }
}

async function openConfiguredDatabase(config: Config, logger: Logger): Promise<Database> {
  const db = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: resolve(config.dataDir) },
  );
  try {
    const applied = await migrate(db);
    if (applied.length > 0) logger.info('Database migrated.', { applied });
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
