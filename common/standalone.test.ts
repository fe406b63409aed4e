import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const FOLDERS = ['client', 'server', 'common', 'e2e', 'bench', 'scripts', 'docs'];

/** Every text file of the project's own folders (the test vault is other people's prose). */
function projectFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx|css|sql|json|md|html)$/.test(file))
      .filter((file) => !file.includes('testdata/vault/'))
      .map((file) => join(folder, file)),
  );
}

describe('the repository', () => {
  it('cites only documents it contains, not the design notes kept outside it', () => {
    const citing = projectFiles().filter((file) =>
      /DESIGN (§|\\u00a7)/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(citing).toEqual([]);
  });
});

/**
 * Packages in `dependencies` that no source file imports, each with the reason it is there:
 * a runtime package that only a dependency of ours imports.
 */
const IMPORTED_BY_DEPENDENCIES: Record<string, string> = {
  // @tiptap/react/menus imports it as an optional dependency of @tiptap/react with a `^` range;
  // naming it pins it to the Tiptap version of every other @tiptap/* package.
  '@tiptap/extension-bubble-menu': '@tiptap/react/menus',
};

describe('package.json', () => {
  it('lists in dependencies only packages the code that runs imports', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const source = projectFiles()
      .filter((file) => /^(client|server|common)\/.*\.(ts|tsx|css)$/.test(file))
      .filter((file) => !/\.test\.tsx?$|\/test\//.test(file))
      .map((file) => readFileSync(join(ROOT, file), 'utf8'))
      .join('\n');
    const imported = (name: string) =>
      new RegExp(
        `(?:from |import\\(|@import )['"]${name.replace(/[.+]/g, '\\$&')}(?:/[^'"]*)?['"]`,
      ).test(source);
    const unused = Object.keys(dependencies).filter(
      (name) => !imported(name) && !(name in IMPORTED_BY_DEPENDENCIES),
    );
    expect(unused).toEqual([]);
  });
});
