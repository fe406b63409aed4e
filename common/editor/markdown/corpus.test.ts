import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptBlocks, renderBlocks, roundtrip } from './test/fidelity.ts';

/**
 * Real-world Markdown: the README files that the project's installed packages ship (pinned by
 * package-lock.json, so the corpus is the same on every machine).
 */
function readmes(): Array<{ name: string; text: string }> {
  const root = new URL('../../../node_modules/', import.meta.url).pathname;
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

describe('real-world README files through import → export', () => {
  it('keeps at least 99% of their blocks rendering the same', () => {
    const files = readmes();
    let total = 0;
    let kept = 0;
    const worst: string[] = [];
    for (const file of files) {
      const before = renderBlocks(file.text);
      const after = renderBlocks(roundtrip(file.text));
      const k = keptBlocks(before, after);
      total += before.length;
      kept += k;
      if (k < before.length)
        worst.push(`${file.name}: ${before.length - k} of ${before.length} blocks differ`);
    }
    const share = (kept / total) * 100;
    console.log(
      `README corpus: ${files.length} files, ${kept}/${total} blocks kept (${share.toFixed(2)}%)\n${worst.slice(0, 15).join('\n')}`,
    );
    expect(files.length).toBeGreaterThan(100);
    expect(share).toBeGreaterThanOrEqual(99);
  });
});
