import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type MarkdownItConstructor from 'markdown-it';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MARKDOWN_IT_DEFINE_PROPERTY,
  MARKDOWN_IT_MODULE,
  PLAIN_FIELD,
  withPlainFields,
} from '../../../scripts/markdownItFields.ts';
import viteConfig from '../../../vite.config.ts';
import { createMarkdownIt } from './markdownIt.ts';
import { readmes } from './test/readmes.ts';

// The browser build sets markdown-it's class fields by assignment (scripts/markdownItFields.ts).
// Here the installed module is built both ways and the codec's markdown-it made from each: they
// must read the corpus into the very same tokens, and the one case where assignment and the
// helper differ (the key already there) must never come up.

const require = createRequire(import.meta.url);
/** markdown-it's ES module, the one the browser build transforms. */
const modulePath = join(
  dirname(require.resolve('markdown-it/package.json')),
  'dist/markdown-it.mjs',
);
const source = readFileSync(modulePath, 'utf8');

/** Copies written beside the module, so that its own imports resolve as they do for it. */
const written: string[] = [];
afterAll(() => {
  for (const path of written) rmSync(path, { force: true });
});

type Constructor = typeof MarkdownItConstructor;

async function loadAs(name: string, code: string): Promise<Constructor> {
  const path = join(dirname(modulePath), `.inkwell-${name}-${process.pid}.mjs`);
  writeFileSync(path, code);
  written.push(path);
  return ((await import(pathToFileURL(path).href)) as { default: Constructor }).default;
}

/** The keys the original helper found already on the object, set by the instrumented copy. */
declare global {
  var inkwellFieldsAlreadyThere: string[] | undefined;
}

/** A token stream as data, key order included. */
const asData = (tokens: unknown) => JSON.stringify(tokens);

describe("markdown-it's class fields in the browser build", () => {
  it('is the module the browser build bundles, and the build replaces its helper', () => {
    expect(MARKDOWN_IT_MODULE.test(modulePath)).toBe(true);
    expect(MARKDOWN_IT_DEFINE_PROPERTY.test(source)).toBe(true);
    const built = withPlainFields(source, modulePath).toString();
    expect(built).toContain(PLAIN_FIELD);
    expect(built).not.toContain('toPropertyKey(r)) in e');
    expect(built.length - source.length).toBe(
      PLAIN_FIELD.length - MARKDOWN_IT_DEFINE_PROPERTY.exec(source)![0].length,
    );
    const names = (viteConfig.plugins ?? []).flat().map((plugin) => {
      return plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : null;
    });
    expect(names).toContain('inkwell:markdown-it-plain-fields');
  });

  it('fails the build, naming the module, when markdown-it no longer has the helper', () => {
    const changed = source.replace(
      'function _defineProperty(e, r, t) {',
      'function _dp(e, r, t) {',
    );
    expect(() => withPlainFields(changed, modulePath)).toThrow(
      `${modulePath}: markdown-it's _defineProperty helper not found`,
    );
  });

  it('reads every README of the corpus into the same tokens, and never meets a key already set', async () => {
    const helper = MARKDOWN_IT_DEFINE_PROPERTY.exec(source)![0];
    const watched = helper.replace(
      '{\n',
      '{\n\tif (toPropertyKey(r) in e) globalThis.inkwellFieldsAlreadyThere.push(String(r));\n',
    );
    globalThis.inkwellFieldsAlreadyThere = [];
    const original = createMarkdownIt(await loadAs('watched', source.replace(helper, watched)));
    const plain = createMarkdownIt(
      await loadAs('plain', withPlainFields(source, modulePath).toString()),
    );
    const files = readmes();
    expect(files.length).toBeGreaterThan(100);
    let tokens = 0;
    for (const file of files) {
      const expected = original.parse(file.text, {});
      tokens += expected.length;
      expect(asData(plain.parse(file.text, {})), file.name).toBe(asData(expected));
    }
    expect(tokens).toBeGreaterThan(10_000);
    expect(globalThis.inkwellFieldsAlreadyThere).toEqual([]);
    delete globalThis.inkwellFieldsAlreadyThere;
  });
});
