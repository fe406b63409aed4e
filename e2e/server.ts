import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, so the harness works from any working directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The variable through which `e2e/run.ts` hands the running server's URL to the test files. */
export const URL_VARIABLE = 'INKWELL_E2E_URL';

/** A server started by `startServer`. */
export interface RunningServer {
  /** Its base URL, such as `http://localhost:41234`. */
  url: string;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
  /** Sends SIGKILL, as a crash or the OOM killer would, and waits for the process to end. */
  kill(): Promise<void>;
}

/** Options of `startServer`. */
export interface StartServerOptions {
  /** Extra environment variables for the server. */
  env?: Record<string, string>;
  /** How long to wait for the server to answer /healthz. */
  timeoutMs?: number;
  /**
   * Where this process answers, when `PUBLIC_URL` names an address that reaches another one
   * (several instances behind one public URL): /healthz is asked here. Defaults to the URL the
   * server announces.
   */
  directUrl?: string;
  /** Prefix of its output lines, to tell instances apart in the log (default `server`). */
  label?: string;
}

/**
 * Starts the built app (`server/main.ts` serving `dist/client`) on a free port and resolves once
 * `/healthz` answers. The server's output is passed through so failures show in the test log.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', NODE_ENV: 'test', ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  // A test file that dies before its `after` hooks must not leave its servers running.
  const killAtExit = () => child.kill('SIGKILL');
  process.once('exit', killAtExit);
  void exited.then(() => process.off('exit', killAtExit));
  const prefix = `[${options.label ?? 'server'}] `;

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${timeoutMs} ms`)),
      timeoutMs,
    );
    let pending: string | null = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      process.stdout.write(chunk.replace(/^(?=.)/gm, prefix));
      if (pending === null) return;
      pending += chunk;
      const match = /Inkwell listening on (http:\/\/[^\s"]+)/.exec(pending);
      if (match?.[1]) {
        pending = null;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening`));
    });
  }).catch((error: unknown) => {
    // A server that never came up must not outlive the test that started it.
    child.kill('SIGKILL');
    throw error;
  });
  try {
    await waitForHealth(options.directUrl ?? url, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`server exited with code ${code}`);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // Not accepting connections yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}/healthz did not answer in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
