import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../../../vite.config.ts';

// The browser build marks lib0's DOM type checks pure (see vite.config.ts) so that lib0's
// schema.js leaves the shared document's chunk; if lib0 writes them otherwise, this says so.

interface TransformPlugin {
  name: string;
  transform: { filter: { id: RegExp }; handler: (code: string) => { code: string; map: null } };
}

function lib0Plugin(): TransformPlugin {
  const plugin = (viteConfig.plugins ?? [])
    .flat()
    .find(
      (p): p is TransformPlugin =>
        typeof p === 'object' && p !== null && 'name' in p && p.name.includes('lib0-dom'),
    );
  if (!plugin) throw new Error('vite.config.ts has no lib0 dom.js plugin');
  return plugin;
}

describe('the browser build of lib0/dom.js', () => {
  it('marks each of its load-time type checks pure, and touches no other module', () => {
    // The ES module the browser build takes (the package's `import` condition).
    const path = fileURLToPath(import.meta.resolve('lib0/dom'));
    const source = readFileSync(path, 'utf8');
    const { filter, handler } = lib0Plugin().transform;
    expect(filter.id.test(path)).toBe(true);
    expect(filter.id.test(path.replace('dom.js', 'schema.js'))).toBe(false);
    const built = handler(source).code;
    expect(built.match(/\/\* @__PURE__ \*\/ \$\.\$custom\(/g)).toHaveLength(4);
    expect(built).not.toMatch(/= \$\.\$custom\(/);
  });
});
