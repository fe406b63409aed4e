import { defineConfig } from 'vitest/config';
import { preactAliases } from './vite.config.ts';

export default defineConfig({
  // The client's tests run against what ships: Preact's React compatibility layer.
  resolve: { alias: preactAliases },
  test: {
    include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'client/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    // Opening a fresh PGlite and migrating it takes 3–6 s, and far longer on a busy machine.
    hookTimeout: 60_000,
    // Prepares PGlite snapshots and a PostgreSQL server once per run for server/test/databases.ts.
    globalSetup: ['server/test/globalSetup.ts'],
    // Lets Preact's frame timers end before a jsdom file's environment goes.
    setupFiles: ['client/test/preactFrames.ts'],
  },
});
