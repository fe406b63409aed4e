import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

/** How long open requests get to finish after SIGTERM/SIGINT before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const config = readConfig();
const log = createLogger(config.logLevel);
const app = createApp(config, { logger: log });

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  log.info(`Inkwell listening on http://localhost:${info.port}`);
});

server.on('error', (error) => {
  log.error('The server could not start.', error);
  process.exit(1);
});

let stopping = false;
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received, shutting down.`);
  const force = setTimeout(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  server.close((error) => {
    if (error) log.error('Shutdown failed.', error);
    process.exit(error ? 1 : 0);
  });
  // Keep-alive connections with no request in flight would otherwise hold close() open.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
}

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
