import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startServer, type RunningServer } from './startServer.ts';

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

let running: RunningServer;
try {
  running = await startServer(config, { logger: log });
} catch (error) {
  log.error('The server could not start.', error);
  process.exit(1);
}

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received: finishing requests in flight, then closing the database.`);
  try {
    await running.close();
    process.exit(0);
  } catch (error) {
    log.error('Shutdown failed.', error);
    process.exit(1);
  }
}

process.on('SIGTERM', (signal) => void shutdown(signal));
process.on('SIGINT', (signal) => void shutdown(signal));
