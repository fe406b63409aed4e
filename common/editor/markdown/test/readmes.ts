import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Real-world Markdown: the README files that the project's installed packages ship (pinned by
 * package-lock.json, so the corpus is the same on every machine), each of at least 1 KB, by
 * package name.
 */
export function readmes(): Array<{ name: string; text: string }> {
  const root = new URL('../../../../node_modules/', import.meta.url).pathname;
  const found: Array<{ name: string; text: string }> = [];
  const visit = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (entry.startsWith('.')) continue;
      if (depth === 0 && entry.startsWith('@')) visit(path, 1);
      else if (statSync(path).isDirectory()) {
        const readme = join(path, 'README.md');
        try {
          const text = readFileSync(readme, 'utf8');
          if (text.length >= 1024) found.push({ name: path.slice(root.length), text });
        } catch {
          // A package without a README.md is simply not part of the corpus.
        }
      }
    }
  };
  visit(root, 0);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
