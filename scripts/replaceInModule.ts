import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** A piece of a package's module to put another in place of, and what to call it in an error. */
export interface Replacement {
  pattern: RegExp;
  replacement: string;
  name: string;
}

/**
 * `code` (the module `id`) with each {@link Replacement} made at its pattern's first match;
 * throws, naming the module and the piece, when a pattern is not found: the package has changed,
 * and the replacement must be looked at again rather than silently skipped.
 */
export function replaceInModule(
  code: string,
  id: string,
  replacements: readonly Replacement[],
): MagicString {
  const text = new MagicString(code);
  for (const { pattern, replacement, name } of replacements) {
    const found = pattern.exec(code);
    if (!found) throw new Error(`${id}: ${name} not found`);
    text.overwrite(found.index, found.index + found[0].length, replacement);
  }
  return text;
}

/** A build plugin making `replacements` in the modules whose id matches `id`. */
export function replaceInModulePlugin(
  name: string,
  id: RegExp,
  replacements: readonly Replacement[],
): Plugin {
  return {
    name,
    transform: {
      filter: { id },
      handler(code, moduleId) {
        const text = replaceInModule(code, moduleId, replacements);
        return { code: text.toString(), map: text.generateMap({ source: moduleId, hires: true }) };
      },
    },
  };
}
