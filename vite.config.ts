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
      },
      formats: ['es'],
    },
    rolldownOptions: { external: peers },
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
