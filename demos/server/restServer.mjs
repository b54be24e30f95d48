/**
 * The demos' REST server: json-server 0.17 over a scratch copy of `seed.json` (users and todos), on
 * 127.0.0.1, plus `GET /events`, a Server-Sent Events stream of every change of the todos (see
 * todoEvents.mjs). Used by `npm run demo` and by the end-to-end tests, which can stop, restart and reset it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonServer from 'json-server';
import { todoEvents } from './todoEvents.mjs';

/** The seeded database (never written: the server works on a copy). */
export const SEED_FILE = fileURLToPath(new URL('./seed.json', import.meta.url));

/**
 * The seed with its `createdAt` timestamps moved so that the newest todo is `newestAgeMs` old at `now`,
 * so the relative times read "20 minutes ago", "yesterday", ... whenever the demo runs.
 */
export function seedData({ now = Date.now(), newestAgeMs = 20 * 60_000 } = {}) {
  const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8'));
  const newest = Math.max(...seed.todos.map((todo) => Date.parse(todo.createdAt)));
  const shift = now - newestAgeMs - newest;
  for (const todo of seed.todos) todo.createdAt = new Date(Date.parse(todo.createdAt) + shift).toISOString();
  return seed;
}

/** Writes the (time-shifted) seed into a new scratch folder; `remove()` deletes the folder. */
export function copySeed(options) {
  const dir = mkdtempSync(join(tmpdir(), 'rx-rest-demo-'));
  const file = join(dir, 'db.json');
  writeFileSync(file, JSON.stringify(seedData(options), null, 2));
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const require = createRequire(import.meta.url);
const homepage = join(dirname(require.resolve('json-server/package.json')), 'public');

/** Methods that never write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Starts json-server on `host:port` (port 0: a free one) over `file`, with the live stream at
 * `/events` (a keep-alive comment every `keepAliveMs`). `stop()` closes it (ending the streams and
 * dropping open connections), `start()` listens again on the same port, `reset()` puts the file's
 * initial content back, `close()` stops it for good. `requests` lists every request received.
 */
export async function startRestServer({ file, host = '127.0.0.1', port = 0, keepAliveMs }) {
  const initial = readFileSync(file, 'utf8');
  const app = jsonServer.create();
  const router = jsonServer.router(file);
  const events = todoEvents({ readTodos: () => router.db.get('todos').value(), keepAliveMs });
  /** Every request received, as `METHOD /path?query` (the end-to-end tests count them). */
  const requests = [];
  app.use((req, _res, next) => {
    requests.push(`${req.method} ${req.url}`);
    next();
  });
  // before json-server's defaults: their gzip would hold the stream's messages back
  app.get('/events', events.stream);
  // json-server's defaults: its homepage (listing /todos and /users), CORS, no-cache headers
  app.use(jsonServer.defaults({ logger: false, static: homepage }));
  // once a request that may write is done (answered or abandoned), the stream tells what changed
  app.use((req, res, next) => {
    if (!READS.has(req.method)) res.once('close', events.publish);
    next();
  });
  app.use(router);

  let server;
  const listen = (wanted) =>
    new Promise((resolve, reject) => {
      const next = createServer(app);
      next.once('error', reject);
      next.listen(wanted, host, () => {
        server = next;
        resolve(next.address().port);
      });
    });
  const actualPort = await listen(port);

  const rest = {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    file,
    requests,
    get running() {
      return server !== undefined;
    },
    /** The current data, as the server holds it. */
    data: () => router.db.getState(),
    reset() {
      router.db.setState(JSON.parse(initial)).write();
      events.publish();
    },
    events: {
      get clients() {
        return events.clients;
      },
      get connections() {
        return events.connections;
      },
      send: events.send,
      drop: events.drop,
    },
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      events.drop();
      await new Promise((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    },
    async start() {
      if (!server) await listen(actualPort);
    },
    close: () => rest.stop(),
  };
  return rest;
}
