/**
 * The SvelteKit demo's servers, each in a child process started in demos/sveltekit-todo (SvelteKit
 * reads its config from the working directory): `vite dev` with the kit plugin, or the production
 * build (`vite build`, adapter-node) served by `node build`. The app reaches the REST server through
 * its own `/api` route (src/hooks.server.ts), told by `RX_REST_DEMO_API`.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The app's folder. */
export const SVELTEKIT_ROOT = fileURLToPath(new URL('../sveltekit-todo/', import.meta.url));

import { dirname, join } from 'node:path';

const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');

/** `port` when it is free, else a free one (`port` 0: any free one). */
export function freePort(port = 0) {
  const tryPort = (wanted) =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(wanted, '127.0.0.1', () => {
        const { port: got } = server.address();
        server.close(() => resolve(got));
      });
    });
  return tryPort(port).catch((error) => {
    if (error?.code !== 'EADDRINUSE' || port === 0) throw error;
    return tryPort(0);
  });
}

/** Runs `node args` in the app's folder; resolves when it exits with 0. */
function run(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: SVELTEKIT_ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

/**
 * Builds the app into demos/sveltekit-todo/build (git-ignored), as production: under a test runner
 * (NODE_ENV=test) SvelteKit would otherwise build its client with its development checks on.
 */
export function buildSvelteKit() {
  return run([vite, 'build', '--logLevel', 'warn'], { NODE_ENV: 'production' });
}

/**
 * Starts the app (`mode` 'dev' or 'preview') on `port` (0: a free one) against the REST server at
 * `api`. Resolves `{ url, close() }` once it answers; `close()` ends the child process.
 */
export async function startSvelteKit({ mode = 'dev', port = 0, api }) {
  const chosen = await freePort(port);
  const env = { ...process.env, RX_REST_DEMO_API: api, PORT: String(chosen), HOST: '127.0.0.1' };
  if (mode !== 'dev') env.NODE_ENV = 'production';
  const args =
    mode === 'dev'
      ? [vite, 'dev', '--port', String(chosen), '--strictPort', '--host', '127.0.0.1', '--logLevel', 'warn']
      : ['build/index.js'];
  const child = spawn(process.execPath, args, { cwd: SVELTEKIT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const orphan = () => child.kill(); // this process ends: so does the app
  process.once('exit', orphan);
  const url = `http://127.0.0.1:${chosen}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the SvelteKit app exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`the SvelteKit app did not answer at ${url}:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    /** What the app printed lately (errors, hydration warnings of the server). */
    get output() {
      return output;
    },
    async close() {
      process.off('exit', orphan);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
