import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each route loads (read by the client benchmark).
    manifest: true,
    // maplibre-gl is one ~1 MB module of its own chunk, loaded on demand by the street map only.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      output: {
        // Chromium compiles every function of these chunks while it streams them in, off the main
        // thread, instead of one by one on the main thread at first call: the street map's start
        // (constructor, first frame) calls most of its engine at once, and React DOM's start most
        // of React.
        postBanner: (chunk) =>
          ['maplibre', 'react'].includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : '',
        // The React runtime changes least often: its own long-cached chunk (and the size baseline).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The street map's engine: large, loaded only when the street map is shown, and long-cached.
            { name: 'maplibre', test: /node_modules[\\/]maplibre-gl[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', ws: true }, '/uploads': 'http://localhost:3000' },
  },
  test: {
    name: 'client',
    root: path.resolve(here, '..'),
    include: ['tests/client/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // Runs after the server project (they use different worker counts).
    sequence: { groupOrder: 1 },
  },
});
