import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests (`npm run test:e2e`): Debian's Chromium, driven by playwright-core, against
 * the built demo apps and the real REST server. Kept out of `npm test` (the root config excludes
 * test/e2e/**). One file, one browser, run in order.
 */
export default defineConfig({
  // the tests import demos/format.ts, which imports `rx-rest`: its source, as in the demo apps
  resolve: {
    alias: [{ find: /^rx-rest$/, replacement: new URL('../../core/index.ts', import.meta.url).pathname }],
  },
  test: {
    name: 'e2e',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
  },
});
