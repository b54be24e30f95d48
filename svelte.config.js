/** Svelte config for the test components (read by @sveltejs/vite-plugin-svelte and svelte-check). Svelte 5 compiles `lang="ts"` itself. */
export default {};
