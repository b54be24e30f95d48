import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

// run from this folder (SvelteKit reads its config from the working directory): see demos/server/sveltekitServer.mjs
export default defineConfig({
  plugins: [sveltekit()],
  server: { host: '127.0.0.1', port: 3213, fs: { allow: ['../..'] } },
  clearScreen: false,
});
