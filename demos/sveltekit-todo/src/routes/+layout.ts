// One controller per server request, one per browser tab; its requests go through SvelteKit's fetch,
// so that the browser's first loads read what the server's loads fetched from the page itself.
import { persist } from 'rx-rest/persist';
import { loadController } from 'rx-rest/svelte';
import { CONTROLLER_OPTIONS } from '$shared/api';
import type { LayoutLoad } from './$types';

export const load: LayoutLoad = (event) => ({
  // on the server no retries (the default there): a page whose API is down fails at once. In the
  // browser the tab's data is kept in localStorage: persist does nothing on the server, and on a
  // server-rendered page it restores once the page is hydrated (the first render shows the server's data)
  controller: loadController(
    event,
    typeof window === 'undefined'
      ? {}
      : { ...CONTROLLER_OPTIONS, managers: [(c) => persist(c, { key: 'rx-rest-sveltekit-demo', version: 1 })] },
  ),
});
