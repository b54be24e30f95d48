/**
 * Vite settings shared by the two demo apps (kept apart from the library's vite.config.ts): `rx-rest`
 * resolves to the library's source, and `/api` is proxied to the REST server, so the apps make
 * same-origin requests (no CORS) in `vite` (dev) and `vite preview` (built) alike.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginOption, ProxyOptions, UserConfig } from 'vite';

/** Where the REST server listens unless `RX_REST_DEMO_API` says otherwise. */
export const DEFAULT_API = 'http://127.0.0.1:3210';

const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The config of one demo app: its folder, its framework plugin and its default port. */
export function demoConfig(appUrl: string, plugins: PluginOption[], port: number): UserConfig {
  const api = process.env.RX_REST_DEMO_API ?? DEFAULT_API;
  const proxy: Record<string, ProxyOptions> = {
    '/api': { target: api, changeOrigin: true, rewrite: (path) => path.replace(/^\/api/, '') },
  };
  const root = fileURLToPath(new URL('.', appUrl));
  return {
    root,
    // each app pre-bundles its own dependencies: with one shared cache, one app's optimizer run makes
    // the other's bundles outdated and its page stays blank (504 "Outdated Optimize Dep")
    cacheDir: source(`node_modules/.vite/demo-${basename(root)}`),
    plugins,
    resolve: {
      alias: [
        { find: /^rx-rest$/, replacement: source('core/index.ts') },
        { find: /^rx-rest\/svelte$/, replacement: source('adapters/svelte/index.ts') },
        { find: /^rx-rest\/solid$/, replacement: source('adapters/solid/index.ts') },
        { find: /^rx-rest\/devtools$/, replacement: source('adapters/devtools/index.ts') },
        { find: /^rx-rest\/sync$/, replacement: source('adapters/sync/index.ts') },
      ],
    },
    server: { host: '127.0.0.1', port, proxy },
    preview: { host: '127.0.0.1', port, proxy },
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
    clearScreen: false,
  };
}
