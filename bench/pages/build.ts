import { join } from 'node:path';
import { build } from 'vite';
import {
  BENCH_PAGES,
  benchPageConfig,
  PAGES_OUT_DIR,
  probeConfig,
  type BenchPage,
} from './vite.config.ts';

/** Where the built pages are. */
export interface BuiltPages {
  /** The folder served to the browser: `<page>/<page>.html` and `probe/probe.js`. */
  dir: string;
  /** The probe script for `addInitScript`. */
  probePath: string;
}

let built: Promise<BuiltPages> | undefined;

/** Builds the bench pages and the probe once per run. */
export function buildPages(): Promise<BuiltPages> {
  built ??= (async () => {
    await build(probeConfig());
    for (const page of BENCH_PAGES) await build(benchPageConfig(page));
    return { dir: PAGES_OUT_DIR, probePath: join(PAGES_OUT_DIR, 'probe', 'probe.js') };
  })();
  return built;
}

/** The path of a built page below `BuiltPages.dir`. */
export function pagePath(page: BenchPage): string {
  return `/${page}/${page}.html`;
}
