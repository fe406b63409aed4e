import type MagicString from 'magic-string';
import type { Plugin } from 'vite';
import { replaceInModule, replaceInModulePlugin } from './replaceInModule.ts';

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

const PLAIN_FIELDS = [
  {
    pattern: MARKDOWN_IT_DEFINE_PROPERTY,
    replacement: PLAIN_FIELD,
    name: "markdown-it's _defineProperty helper",
  },
];

/** `code` (markdown-it's module) with {@link PLAIN_FIELD} in place of its helper. */
export function withPlainFields(code: string, id: string): MagicString {
  return replaceInModule(code, id, PLAIN_FIELDS);
}

/**
 * Builds markdown-it's module with {@link PLAIN_FIELD}: the codec's parse of 1.2 MB of README
 * Markdown takes about 20 ms less of about 70 in markdown-it (docs/ARCHITECTURE.md, "Client").
 * The build fails if markdown-it's module no longer has the helper as this expects.
 */
export function markdownItPlainFields(): Plugin {
  return replaceInModulePlugin(
    'inkwell:markdown-it-plain-fields',
    MARKDOWN_IT_MODULE,
    PLAIN_FIELDS,
  );
}
