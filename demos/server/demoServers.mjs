/**
 * Starts the whole demo: the REST server on a scratch copy of the seed, and both apps through vite
 * (`dev`: vite's dev server; `preview`: the built apps from `vite build`, served by `vite preview`).
 * The apps reach the REST server through vite's `/api` proxy (see demos/vite.shared.ts).
 */
import { fileURLToPath } from 'node:url';
import { build, createServer, preview } from 'vite';
import { copySeed, startRestServer } from './restServer.mjs';
import { buildSvelteKit, startSvelteKit } from './sveltekitServer.mjs';
import { buildSolidStart, startSolidStart } from './solidStart.mjs';

/** The SolidStart app's preferred port (its own process: see solidStart.mjs). */
export const SOLIDSTART_PORT = 3214;

/** The two demo apps: name, folder and preferred port. */
export const APPS = [
  { name: 'svelte', title: 'Svelte app', root: fileURLToPath(new URL('../svelte-todo/', import.meta.url)), port: 3211 },
  { name: 'solid', title: 'Solid app', root: fileURLToPath(new URL('../solid-todo/', import.meta.url)), port: 3212 },
];

/** Builds both apps into demos/<app>/dist (git-ignored). */
export async function buildDemos({ logLevel = 'warn' } = {}) {
  for (const app of APPS) {
    await build({ configFile: `${app.root}vite.config.ts`, logLevel });
  }
  await buildSvelteKit(); // demos/sveltekit-todo/build (adapter-node)
  await buildSolidStart({ logLevel });
}

async function startRest(file, port) {
  try {
    return await startRestServer({ file, port });
  } catch (error) {
    if (error?.code !== 'EADDRINUSE' || port === 0) throw error;
    return startRestServer({ file, port: 0 }); // the preferred port is taken: any free one
  }
}

/**
 * Starts the REST server and the apps. `ports: 'fixed'` prefers 3210 (REST), 3211 (Svelte), 3212
 * (Solid) and 3213 (SvelteKit; `sveltekit: false` leaves it out) and 3214 (SolidStart; `solidstart: false` leaves it out), moving on when one is taken; `ports: 'free'` takes free ones. Resolves
 * `{ rest, apps: { svelte, solid } (URLs), close() }`; `close()` stops everything and deletes the scratch copy.
 */
export async function startDemo({
  mode = 'dev',
  ports = 'fixed',
  logLevel = 'info',
  sveltekit = true,
  solidstart = true,
} = {}) {
  const seed = copySeed();
  // vite's dev server exits the process on SIGTERM by itself: delete the scratch copy on any exit
  process.once('exit', seed.remove);
  const servers = [];
  let rest;
  const close = async () => {
    await Promise.allSettled(servers.map((server) => server.close()));
    await rest?.close();
    seed.remove();
    process.off('exit', seed.remove);
  };
  try {
    rest = await startRest(seed.file, ports === 'free' ? 0 : 3210);
    process.env.RX_REST_DEMO_API = rest.url; // read by demos/vite.shared.ts when each app's config loads
    const apps = {};
    for (const app of APPS) {
      const configFile = `${app.root}vite.config.ts`;
      const port = ports === 'free' ? 0 : app.port;
      let server;
      if (mode === 'dev') {
        server = await createServer({ configFile, logLevel, server: { port, strictPort: false } });
        await server.listen();
      } else {
        server = await preview({ configFile, logLevel, preview: { port, strictPort: false } });
      }
      servers.push(server);
      const address = server.httpServer.address();
      apps[app.name] = `http://127.0.0.1:${address.port}/`;
    }
    // the SvelteKit app: its own process (vite dev with the kit plugin, or `node build`), preferred port 3213
    if (sveltekit) {
      const kit = await startSvelteKit({ mode, port: ports === 'free' ? 0 : 3213, api: rest.url });
      servers.push(kit);
      apps.sveltekit = kit.url;
    }
    if (solidstart) {
      const solidStart = await startSolidStart({
        mode,
        port: ports === 'free' ? 0 : SOLIDSTART_PORT,
        api: rest.url,
        logLevel,
      });
      servers.push(solidStart);
      apps.solidstart = solidStart.url;
    }
    return { rest, apps, scratch: seed.file, close };
  } catch (error) {
    await close();
    throw error;
  }
}
