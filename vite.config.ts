import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import solid from 'vite-plugin-solid';
import { defineConfig } from 'vitest/config';

const peers = [/^rxjs(\/.*)?$/, /^svelte(\/.*)?$/, /^solid-js(\/.*)?$/];

export default defineConfig({
  build: {
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: {
        index: 'core/index.ts',
        svelte: 'adapters/svelte/index.ts',
        solid: 'adapters/solid/index.ts',
        devtools: 'adapters/devtools/index.ts',
        persist: 'adapters/persist/index.ts',
        sync: 'adapters/sync/index.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: { external: peers },
  },
  test: {
    projects: [
      {
        // core, type tests and the adapters' server rendering (node: Svelte's and Solid's server builds)
        plugins: [svelte()],
        // the demos' shared modules (test/demos) import `rx-rest`: its source, as in the demo apps
        resolve: { alias: [{ find: /^rx-rest$/, replacement: new URL('./core/index.ts', import.meta.url).pathname }] },
        test: {
          name: 'node',
          include: ['test/**/*.test.ts', 'codegen/test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', 'test/**/*.dom.test.*'],
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
          },
        },
      },
      {
        // Svelte components in jsdom, with Svelte's browser build
        plugins: [svelte(), svelteTesting()],
        test: {
          name: 'svelte',
          environment: 'jsdom',
          include: [
            'test/adapters/svelte/**/*.dom.test.ts',
            'test/review11/adapters/svelte/**/*.dom.test.ts',
            'test/review12/live/svelte/**/*.dom.test.ts',
            'test/review13/**/*.dom.test.ts',
            'test/review14/adapters/**/*.dom.test.ts',
            'test/review15/adapters/**/*.dom.test.ts',
          ],
        },
      },
      {
        // Solid components in jsdom; the plugin resolves Solid's browser/dev build for tests
        plugins: [solid()],
        test: {
          name: 'solid',
          environment: 'jsdom',
          include: [
            'test/adapters/solid/**/*.dom.test.tsx',
            'test/review11/adapters/solid/**/*.dom.test.tsx',
            'test/review12/live/solid/**/*.dom.test.tsx',
            'test/review13/**/*.dom.test.tsx',
            'test/review14/adapters/**/*.dom.test.tsx',
            'test/review15/adapters/**/*.dom.test.tsx',
            'test/review15/solid/**/*.dom.test.tsx',
          ],
        },
      },
    ],
  },
});
