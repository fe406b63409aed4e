import { describe, expect, it } from 'vitest';
import viteConfig from '../../../vite.config.ts';

// The browser build leaves Tiptap's undo out of StarterKit (see vite.config.ts): only StarterKit's
// import is redirected, so every other import of @tiptap/extensions gets the package.

/** The build's resolveId hook of the StarterKit plugin. */
function resolveStarterKitImport(source: string, importer: string): unknown {
  const plugin = (viteConfig.plugins ?? [])
    .flat()
    .find(
      (p): p is { name: string; resolveId: (s: string, i: string) => unknown } =>
        typeof p === 'object' && p !== null && 'name' in p && p.name.includes('starter-kit'),
    );
  if (!plugin) throw new Error('vite.config.ts has no StarterKit plugin');
  return plugin.resolveId(source, importer);
}

describe('the browser build of StarterKit', () => {
  it('points only StarterKit’s import of @tiptap/extensions at the shim', () => {
    const kit = '/app/node_modules/@tiptap/starter-kit/dist/index.js';
    expect(resolveStarterKitImport('@tiptap/extensions', kit)).toMatch(
      /client\/features\/editor\/starterKitExtensions\.ts$/,
    );
    expect(resolveStarterKitImport('@tiptap/extensions', '/app/client/main.tsx')).toBeNull();
    expect(resolveStarterKitImport('@tiptap/core', kit)).toBeNull();
  });
});
