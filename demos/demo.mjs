#!/usr/bin/env node
/**
 * `npm run demo`: the REST server on a scratch copy of the seed, and the Svelte and Solid apps (vite
 * dev servers; `--preview` builds them and serves the build instead) and the SolidStart app (`vinxi dev`;
 * with `--preview` its built Node server). Prints every URL. Type `s` and
 * Enter to stop or restart the REST server and its live stream (the apps show an error, keep their
 * data and recover), `q` and Enter or Ctrl-C to quit. SIGTERM, SIGINT or SIGHUP (to this process or to
 * the `npm run demo` that started it) stops every server it started.
 */
import { createInterface } from 'node:readline';
import { buildDemos, startDemo } from './server/demoServers.mjs';

const mode = process.argv.includes('--preview') ? 'preview' : 'dev';
if (mode === 'preview') await buildDemos();
const demo = await startDemo({ mode, logLevel: 'warn' });

console.log(`
rx-rest demo (${mode === 'dev' ? 'vite dev servers' : 'built apps, vite preview'})

  Svelte app    ${demo.apps.svelte}
  Solid app     ${demo.apps.solid}
  SvelteKit app   ${demo.apps.sveltekit}
  SolidStart app  ${demo.apps.solidstart}
  REST server   ${demo.rest.url}/   (json-server: ${demo.rest.url}/todos, ${demo.rest.url}/users)
  live stream   ${demo.rest.url}/events   (Server-Sent Events: every todo created, updated or deleted)
  data          ${demo.scratch} (a scratch copy of demos/server/seed.json)

Open both apps side by side: a change in one (or a curl to the REST server) shows in the other at once.
Type s + Enter to stop/start the REST server, q + Enter or Ctrl-C to quit.
`);

let closing = false;
async function quit() {
  if (closing) return;
  closing = true;
  await demo.close();
  process.exit(0);
}
process.on('SIGINT', quit);
process.on('SIGTERM', quit);
process.on('SIGHUP', quit);
// `npm run demo` starts this script through `sh -c`, and a signal to npm ends only that shell: when the
// process that started us is gone (our parent changes), stop everything rather than hold the ports
const parent = process.ppid;
setInterval(() => process.ppid !== parent && quit(), 250).unref();

if (process.stdin.isTTY || process.env.RX_REST_DEMO_STDIN) {
  const input = createInterface({ input: process.stdin });
  input.on('line', async (line) => {
    const command = line.trim().toLowerCase();
    if (command === 'q') return quit();
    if (command !== 's') return;
    if (demo.rest.running) {
      await demo.rest.stop();
      console.log(
        'REST server and live stream stopped: the apps show an error and keep their data. Type s + Enter to start it again.',
      );
    } else {
      await demo.rest.start();
      console.log(`REST server running again at ${demo.rest.url}/: the apps recover within seconds.`);
    }
  });
}
