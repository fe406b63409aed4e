/**
 * `npm run dev`: the API server under `tsx watch` on port 3000 and the Vite dev server on 5173,
 * which proxies /api and /healthz to it (vite.config.ts). When either stops, both stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnv } from './env.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/**
 * Each child gets its own process group, so Ctrl-C reaches only this script, which then stops each
 * child once: a second signal makes tsx watch kill the server without its graceful shutdown.
 * Their stdin is closed because a background process group that reads the terminal is stopped.
 */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(bin(command), args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

// The port is fixed because the Vite proxy points at http://localhost:3000.
const children = [
  start(
    'tsx',
    ['watch', '--clear-screen=false', 'server/main.ts'],
    childEnv({ PORT: '3000', NODE_ENV: 'development' }),
  ),
  start('vite', [], childEnv({})),
];

let exitCode: number | undefined;
function stopAll(code: number): void {
  if (exitCode !== undefined) return;
  exitCode = code;
  for (const child of children) if (running(child)) child.kill('SIGTERM');
}

for (const child of children) {
  child.once('error', (error) => {
    console.error(error.message);
    stopAll(1);
  });
  child.once('exit', (code) => {
    stopAll(code ?? 0);
    if (!children.some(running)) process.exit(exitCode);
  });
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stopAll(0));
// Should this script die on an error of its own, the detached children must not outlive it.
process.on('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGKILL');
});
