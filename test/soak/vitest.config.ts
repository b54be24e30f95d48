import { defineConfig } from 'vitest/config';

/**
 * The soak of the demo apps (`npm run test:soak`): both built apps in Chromium against the real REST
 * server for minutes of changes (`SOAK_MS`, default 3 minutes). Kept out of `npm test` and
 * `npm run test:e2e` (its own include); the demos are built once, as for the e2e tests.
 */
const soakMs = Number(process.env.SOAK_MS ?? 180_000);
// the apps are built with this gcTime (ms; default 60 s, `SOAK_GC_MS`), so that results released during
// the soak fall due and collections run while the pages stay open
process.env.VITE_RX_REST_GC_TIME = process.env.SOAK_GC_MS ?? '60000';

export default defineConfig({
  resolve: {
    alias: [{ find: /^rx-rest$/, replacement: new URL('../../core/index.ts', import.meta.url).pathname }],
  },
  test: {
    name: 'soak',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/soak/**/*.soak.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: soakMs + 240_000,
    hookTimeout: 120_000,
    teardownTimeout: 20_000,
  },
});
