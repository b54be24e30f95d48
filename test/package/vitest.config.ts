import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: builds and packs the library, installs the tarball in a scratch project
 * outside the repository and uses it as a user would. Kept out of `npm test` (it builds and installs).
 */
export default defineConfig({
  test: {
    name: 'package',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/package/**/*.pkg.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
