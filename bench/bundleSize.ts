import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { APP_DIR, AppUnavailableError, buildApp } from './app.ts';
import type { Fixtures } from './fixtures.ts';
import { buildPages, pagePath } from './pages/build.ts';
import { printFigures, table, type BenchReport } from './report.ts';
import { formatBytes } from './stats.ts';

const NAME = 'bundleSize';
const BASELINE = 'bare React editor';

/** One script a page loads before it runs. */
interface Chunk {
  file: string;
  gzip: number;
}

/**
 * The JS an HTML page loads at once: its module scripts and modulepreload links, with their
 * gzip sizes (level 9). `root` is where URLs starting with `/` point.
 */
async function initialScripts(htmlPath: string, root: string): Promise<Chunk[]> {
  const html = await readFile(htmlPath, 'utf8');
  const urls = new Set<string>();
  for (const tag of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const text = tag[0];
    const isModule = tag[1] === 'script' && /\btype="module"/.test(text);
    const isPreload = tag[1] === 'link' && /\brel="modulepreload"/.test(text);
    const url = /\b(?:src|href)="([^"]+)"/.exec(text)?.[1];
    if ((isModule || isPreload) && url) urls.add(url);
  }
  const chunks: Chunk[] = [];
  for (const url of urls) {
    const file = url.startsWith('/') ? join(root, url) : join(dirname(htmlPath), url);
    chunks.push({ file: url, gzip: gzipSync(await readFile(file), { level: 9 }).length });
  }
  return chunks;
}

function sum(chunks: readonly Chunk[]): number {
  return chunks.reduce((total, chunk) => total + chunk.gzip, 0);
}

/**
 * The gzip size of the JS the editor route loads first, against a bare React + Tiptap +
 * tiptap-markdown editor built by the same Vite with the same settings.
 */
export async function bundleSize(_fixtures: Fixtures): Promise<BenchReport> {
  try {
    await buildApp();
  } catch (error) {
    if (!(error instanceof AppUnavailableError)) throw error;
    console.log(`skipped: ${error.message}`);
    return { name: NAME, baselineName: BASELINE, figures: [], skipped: error.message };
  }
  const pages = await buildPages();
  const inkwell = await initialScripts(join(APP_DIR, 'index.html'), APP_DIR);
  const bare = await initialScripts(join(pages.dir, pagePath('bareReact')), pages.dir);
  const rows = [['page', 'initial script', 'gzip']];
  for (const [page, chunks] of [
    ['Inkwell', inkwell],
    [BASELINE, bare],
  ] as const) {
    for (const chunk of chunks) rows.push([page, chunk.file, formatBytes(chunk.gzip)]);
  }
  console.log(table(rows, 2));
  console.log();
  const figures = [
    {
      label: 'initial JS of the editor route, gzip',
      value: sum(inkwell),
      baseline: sum(bare),
      unit: 'bytes' as const,
      target: 1,
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
