import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The repository root, so the harness works from any working directory. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where screenshots go (gitignored). */
export const ARTIFACTS_DIR = join(ROOT, '.tmp', 'e2e');

/** Debian's chromium; browsers are never downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The variable through which `e2e/run.ts` hands the running server's URL to the test files. */
export const URL_VARIABLE = 'INKWELL_E2E_URL';

/** Flags for Debian's chromium here: headless, as root, and quiet on a closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  // Containers and CI run as root, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Chromium's own traffic (updates, sync, field trials) has no place in a test run.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts Debian's chromium headless. Playwright gives every launch a fresh profile in a temporary
 * folder and deletes it on `close()`, so runs never share cookies, storage or cache.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A server started by `startServer`. */
export interface RunningServer {
  /** Its base URL, such as `http://localhost:41234`. */
  url: string;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<void>;
}

/** Options of `startServer`. */
export interface StartServerOptions {
  /** Extra environment variables for the server. */
  env?: Record<string, string>;
  /** How long to wait for the server to answer /healthz. */
  timeoutMs?: number;
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

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${timeoutMs} ms`)),
      timeoutMs,
    );
    let pending: string | null = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      process.stdout.write(chunk.replace(/^(?=.)/gm, '[server] '));
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
  });
  await waitForHealth(url, timeoutMs);

  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`server exited with code ${code}`);
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

/** The URL of the server `e2e/run.ts` started for this run. */
export function appUrl(): string {
  const url = process.env[URL_VARIABLE];
  if (!url) throw new Error(`${URL_VARIABLE} is not set: run browser tests with npm run test:e2e`);
  return url;
}

/** Saves a full-page screenshot as `.tmp/e2e/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Collects what would otherwise fail silently in the page: uncaught exceptions and console
 * errors (Content-Security-Policy violations among them).
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Chromium asks for /favicon.ico on its own; whether the app has one is not the page's error.
    if (message.type() !== 'error' || message.location().url.endsWith('/favicon.ico')) return;
    errors.push(`console: ${message.text()}`);
  });
  return errors;
}
