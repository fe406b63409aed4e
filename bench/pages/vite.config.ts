import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type InlineConfig } from 'vite';

/** The bench pages' sources. */
export const PAGES_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Where the bench pages are built (gitignored). */
export const PAGES_OUT_DIR = fileURLToPath(new URL('../../.tmp/bench/pages', import.meta.url));

/** The HTML pages, each built on its own so that its chunks are its alone. */
export const BENCH_PAGES = ['codec', 'bare', 'official', 'bareReact', 'collab'] as const;

/** The name of one bench page. */
export type BenchPage = (typeof BENCH_PAGES)[number];

/**
 * The production build of one page into `PAGES_OUT_DIR/<page>/`, with the app's settings
 * (`vite.config.ts` at the root: React plugin, es2022) so sizes compare fairly.
 */
export function benchPageConfig(page: BenchPage): InlineConfig {
  return {
    configFile: false,
    root: PAGES_DIR,
    mode: 'production',
    logLevel: 'warn',
    // Each page is served from its own folder.
    base: './',
    plugins: [react()],
    build: {
      outDir: join(PAGES_OUT_DIR, page),
      emptyOutDir: true,
      target: 'es2022',
      // Editors are large; the warning would only repeat what the bundle benchmark measures.
      chunkSizeWarningLimit: 5000,
      rolldownOptions: { input: join(PAGES_DIR, `${page}.html`) },
    },
  };
}

/**
 * The probe every measured page gets through Playwright's `addInitScript`, as one classic script
 * (`PAGES_OUT_DIR/probe/probe.js`).
 */
export function probeConfig(): InlineConfig {
  return {
    configFile: false,
    root: PAGES_DIR,
    mode: 'production',
    logLevel: 'warn',
    build: {
      outDir: join(PAGES_OUT_DIR, 'probe'),
      emptyOutDir: true,
      target: 'es2022',
      lib: {
        entry: join(PAGES_DIR, 'probe.ts'),
        formats: ['iife'],
        name: 'benchProbeBundle',
        fileName: () => 'probe.js',
      },
    },
  };
}

// `npx vite -c bench/pages/vite.config.ts` serves every page for a look by hand.
export default defineConfig({ root: PAGES_DIR, plugins: [react()] });
