import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { freePort } from './freePort.ts';

/** Debian's Redis server (apt-get install redis-server). */
export const REDIS_SERVER = '/usr/bin/redis-server';

/** A throwaway Redis started by {@link startRedis}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Its process id, for a benchmark that counts its CPU. */
  pid: number | undefined;
  /** Stops it and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts Redis on a free loopback port with nothing written to disk (no snapshot, no append-only
 * file, run from the temp folder), and resolves once it accepts connections.
 */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--dir', tmpdir()],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test process that dies before its teardown must not leave Redis running.
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  void exited.then(() => process.off('exit', killAtExit));
  let printed = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        printed += chunk;
        if (printed.includes('Ready to accept connections')) resolve();
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
      child.once('error', reject);
      void exited.then(() => reject(new Error(`redis-server exited:\n${printed}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
