import { buildDemos } from '../../demos/server/demoServers.mjs';

/** Builds the demo apps (into demos/<app>/dist, the SvelteKit app into demos/sveltekit-todo/build, the SolidStart app into demos/solidstart-todo/.output; git-ignored) once for the run. */
export default async function setup(): Promise<void> {
  process.env.VITE_RX_REST_EXPOSE = '1'; // the built apps put their controller on window (test/e2e/sync.e2e.ts)
  await buildDemos({ logLevel: 'warn' });
}
