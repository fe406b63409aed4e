/**
 * The server half of `npm run build`: compiles server/main.ts and what it imports (server/ and
 * common/) into dist/server and dist/common with tsc (tsconfig.server.json), then copies what the
 * server reads from disk beside its module, so `node dist/server/main.js` needs neither tsx nor
 * the sources.
 */
import { spawnSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const path = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

// A module deleted from the sources must not linger in the build.
for (const folder of ['dist/server', 'dist/common']) {
  await rm(path(folder), { recursive: true, force: true });
}

const tsc = spawnSync(path('node_modules/.bin/tsc'), ['-p', 'tsconfig.server.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// server/db/migrate.ts reads its SQL from ./migrations/ beside itself.
await cp(path('server/db/migrations'), path('dist/server/db/migrations'), {
  recursive: true,
  filter: (source) => !source.endsWith('.ts'),
});

// server/routes/published.ts reads the published page's style sheet and script beside it.
await cp(path('server/published/assets'), path('dist/server/published/assets'), {
  recursive: true,
});
