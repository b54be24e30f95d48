/**
 * The SvelteKit demo's config: adapter-node (`node build` serves the production build), and `rx-rest`
 * resolved to the library's source, as in the other demos (the specific entry points first).
 */
import adapter from '@sveltejs/adapter-node';

const source = (path) => new URL(`../../${path}`, import.meta.url).pathname;

export default {
  kit: {
    adapter: adapter({ out: 'build' }),
    alias: {
      'rx-rest/svelte': source('adapters/svelte/index.ts'),
      'rx-rest/devtools': source('adapters/devtools/index.ts'),
      'rx-rest/persist': source('adapters/persist/index.ts'),
      'rx-rest/sync': source('adapters/sync/index.ts'),
      'rx-rest': source('core/index.ts'),
      // the other demos' shared modules (api.ts, live.ts)
      $shared: source('demos'),
    },
  },
};
