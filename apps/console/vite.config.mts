import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The console is served by the api under /console/ (same origin: cookie sessions, no CORS).
 * @dts/domain and @dts/client are compiled from their sources, as the api does.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: {
      '@dts/domain': `${root}libs/domain/src/index.ts`,
      '@dts/client': `${root}libs/client/src/index.ts`,
    },
  },
  build: {
    outDir: `${root}dist/console`,
    emptyOutDir: true,
    target: 'es2022',
    // Maps without a sourceMappingURL comment: tools/build-console.mjs moves them out of the served
    // directory, and the api serves them (with a SourceMap header on each script) only when
    // CONSOLE_SOURCE_MAPS says so; nothing in the bundle points to them.
    sourcemap: 'hidden',
    // Hashed names are cached for a year; index.html is not cached (apps/api console module).
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
    // Every asset a file of its own: the CSP allows images from 'self' and the tile host, not data: URLs.
    assetsInlineLimit: 0,
  },
});
