import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import viteConfig, { withoutMarkdownFields } from '../../../vite.config.ts';

// The browser build drops the fields Tiptap's extensions carry for @tiptap/markdown (see
// vite.config.ts). If Tiptap writes them otherwise, or the removal breaks a module, this says so.

const require = createRequire(import.meta.url);

/** The ES module the browser build takes of a Tiptap package. */
function tiptapModule(name: string): { path: string; source: string } {
  const path = require.resolve(name).replace(/index\.c?js$/, 'index.js');
  return { path, source: readFileSync(path, 'utf8') };
}

const FIELD =
  /\b(?:markdownTokenName|markdownTokenizer|markdownOptions|parseMarkdown|renderMarkdown)\s*[:(]/;

function plugin(): { transform: { filter: { id: RegExp; code: RegExp } } } {
  const found = (viteConfig.plugins ?? [])
    .flat()
    .find(
      (p) =>
        typeof p === 'object' && p !== null && 'name' in p && p.name.includes('markdown-fields'),
    );
  if (!found) throw new Error('vite.config.ts has no Tiptap Markdown fields plugin');
  return found as unknown as ReturnType<typeof plugin>;
}

describe('the browser build of Tiptap’s extensions', () => {
  it('applies to Tiptap packages’ modules only', () => {
    const { filter } = plugin().transform;
    const list = tiptapModule('@tiptap/extension-list').path;
    expect(filter.id.test(list)).toBe(true);
    expect(filter.id.test('/app/client/features/editor/editorExtensions.ts')).toBe(false);
    expect(filter.id.test('/app/node_modules/prosemirror-view/dist/index.js')).toBe(false);
  });

  it.each([
    '@tiptap/core',
    '@tiptap/extension-list',
    '@tiptap/starter-kit',
    '@tiptap/extension-table',
  ])(
    'removes every Markdown field of %s and leaves a module that parses, its other fields kept',
    (name) => {
      const { source } = tiptapModule(name);
      const built = withoutMarkdownFields(source, parseAst(source))?.toString() ?? source;
      expect(built).not.toMatch(FIELD);
      expect(() => parseAst(built)).not.toThrow();
      // What the editor runs stays: every other field, and every export.
      const fields = (code: string) =>
        code.match(/\b(?:addKeyboardShortcuts|addCommands|parseHTML|renderHTML|addInputRules)\b/g)
          ?.length ?? 0;
      expect(fields(built)).toBe(fields(source));
      const exports = (code: string) => /export \{[^}]*\}/.exec(code)?.[0];
      expect(exports(built)).toBe(exports(source));
    },
  );

  it('finds the fields in the packages it is meant for (Tiptap still writes them this way)', () => {
    const { source } = tiptapModule('@tiptap/extension-list');
    expect(source).toMatch(FIELD);
    expect(withoutMarkdownFields(source, parseAst(source))).not.toBeNull();
  });

  it('takes the comma after a field with it, keeping the object valid', () => {
    const source =
      'const a = { name: "x", renderMarkdown: (n) => n, parseMarkdown(t) { return t; }, group: "b" };\n' +
      'const b = { renderMarkdown: () => "" };\nconst c = { keep: 1, markdownTokenizer: { start: 0 } };';
    const built = withoutMarkdownFields(source, parseAst(source))!.toString();
    // Only the fields and their commas go; the spaces around them stay.
    expect(built).toBe(
      'const a = { name: "x",   group: "b" };\nconst b = {  };\nconst c = { keep: 1,  };',
    );
  });
});
