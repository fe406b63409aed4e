import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './paths.ts';

/** A Node process started by a benchmark, printing a line once it is ready. */
export interface NodeChild {
  child: ChildProcess;
  /** The match of the ready pattern in what it printed. */
  ready: RegExpExecArray;
  /** Resolves with the exit code (null after a signal) once it has ended. */
  exited: Promise<number | null>;
  /** Everything it printed, for failure messages. */
  output(): string;
}

/** Children still running; killed when the bench process exits, however it exits. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Remembers `child` until it exits, so that a crashed benchmark leaves no process behind. */
export function track(child: ChildProcess): Promise<number | null> {
  running.add(child);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
}

/**
 * Runs `node <args>` from the repository root with `env` on top of this process's environment;
 * resolves once its output matches `ready`, rejects if it exits or takes longer than `timeoutMs`.
 */
export async function spawnNode(
  args: readonly string[],
  ready: RegExp,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<NodeChild> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = track(child);
  let printed = '';
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')}: not ready in ${timeoutMs} ms:\n${printed}`));
    }, timeoutMs);
    const read = (chunk: string) => {
      printed += chunk;
      const match = ready.exec(printed);
      if (!match) return;
      clearTimeout(timer);
      resolve(match);
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    // `close`, not `exit`: by then everything it printed has been read, a last `ready` included.
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`node ${args.join(' ')} exited with ${code} before it was ready:\n${printed}`),
      );
    });
  });
  return { child, ready: await matched, exited, output: () => printed };
}

/** Asks a child to stop (SIGTERM), kills it if it has not after `graceMs`, and waits for its end. */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs = 15_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
