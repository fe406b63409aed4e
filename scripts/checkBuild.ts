/**
 * `npm run test:build`: the production build works without the dev tools. Builds the app, copies
 * what a deployment keeps (dist/, package.json, package-lock.json, node_modules) into a temporary
 * folder, of node_modules only what `npm ci --omit=dev` installs, then starts
 * `node dist/server/main.js` in it and checks that it answers /healthz, sends a signed-out visitor
 * from `/` to the sign-in page, and serves a built asset. Offline. The folder is outside the
 * repository, where Node would otherwise find the dev packages in the repository's node_modules.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { childEnv } from './env.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 30_000;

function run(command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed`);
}

/** Starts the built server in `dir` and resolves with its URL and a function that stops it. */
async function startBuilt(dir: string) {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: dir,
    // Without the sources or tsx, nothing here can fall back on them.
    env: childEnv({ PORT: '0', DATA_DIR: join(dir, 'data'), NODE_ENV: 'production' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the built server did not start')),
      START_TIMEOUT_MS,
    );
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      process.stdout.write(chunk.replace(/^(?=.)/gm, '[server] '));
      output += chunk;
      const match = /Inkwell listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the built server exited with code ${code} before listening`));
    });
  });
  const stop = async () => {
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'the built server did not stop cleanly on SIGTERM');
  };
  return { url, stop };
}

/** Follows the redirects from `path` as a browser would, cookies included; the last answer. */
async function browse(base: string, path: string): Promise<Response> {
  const cookies = new Map<string, string>();
  let url = new URL(path, base);
  for (let hop = 0; hop < 10; hop += 1) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: { Accept: 'text/html', cookie } });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] ?? '';
      const equals = pair.indexOf('=');
      cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1));
    }
    const location = res.headers.get('Location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    url = new URL(location, url);
  }
  throw new Error(`${path} redirects more than 10 times`);
}

async function check(dir: string): Promise<void> {
  for (const devOnly of ['tsx', 'vite', 'typescript', 'vitest']) {
    assert.ok(
      !existsSync(join(dir, 'node_modules', devOnly)),
      `${devOnly} is in the production copy`,
    );
  }
  const assets = await readdir(join(dir, 'dist/client/assets'));
  const script = assets.find((name) => name.endsWith('.js'));
  assert.ok(script, 'the client build has no script in dist/client/assets');

  const server = await startBuilt(dir);
  try {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200, '/healthz');
    assert.deepEqual(await health.json(), { status: 'ok' });

    const home = await fetch(`${server.url}/`, {
      headers: { Accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(home.status, 302, '/ for a signed-out visitor');
    assert.match(home.headers.get('Location') ?? '', /^\/auth\/login\?returnTo=%2F$/);
    // The end of those redirects is the embedded provider's sign-in page, rendered in the build.
    const signIn = await browse(server.url, '/');
    assert.equal(signIn.status, 200, 'the sign-in page');
    assert.match(
      await signIn.text(),
      /<form method="post" action="\/idp\/interaction\/[^"]+\/login"/,
    );

    const asset = await fetch(`${server.url}/assets/${script}`);
    assert.equal(asset.status, 200, `/assets/${script}`);
    assert.match(asset.headers.get('Content-Type') ?? '', /javascript/);
    assert.ok((await asset.text()).length > 0, 'the asset is empty');
  } finally {
    await server.stop();
  }
}

run('npm', ['run', 'build']);
const dir = await mkdtemp(join(tmpdir(), 'inkwell-build-'));
try {
  for (const entry of ['dist', 'package.json', 'package-lock.json']) {
    await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  // The packages `npm ci --omit=dev` installs, as npm lists them from the lockfile, hard-linked:
  // quick, and nothing writes to them. (`npm prune` in a linked copy would rewrite the
  // repository's own node_modules/.package-lock.json through its link.)
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(listed.status, 0, `npm ls --omit=dev failed:\n${listed.stderr}`);
  const packages = listed.stdout
    .split('\n')
    .map((line) => relative(ROOT, line))
    .filter((path) => path.startsWith('node_modules'))
    .sort();
  // A nested package comes along with the folder of the package it sits in.
  const tops = packages.filter(
    (path, index) => !packages.slice(0, index).some((outer) => path.startsWith(`${outer}/`)),
  );
  const linked = spawnSync('cp', ['-al', '--parents', ...tops, dir], { cwd: ROOT });
  // Hard links need one file system; a temporary folder elsewhere gets a copy.
  if (linked.status !== 0) {
    await rm(join(dir, 'node_modules'), { recursive: true, force: true });
    run('cp', ['-a', '--parents', ...tops, dir]);
  }
  await check(dir);
  console.log('ok - the production build starts and serves without the dev dependencies');
} finally {
  await rm(dir, { recursive: true, force: true });
}
