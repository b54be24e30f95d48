/**
 * Svelte config for the test components (read by @sveltejs/vite-plugin-svelte and svelte-check). Svelte 5
 * compiles `lang="ts"` itself. `experimental.async` (Svelte 5.36+): components may `await` in their
 * script and markup, and `render` on the server waits for it (the tests of `fetchQuery`).
 */
export default { compilerOptions: { experimental: { async: true } } };
