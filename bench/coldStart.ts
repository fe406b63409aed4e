import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_DIR, buildApp } from './app.ts';
import { spawnNode, stopChild } from './childProcess.ts';
import { printFigures, table, type BenchReport, type Figure } from './report.ts';
import { formatMs, median } from './stats.ts';

const RUNS = 3;
const BASELINE = 'bare runtime + PGlite';
/** Sign-in takes a signed-out visitor through a few redirects; more means a loop. */
const MAX_REDIRECTS = 10;

/** Milliseconds from spawning the server to each step, one entry per run. */
interface Steps {
  listening: number[];
  healthz: number[];
  /** `/` answered 200, after any redirects. */
  root: number[];
  /** Then the provider's sign-in page, reached from `/auth/login`, answered 200. */
  signIn: number[];
}

const steps = (): Steps => ({ listening: [], healthz: [], root: [], signIn: [] });

/** A page reached by following redirects. */
interface Landing {
  /** The path that answered 200. */
  path: string;
  html: string;
}

/**
 * Follows redirects from `path` as a signed-out browser does, keeping cookies (the provider's
 * interaction page needs the cookie its redirect set); resolves with the page that answered 200.
 */
async function follow(url: string, path: string): Promise<Landing> {
  const cookies = new Map<string, string>();
  let next = new URL(path, url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await fetch(next, {
      redirect: 'manual',
      headers: {
        Accept: 'text/html',
        Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const split = pair.indexOf('=');
      cookies.set(pair.slice(0, split).trim(), pair.slice(split + 1));
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      next = new URL(location, next);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`${next.pathname} answered ${res.status}`);
    return { path: next.pathname, html };
  }
  throw new Error(`no page after ${MAX_REDIRECTS} redirects from ${path}`);
}

const isSignIn = (page: Landing) => page.path.startsWith('/idp/') && page.html.includes('<form');

/**
 * Starts `server/main.ts` on `dataDir`, times each step from the spawn, then stops it. Returns
 * where `/` led.
 */
async function startInkwell(dataDir: string, into: Steps): Promise<string> {
  const started = performance.now();
  const server = await spawnNode(
    ['--import', 'tsx', 'server/main.ts'],
    /Inkwell listening on (http:\/\/[^\s"]+)/,
    { env: { PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info' } },
  );
  try {
    into.listening.push(performance.now() - started);
    const url = server.ready[1]!;
    const health = await fetch(`${url}/healthz`);
    if (!health.ok) throw new Error(`/healthz answered ${health.status}`);
    into.healthz.push(performance.now() - started);
    const root = await follow(url, '/');
    into.root.push(performance.now() - started);
    const signIn = await follow(url, '/auth/login');
    if (!isSignIn(signIn)) throw new Error(`/auth/login led to ${signIn.path}, not sign-in`);
    into.signIn.push(performance.now() - started);
    return isSignIn(root) ? 'the sign-in page' : `${root.path} itself (the app shell)`;
  } finally {
    await stopChild(server.child, server.exited);
  }
}

/** Milliseconds from spawning `node <args>` to its printing `ready`. */
async function timeNode(args: string[]): Promise<number> {
  const started = performance.now();
  const child = await spawnNode(args, /ready/);
  const ready = performance.now() - started;
  await child.exited;
  return ready;
}

/**
 * Cold start to the first served page with the embedded provider and PGlite: `server/main.ts` on a
 * fresh data folder, then again on the data it left, each timed from the spawn to `/healthz`, to
 * the first page of `/` a signed-out visitor gets, and to the provider's sign-in page. The
 * baseline is the least such a process does: Node with tsx, and PGlite created or opened alike.
 */
export async function coldStart(): Promise<BenchReport> {
  // Without a client build `/` is not served at all.
  if (!existsSync(join(APP_DIR, 'index.html'))) await buildApp();
  const fresh = steps();
  const existing = steps();
  const runtime: number[] = [];
  const pgliteCreate: number[] = [];
  const pgliteOpen: number[] = [];
  let rootLeadsTo = '';
  for (let run = 0; run < RUNS; run++) {
    const base = await mkdtemp(join(tmpdir(), 'inkwell-bench-cold-'));
    try {
      const dataDir = join(base, 'inkwell');
      rootLeadsTo = await startInkwell(dataDir, fresh);
      await startInkwell(dataDir, existing);
      // Each process says `ready` at the point it is timed to, so all three are measured alike.
      runtime.push(await timeNode(['--import', 'tsx', '-e', 'console.log("ready")']));
      const bare = ['--import', 'tsx', 'bench/bareDatabaseStart.ts'];
      pgliteCreate.push(await timeNode([...bare, join(base, 'bare')]));
      pgliteOpen.push(await timeNode([...bare, dataDir]));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }

  const ms = (samples: number[]) => formatMs(median(samples));
  console.log(`Medians of ${RUNS} runs, from the spawn; a signed-out / led to ${rootLeadsTo}.`);
  console.log(
    table([
      ['step', 'fresh data folder', 'existing data'],
      ['Inkwell logs "listening"', ms(fresh.listening), ms(existing.listening)],
      ['Inkwell /healthz 200', ms(fresh.healthz), ms(existing.healthz)],
      ['Inkwell / 200 (first page)', ms(fresh.root), ms(existing.root)],
      ['Inkwell sign-in page 200', ms(fresh.signIn), ms(existing.signIn)],
      ['node --import tsx', ms(runtime), ms(runtime)],
      ['node --import tsx + PGlite', ms(pgliteCreate), ms(pgliteOpen)],
    ]),
  );
  const figures: Figure[] = [];
  for (const [name, measured, baseline] of [
    ['fresh', fresh, pgliteCreate],
    ['existing data', existing, pgliteOpen],
  ] as const) {
    for (const [what, samples] of [
      ['/healthz', measured.healthz],
      ['first page /', measured.root],
      ['sign-in page', measured.signIn],
    ] as const) {
      figures.push({
        label: `${name}: ${what}`,
        value: median(samples),
        baseline: median(baseline),
        unit: 'ms',
      });
    }
  }
  printFigures(figures, BASELINE);
  return { name: 'coldStart', baselineName: BASELINE, figures };
}
