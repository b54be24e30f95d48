#!/usr/bin/env node
/**
 * `npm run example`: starts the demos' REST server (json-server on a scratch copy of the seed, on a free
 * port), runs examples/first.ts with tsx against it (`RX_REST_API`), then stops the server and exits
 * with the example's exit code. `npm run example -- examples/other.ts` runs another example.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { copySeed, startRestServer } from '../demos/server/restServer.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = process.argv[2] ?? 'examples/first.ts';
const seed = copySeed();
const rest = await startRestServer({ file: seed.file, port: 0 });
console.log(`REST server: ${rest.url} (a scratch copy of demos/server/seed.json)\n$ tsx ${script}`);

const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = spawn(process.execPath, [tsx, script], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, RX_REST_API: rest.url },
});
const code = await new Promise((resolve) =>
  child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
await rest.close();
seed.remove();
process.exit(code);
