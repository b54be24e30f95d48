/**
 * The SolidStart demo (demos/solidstart-todo) as a child process: `vinxi dev` (dev), or the Node server
 * that `vinxi build` wrote (preview). SolidStart 1.x runs on vinxi, not on the vite server the other
 * apps use, so it gets a process of its own. It reaches the REST server at `RX_REST_DEMO_API`.
 */
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The app's folder. */
export const SOLIDSTART_ROOT = fileURLToPath(new URL('../solidstart-todo/', import.meta.url));
const VINXI = fileURLToPath(new URL('../../node_modules/vinxi/bin/cli.mjs', import.meta.url));
/** Where `vinxi build` writes the Node server. */
const SERVER_ENTRY = `${SOLIDSTART_ROOT}.output/server/index.mjs`;

/** A port nobody listens on now (`preferred` when it is free). */
function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      if (preferred !== 0 && error.code === 'EADDRINUSE') resolve(freePort(0));
      else reject(error);
    });
    probe.listen(preferred, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Runs `node args` in the app's folder; resolves when it exits with 0, else rejects with its output. */
function run(args, env, logLevel) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: SOLIDSTART_ROOT, env: { ...process.env, ...env } });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
      if (logLevel === 'info') process.stdout.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

/** Builds the app into demos/solidstart-todo/.output (git-ignored). */
export function buildSolidStart({ logLevel = 'warn' } = {}) {
  return run([VINXI, 'build'], { NODE_ENV: 'production' }, logLevel);
}

/**
 * Starts the app on `port` (0: a free one; a taken preferred port moves on to a free one), against
 * the REST server at `api`. Resolves `{ url, close() }` once it listens.
 */
export async function startSolidStart({ mode = 'dev', port = 0, api, logLevel = 'warn' }) {
  const chosen = await freePort(port);
  const env = { ...process.env, RX_REST_DEMO_API: api, PORT: `${chosen}`, HOST: '127.0.0.1' };
  const args = mode === 'dev' ? [VINXI, 'dev', '--port', `${chosen}`] : [SERVER_ENTRY];
  if (mode !== 'dev') env.NODE_ENV = 'production';
  const child = spawn(process.execPath, args, { cwd: SOLIDSTART_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const show = (chunk) => {
    output += chunk;
    if (logLevel === 'info' || (logLevel === 'warn' && /error/i.test(chunk))) process.stderr.write(chunk);
  };
  child.stdout.setEncoding('utf8').on('data', show);
  child.stderr.setEncoding('utf8').on('data', show);
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${chosen}/`;
  // listening is enough: in dev, vinxi compiles each route on its first request
  const deadline = Date.now() + 120_000;
  while (!(await listening(chosen))) {
    if (child.exitCode !== null) throw new Error(`The SolidStart app exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await close();
      throw new Error(`The SolidStart app did not listen at ${url} within 2 minutes:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, close };
}
