import { buildDemos } from '../../demos/server/demoServers.mjs';

/** Builds both demo apps (into demos/<app>/dist, git-ignored) once for the run. */
export default async function setup(): Promise<void> {
  await buildDemos({ logLevel: 'warn' });
}
