/// <reference types="vitest/config" />
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const backend = process.env.CLIPMATRIX_DEV_BACKEND ?? 'http://127.0.0.1:8080';

/** Copies Swagger UI's assets into dist/swagger/ so the server can serve /api/docs offline. */
function swaggerAssets(): Plugin {
  const files = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];
  let outDir = resolve(here, 'dist');
  return {
    name: 'clipmatrix-swagger-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const require = createRequire(import.meta.url);
      const source = dirname(require.resolve('swagger-ui-dist/package.json'));
      const target = resolve(outDir, 'swagger');
      mkdirSync(target, { recursive: true });
      for (const file of files) copyFileSync(resolve(source, file), resolve(target, file));
    },
  };
}

export default defineConfig({
  plugins: [react(), swaggerAssets()],
  resolve: { alias: { '@': resolve(here, 'src') } },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/sandbox': { target: backend, changeOrigin: true },
      // signed media links (<video>/<img>/<audio> src) live outside /api
      '/files': { target: backend, changeOrigin: true },
      // a streamed audition (signed ticket)
      '/audition': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    maxWorkers: 2,
    testTimeout: 60000,
    projects: [
      {
        // The files share one jsdom and their modules per worker instead of loading antd, the setup
        // and a fresh jsdom for each of the ~100 files: ~155 s instead of 460 s on 2 cores. What a test
        // changes globally it undoes (setup.ts: cleanup, storage; the chart recorder src/test/echarts.ts).
        extends: true,
        test: { name: 'console', isolate: false, include: ['src/**/*.test.{ts,tsx}'], exclude: ['src/**/i18n.test.ts'] },
      },
      // The texts-per-area tests check what a fresh load registers: they need modules of their own.
      { extends: true, test: { name: 'bundles', include: ['src/**/i18n.test.ts'] } },
    ],
  },
});
