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
