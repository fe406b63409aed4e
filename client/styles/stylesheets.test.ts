import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A feature's stylesheet loads with the feature, late and in no fixed order: one that restyles a
 * class of the app's own components (styles/) changes every button or dialog of the app from the
 * moment it loads. The slash menu's `.ink-dialog` once narrowed every dialog to 360 px, and the
 * link form's `.ink-button` flattened every button, once the editor's menus had loaded.
 */

const CLIENT = join(import.meta.dirname, '..');
const STYLES = import.meta.dirname;

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** The classes a stylesheet styles on their own: rules whose selector is one bare class. */
function bareClasses(path: string): Set<string> {
  const css = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const classes = new Set<string>();
  for (const [, selectors] of css.matchAll(/([^{}]+)\{/g)) {
    if (selectors!.trim().startsWith('@')) continue;
    for (const selector of selectors!.split(',')) {
      const bare = /^\.([\w-]+)(?::[\w-]+(?:\([^)]*\))?)*$/.exec(selector.trim());
      if (bare) classes.add(bare[1]!);
    }
  }
  return classes;
}

describe('stylesheets', () => {
  it("leave the app's component classes to styles/: no feature restyles them on its own", () => {
    const owned = new Set(cssFiles(STYLES).flatMap((path) => [...bareClasses(path)]));
    const restyled = cssFiles(join(CLIENT, 'features')).flatMap((path) =>
      [...bareClasses(path)]
        .filter((name) => owned.has(name))
        .map((name) => `${relative(CLIENT, path)}: .${name}`),
    );
    expect(owned.has('ink-button') && owned.has('ink-dialog')).toBe(true);
    expect(restyled).toEqual([]);
  });
});
