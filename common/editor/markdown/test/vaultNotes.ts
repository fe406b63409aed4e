import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../testdata/vault/', import.meta.url).pathname;

/** A note of the test vault: its path inside the vault and its text. */
export interface VaultNote {
  /** Path relative to the vault, with `/` separators. */
  name: string;
  /** The note's Markdown. */
  text: string;
}

/**
 * The notes of the test vault (testdata/vault, written for Inkwell's tests), sorted by path so
 * that seeded tests pick the same notes everywhere. The vault's own README is not a note.
 */
export function vaultNotes(): VaultNote[] {
  const notes: VaultNote[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.md') && path !== join(ROOT, 'README.md'))
        notes.push({
          name: relative(ROOT, path).split('\\').join('/'),
          text: readFileSync(path, 'utf8'),
        });
    }
  };
  visit(ROOT);
  return notes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
