import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/**
 * The class-field helper in markdown-it 15's published module: its build turns each class field
 * into a call of it (`_defineProperty(this, "content", "")`, eight for every token), and each
 * call converts the key, then asks whether the object already has it anywhere on its prototype
 * chain. A parse of 1.2 MB makes 72,000 tokens: the question alone is about a quarter of
 * markdown-it's time.
 */
export const MARKDOWN_IT_DEFINE_PROPERTY =
  /function _defineProperty\(e, r, t\) \{\n\treturn \(r = toPropertyKey\(r\)\) in e \? Object\.defineProperty\(e, r, \{\n\t\tvalue: t,\n\t\tenumerable: !0,\n\t\tconfigurable: !0,\n\t\twritable: !0\n\t\}\) : e\[r\] = t, e;\n\}\n/;

/**
 * The same field set by assignment, as a class field written without the helper would be. The
 * two differ only when the key is already there (a setter or a read-only property up the
 * chain), which no markdown-it class has: every call names a string key that its class's
 * constructor sets for the first time. common/editor/markdown/markdownItFieldsBuild.test.ts
 * checks this on the module installed.
 */
export const PLAIN_FIELD = `function _defineProperty(e, r, t) {
\te[r] = t;
\treturn e;
}
`;

/** Whether `id` is markdown-it's ES module, the one the browser build bundles. */
export const MARKDOWN_IT_MODULE = /node_modules[\\/]markdown-it[\\/]dist[\\/]markdown-it\.mjs$/;

/** `code` (markdown-it's module) with {@link PLAIN_FIELD} in place of its helper. */
export function withPlainFields(code: string, id: string): MagicString {
  const found = MARKDOWN_IT_DEFINE_PROPERTY.exec(code);
  if (!found) throw new Error(`${id}: markdown-it's _defineProperty helper not found`);
  const text = new MagicString(code);
  text.overwrite(found.index, found.index + found[0].length, PLAIN_FIELD);
  return text;
}

/**
 * Builds markdown-it's module with {@link PLAIN_FIELD}: the codec's parse of 1.2 MB of README
 * Markdown takes about 20 ms less of about 70 in markdown-it (docs/ARCHITECTURE.md, "Client").
 * The build fails if markdown-it's module no longer has the helper as this expects.
 */
export function markdownItPlainFields(): Plugin {
  return {
    name: 'inkwell:markdown-it-plain-fields',
    transform: {
      filter: { id: MARKDOWN_IT_MODULE },
      handler(code, id) {
        const text = withPlainFields(code, id);
        return { code: text.toString(), map: text.generateMap({ source: id, hires: true }) };
      },
    },
  };
}
