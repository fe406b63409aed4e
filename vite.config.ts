import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: 'client',
  plugins: [react()],
  resolve: {
    alias: {
      // StarterKit imports Tiptap's link mark even when told `link: false`, and with it linkifyjs
      // (10 kB gzip) that the page would wait for. Inkwell uses its own link mark instead
      // (common/editor/nodes/Link.ts), so StarterKit's import is pointed there.
      '@tiptap/extension-link': fileURLToPath(
        new URL('./common/editor/nodes/Link.ts', import.meta.url),
      ),
    },
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
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
