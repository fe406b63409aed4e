import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import MagicString from 'magic-string';
import { markdownItPlainFields } from './scripts/markdownItFields.ts';
import { tiptapFastAttributes } from './scripts/tiptapAttributes.ts';

/**
 * The client is written against React's API but ships Preact's compatibility layer: React,
 * react-dom and the scheduler are about 60 kB gzip the editor page must wait for before the first
 * keystroke, Preact about 5 kB. Vitest uses the same aliases so the unit tests test what ships.
 */
export const preactAliases = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  // @tiptap/react imports React's shim of useSyncExternalStore, which hands over to the library's
  // own hook when there is one: Preact's compatibility layer has it, so the shim is skipped.
  { find: /^use-sync-external-store\/shim(?:\/index\.js)?$/, replacement: 'preact/compat' },
];

/**
 * Points StarterKit's import of @tiptap/extensions at client/features/editor/starterKitExtensions.ts:
 * StarterKit imports Tiptap's UndoRedo (and with it prosemirror-history, 3 kB gzip) even when told
 * `undoRedo: false`, as Inkwell always does (a shared document's undo is per writer). Only
 * StarterKit's import: the editor's Dropcursor and Gapcursor come from the package as before.
 */
function starterKitWithoutUndo(): Plugin {
  const shim = fileURLToPath(
    new URL('./client/features/editor/starterKitExtensions.ts', import.meta.url),
  );
  return {
    name: 'inkwell:starter-kit-without-undo',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromStarterKit = importer?.replaceAll('\\', '/').includes('/@tiptap/starter-kit/');
      return source === '@tiptap/extensions' && fromStarterKit ? shim : null;
    },
  };
}

/**
 * Marks as pure the four DOM type checks lib0's dom.js builds when it loads (`$.$custom(...)`,
 * whose results nothing in the app reads): y-tiptap imports dom.js for two helpers, and those
 * calls alone kept lib0's schema.js (2.3 kB gzip) in the shared document's chunk.
 */
function lib0DomChecksPure(): Plugin {
  return {
    name: 'inkwell:lib0-dom-checks-pure',
    transform: {
      filter: { id: /node_modules[\\/]lib0[\\/]dom\.js$/ },
      handler(code) {
        // Comments only, inserted within lines: the mappings that follow stay close enough.
        return { code: code.replaceAll('= $.$custom(', '= /* @__PURE__ */ $.$custom('), map: null };
      },
    },
  };
}

/** The fields of a Tiptap extension that only `@tiptap/markdown` reads. */
const TIPTAP_MARKDOWN_FIELDS = new Set([
  'markdownTokenName',
  'markdownTokenizer',
  'markdownOptions',
  'parseMarkdown',
  'renderMarkdown',
]);

/** An ESTree node, as far as {@link tiptapWithoutMarkdownFields} reads it. */
interface SyntaxNode {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

function isSyntaxNode(value: unknown): value is SyntaxNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as SyntaxNode).type === 'string'
  );
}

/**
 * Removes, from `code` (a module of a Tiptap package), every object property named in
 * {@link TIPTAP_MARKDOWN_FIELDS}, with the comma after it. Exported for its test.
 */
export function withoutMarkdownFields(code: string, program: unknown): MagicString | null {
  const text = new MagicString(code);
  let removed = false;
  const visit = (node: SyntaxNode) => {
    if (node.type === 'Property' && !node.computed) {
      const key = node.key as SyntaxNode & { name?: string; value?: unknown };
      const name = key.type === 'Identifier' ? key.name : key.value;
      if (typeof name === 'string' && TIPTAP_MARKDOWN_FIELDS.has(name)) {
        // The comma after it goes too; one before it stays, a trailing comma being valid.
        const after = /^\s*,/.exec(code.slice(node.end));
        text.remove(node.start, node.end + (after ? after[0].length : 0));
        removed = true;
        return;
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const item of value) if (isSyntaxNode(item)) visit(item);
      } else if (isSyntaxNode(value)) {
        visit(value);
      }
    }
  };
  if (isSyntaxNode(program)) visit(program);
  return removed ? text : null;
}

/**
 * Drops Tiptap's own Markdown support from its extensions: since 3.x each node and mark carries
 * a tokenizer, a parser and a renderer for `@tiptap/markdown`, which is their only reader.
 * Inkwell has its own codec (common/editor/markdown/, loaded on first use) and never installs
 * `@tiptap/markdown`, so these fields were 3.4 kB gzip of the editor page's first download
 * (with the helpers only they call) that nothing runs.
 */
function tiptapWithoutMarkdownFields(): Plugin {
  return {
    name: 'inkwell:tiptap-without-markdown-fields',
    transform: {
      filter: {
        id: /node_modules[\\/]@tiptap[\\/][^\\/]+[\\/]dist[\\/].*\.js$/,
        code: /renderMarkdown|parseMarkdown|markdownToken/,
      },
      handler(code, id) {
        const text = withoutMarkdownFields(code, this.parse(code));
        return text
          ? { code: text.toString(), map: text.generateMap({ source: id, hires: true }) }
          : null;
      },
    },
  };
}

export default defineConfig({
  root: 'client',
  plugins: [
    react(),
    starterKitWithoutUndo(),
    lib0DomChecksPure(),
    tiptapWithoutMarkdownFields(),
    tiptapFastAttributes(),
    markdownItPlainFields(),
  ],
  resolve: {
    alias: [
      ...preactAliases,
      // @tiptap/react imports fast-equals (2 kB gzip) for one deepEqual; client/lib/deepEqual.ts
      // compares what Inkwell's editor-state selectors return as it does.
      {
        find: /^fast-equals$/,
        replacement: fileURLToPath(new URL('./client/lib/deepEqual.ts', import.meta.url)),
      },
      // StarterKit imports Tiptap's link mark even when told `link: false`, and with it linkifyjs
      // (10 kB gzip) that the page would wait for. Inkwell uses its own link mark instead
      // (common/editor/nodes/Link.ts), so StarterKit's import is pointed there.
      {
        find: /^@tiptap\/extension-link$/,
        replacement: fileURLToPath(new URL('./common/editor/nodes/Link.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill only makes browsers without <link rel="modulepreload"> (before Safari 17 and
    // Firefox 115) fetch a lazy chunk's imports early; they load them without it all the same.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first page statically needs goes in one chunk. Left to itself the
          // bundler cuts it into several wherever a lazy chunk shares a part (Preact, Tiptap's
          // core, the ProseMirror packages), and each cut costs the page gzip's shared dictionary
          // and a request: moving a 2 kB page out to a lazy chunk made the first download larger.
          groups: [
            { name: 'app', tags: ['$initial'] },
            // The shared document's code (Yjs, the provider, the device copy, the binding) arrives
            // together once the saved copy shows: one chunk, for the same reason. What only a rare
            // action needs (a set-aside copy's download, a version's restore) loads with it.
            {
              name: 'shared-document',
              test: /node_modules\/(?:yjs|lib0|y-protocols|y-indexeddb|@hocuspocus|@tiptap\/y-tiptap)\/|features\/live\/collab\/(?!downloadSetAside|setAsideCopy|restoreVersion)/,
            },
          ],
        },
      },
    },
    // Fonts (KaTeX's) stay files: the page's Content-Security-Policy allows no data: fonts.
    assetsInlineLimit: (file) => (/\.(?:woff2?|ttf)$/.test(file) ? false : undefined),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      // Uploaded images are served by the API server, outside /api so that <img> can load them.
      '/files': 'http://localhost:3000',
    },
  },
});
