import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Inkwell running as its own process, as `npm start` runs it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** Everything it printed, for failure messages. */
  output(): string;
}

/** Starts `server/main.ts` with `env` on top of this process's environment; resolves once it listens. */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never came up must not outlive the test that started it.
      child.kill('SIGKILL');
      reject(new Error(`no start in ${timeoutMs} ms:\n${printed}`));
    }, timeoutMs);
    const check = () => {
      const match = /Inkwell listening on (http:\/\/[^\s"]+)/.exec(printed);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve(match[1]);
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${printed}`));
    });
  });
  return { url, child, exited, output: () => printed };
}
