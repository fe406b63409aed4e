import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, TMP_DIR } from './paths.ts';

const FIXTURE_DIR = join(TMP_DIR, 'fixtures');
const NODE_MODULES = join(ROOT, 'node_modules');
const MIN_README_BYTES = 1024;

/** Size of the large README-style document. */
export const LARGE_BYTES = 1_200_000;
/** Word counts of the documents typed into. */
export const WORD_COUNTS = [3_500, 30_000, 200_000] as const;
/** Sizes at which export time is measured to show it grows linearly. */
export const SCALING_BYTES = [300_000, 600_000, LARGE_BYTES] as const;

/** A generated Markdown document. */
export interface Fixture {
  /** A short name for tables, e.g. `1.2 MB` or `30k words`. */
  name: string;
  /** The size asked for: bytes for `bySize`, words for `byWords`. */
  nominal: number;
  /** Where it was written. */
  path: string;
  /** Its text. */
  markdown: string;
  /** Its size in UTF-8 bytes. */
  bytes: number;
  /** Its whitespace-separated words. */
  words: number;
}

/** The documents every benchmark draws from, all cut from one stream of READMEs. */
export interface Fixtures {
  /** The ~1.2 MB document. */
  large: Fixture;
  /** The documents of `WORD_COUNTS` words, in that order. */
  byWords: Fixture[];
  /** The documents of `SCALING_BYTES` bytes, in that order (the last is `large`). */
  bySize: Fixture[];
  /** How the stream was made, for the printed header. */
  source: string;
}

/** A top-level block of Markdown and its running totals from the start of the stream. */
interface Block {
  text: string;
  endBytes: number;
  endWords: number;
}

async function packageDirs(): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(NODE_MODULES, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || !entry.isDirectory()) continue;
    if (!entry.name.startsWith('@')) {
      names.push(entry.name);
      continue;
    }
    for (const scoped of await readdir(join(NODE_MODULES, entry.name), { withFileTypes: true })) {
      if (scoped.isDirectory()) names.push(`${entry.name}/${scoped.name}`);
    }
  }
  return names.sort();
}

async function readReadme(name: string): Promise<string | null> {
  const dir = join(NODE_MODULES, name);
  const file = (await readdir(dir)).find((f) => f.toLowerCase() === 'readme.md');
  if (!file) return null;
  const text = await readFile(join(dir, file), 'utf8');
  return Buffer.byteLength(text) >= MIN_README_BYTES ? text : null;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits a README into blocks at blank lines outside fenced code, so that a cut never leaves a
 * fence open. A fence the README leaves open is closed, so it cannot swallow the next README.
 */
function splitBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const match = FENCE.exec(line);
    if (match?.[1]) {
      const marker = match[1];
      if (fence === null) fence = marker;
      else if (
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        !/\S/.test(line.slice(line.indexOf(marker) + marker.length))
      )
        fence = null;
    }
    if (fence === null && line.trim() === '') {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (fence !== null) current.push(fence);
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

function countWords(text: string): number {
  let words = 0;
  const pattern = /\S+/g;
  while (pattern.test(text)) words++;
  return words;
}

/**
 * Concatenates the READMEs of `node_modules` (sorted by package name, each at least 1 KB) into
 * blocks until there are `bytes` bytes and `words` words, starting over if the READMEs run out.
 */
async function readmeBlocks(
  bytes: number,
  words: number,
): Promise<{ blocks: Block[]; readmes: number; wrapped: boolean }> {
  const readmes: string[] = [];
  for (const name of await packageDirs()) {
    const text = await readReadme(name);
    if (text !== null) readmes.push(text);
  }
  if (readmes.length === 0) throw new Error('no README.md of 1 KB or more in node_modules');
  const blocks: Block[] = [];
  let endBytes = 0;
  let endWords = 0;
  let used = 0;
  while (endBytes < bytes || endWords < words) {
    const readme = readmes[used % readmes.length] ?? '';
    used++;
    for (const text of splitBlocks(readme)) {
      // Each block is followed by one blank line in the document.
      endBytes += Buffer.byteLength(text) + 2;
      endWords += countWords(text);
      blocks.push({ text, endBytes, endWords });
    }
  }
  return { blocks, readmes: used, wrapped: used > readmes.length };
}

/** The first blocks, up to the first that reaches `enough`. */
function cut(blocks: readonly Block[], enough: (block: Block) => boolean): string {
  const end = blocks.findIndex(enough);
  const taken = end === -1 ? blocks : blocks.slice(0, end + 1);
  return `${taken.map((b) => b.text).join('\n\n')}\n`;
}

async function write(
  name: string,
  nominal: number,
  file: string,
  markdown: string,
): Promise<Fixture> {
  const path = join(FIXTURE_DIR, file);
  await writeFile(path, markdown);
  const bytes = Buffer.byteLength(markdown);
  return { name, nominal, path, markdown, bytes, words: countWords(markdown) };
}

function sizeName(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function wordsName(words: number): string {
  return `${words / 1000}k words`;
}

/** Generates the fixtures into `.tmp/bench/fixtures` (deterministic for one `node_modules`). */
export async function prepareFixtures(): Promise<Fixtures> {
  await mkdir(FIXTURE_DIR, { recursive: true });
  const maxWords = Math.max(...WORD_COUNTS);
  const { blocks, readmes, wrapped } = await readmeBlocks(LARGE_BYTES, maxWords);
  const bySize: Fixture[] = [];
  for (const bytes of SCALING_BYTES) {
    const markdown = cut(blocks, (b) => b.endBytes >= bytes);
    bySize.push(await write(sizeName(bytes), bytes, `readme-${bytes}.md`, markdown));
  }
  const byWords: Fixture[] = [];
  for (const words of WORD_COUNTS) {
    const markdown = cut(blocks, (b) => b.endWords >= words);
    byWords.push(await write(wordsName(words), words, `words-${words}.md`, markdown));
  }
  const source = `${readmes} README.md files from node_modules${wrapped ? ' (the list was used more than once)' : ''}`;
  const large = bySize.at(-1);
  if (!large) throw new Error('no sizes to cut');
  return { large, byWords, bySize, source };
}
