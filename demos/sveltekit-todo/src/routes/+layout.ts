// One controller per server request, one per browser tab; its requests go through SvelteKit's fetch,
// so that the browser's first loads read what the server's loads fetched from the page itself.
import { loadController } from 'rx-rest/svelte';
import { CONTROLLER_OPTIONS } from '$shared/api';
import type { LayoutLoad } from './$types';

export const load: LayoutLoad = (event) => ({
  // on the server no retries (the default there): a page whose API is down fails at once
  controller: loadController(event, typeof window === 'undefined' ? {} : CONTROLLER_OPTIONS),
});
