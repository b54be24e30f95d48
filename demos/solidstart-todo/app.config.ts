/**
 * The SolidStart demo's config (vinxi): `rx-rest` resolves to the library's source, like the other
 * demos, and the built app is a Node server (`.output/server/index.mjs`). The REST server is reached
 * through the app's own `/api` route (src/routes/api/[...path].ts), in dev and in production alike.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@solidjs/start/config';

const source = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default defineConfig({
  server: { preset: 'node-server' },
  vite: {
    resolve: {
      alias: [
        { find: /^rx-rest$/, replacement: source('core/index.ts') },
        { find: /^rx-rest\/solid$/, replacement: source('adapters/solid/index.ts') },
        { find: /^rx-rest\/devtools$/, replacement: source('adapters/devtools/index.ts') },
        { find: /^rx-rest\/persist$/, replacement: source('adapters/persist/index.ts') },
      ],
    },
    // the library's source and the shared demo modules live above this folder
    server: { fs: { allow: [source('')] } },
    clearScreen: false,
  },
});
