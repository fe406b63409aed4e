import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { ROOT, startServer, URL_VARIABLE } from './server.ts';

/** Every `*.e2e.ts` file under e2e/, in a stable order. */
function findTestFiles(): string[] {
  return readdirSync(join(ROOT, 'e2e'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.e2e.ts'))
    .sort()
    .map((file) => join('e2e', file));
}

async function main(): Promise<number> {
  // `npm run test:e2e -- xss` runs only the files whose path contains one of the words.
  const only = process.argv.slice(2);
  const files = findTestFiles().filter(
    (file) => only.length === 0 || only.some((word) => file.includes(word)),
  );
  if (files.length === 0) {
    console.error('No e2e/**/*.e2e.ts files found.');
    return 1;
  }
  if (process.env.E2E_SKIP_BUILD !== '1') {
    await build({
      root: join(ROOT, 'client'),
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'warn',
    });
  }

  // A fresh embedded database per run: tests sign up new accounts and must not meet old ones.
  const dataDir = await mkdtemp(join(tmpdir(), 'inkwell-e2e-'));
  // Every test signs up a new account from this one address: more than a real person would.
  const server = await startServer({ env: { DATA_DIR: dataDir, IDP_SIGNUPS_PER_HOUR: '10000' } });
  try {
    // TAP, whatever the terminal: its closing `# pass N` / `# fail N` lines are what CI reads.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=tap',
        '--test-concurrency=1',
        // The XSS corpus walks 223 payloads through import, export and paste.
        '--test-timeout=300000',
        ...files,
      ],
      { cwd: ROOT, env: { ...process.env, [URL_VARIABLE]: server.url }, stdio: 'inherit' },
    );
    const stopOnSignal = () => child.kill('SIGTERM');
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    return await new Promise<number>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
    );
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
