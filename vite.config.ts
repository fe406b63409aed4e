import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'client',
  plugins: [react()],
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
    proxy: { '/api': 'http://localhost:3000', '/healthz': 'http://localhost:3000' },
  },
});
