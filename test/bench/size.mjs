#!/usr/bin/env node
/**
 * `npm run size`: the bundle-size budget. Bundles (vite/rolldown, minified) what a typical app imports
 * (createResource, Entity, schema.Collection, Controller with observe) with the rxjs code it pulls in, and
 * each package entry besides the core (the adapters, the add-ons) with rxjs, the core and its framework
 * left external; gzips each (level 9). `budget` is the target; `limit` is what CI enforces (exit 1 above
 * it): for the core, today's size plus a small margin, so that no change grows it unnoticed while the
 * target is still missed. The core case also fails when it bundles a module of `absent`: code that only
 * apps using that feature should carry (tree-shaking must leave it out).
 *
 * A new entry is one line in CASES: `entry('rx-rest/persist', 'adapters/persist/index.ts')`, with the
 * packages it imports besides rxjs and the core as a third argument (`['svelte']`).
 *
 * Then builds each demo app for production (its own vite config) and prints what a page loads at start and
 * the chunks it loads on demand; it fails when the JavaScript loaded at start holds the devtools panel
 * (`--no-demos` skips them).
 *
 * `--modules`: also prints, for the core case, what each source module weighs in the minified bundle (from the
 * bundle's source map) and its share of the gzip size (in proportion to its minified bytes).
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KiB = 1024;

/** A package and its subpaths (`svelte`, `svelte/store`), for `external`. */
const packageId = (name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/.*)?$`);

/** A package entry besides the core: bundled with rxjs, the core and `packages` left external. */
function entry(name, file, packages = [], limit = 1.5 * KiB) {
  return {
    name: `${name} (${[...packages, 'rxjs', 'the core'].join(', ')} external)`,
    budget: 1.5 * KiB,
    limit,
    external: [...packages.map(packageId), packageId('rxjs'), /\/core\/index\.(js|ts)$/],
    code: `export * from ${JSON.stringify(path.join(root, file))};`,
  };
}

const CASES = [
  {
    name: 'core: createResource, Entity, schema.Collection, Controller + observe, with rxjs',
    budget: 14 * KiB,
    limit: 28.4 * KiB, // 28.23 KiB: 23.49 once snapshots became functions of their own, +0.69 for the read and write paths' speed, +0.12 the memo letting go of dropped data, +0.13 all-or-nothing writes (a failed normalize undoes its in-place writes), +0.45 runtime validation (ValidationError and its two checks: a validator is any Standard Schema object, imported from nothing of ours, so they cannot tree-shake), +0.83 checked restores (initialState: times, depth, SnapshotError) and the collection of deleted records, +1.10 data-client parity (Collections of schema.Values, Invalidate of a Union, path syntax checked when an endpoint is built, static defaults), +0.57 server rendering (Controller fetch, table names that survive minification, the gc rule for prefetched keys), +0.91 one ordering stamp per write and lists merged from older responses with their later edits replayed (issue 27); see docs/performance.md
    external: [],
    // only apps that use these bundle them: the other schema families, the helpers of their own entries, snapshots
    // and their merge, rxjs's schedulers
    absent: [
      'core/schema/Polymorphic.ts',
      'core/schema/Union.ts',
      'core/schema/All.ts',
      'core/schema/Query.ts',
      'core/schema/Values.ts',
      'core/schema/EntityMixin.ts',
      'core/controller/infinite.ts',
      'core/controller/mutation.ts',
      'core/controller/placeholder.ts',
      'core/controller/controllerSnapshot.ts',
      'core/store/stateSnapshot.ts',
      'rxjs/dist/esm5/internal/scheduler/AsyncScheduler.js',
    ],
    code: `
      import { Controller, Entity, createResource, schema } from ${JSON.stringify(path.join(root, 'core/index.ts'))};
      export class Todo extends Entity {
        id = 0; title = ''; completed = false;
        pk() { return String(this.id); }
        static key = 'Todo';
      }
      export const TodoResource = createResource({ urlPrefix: 'https://api.example.com', path: '/todos/:id', schema: Todo, optimistic: true });
      export const todos = new schema.Collection([Todo]);
      export const controller = new Controller();
      controller.observe(TodoResource.getList, {}).subscribe((state) => console.log(state));
    `,
  },
  entry('rx-rest/svelte', 'adapters/svelte/index.ts', ['svelte']),
  // 1.89 KiB: 1.06 before server rendering (+0.83: the query resolving on the server, its snapshot restored while
  // hydrating, controllerPerRequest, preloadQuery; a browser build drops the server-only branches, isServer
  // being false there, but solid-js is external here)
  entry('rx-rest/solid', 'adapters/solid/index.ts', ['solid-js'], 1.95 * KiB),
  {
    ...entry('rx-rest/devtools', 'adapters/devtools/index.ts'),
    name: 'rx-rest/devtools connectDevtools (rxjs, the core external)',
    code: `export { connectDevtools } from ${JSON.stringify(path.join(root, 'adapters/devtools/index.ts'))};`,
  },
  {
    ...entry('rx-rest/devtools', 'adapters/devtools/index.ts'),
    name: 'rx-rest/devtools mountDevtools, the in-page panel (rxjs, the core external)',
    budget: 8 * KiB,
    limit: 8.5 * KiB, // 7.66 KiB today
    code: `export { mountDevtools } from ${JSON.stringify(path.join(root, 'adapters/devtools/index.ts'))};`,
  },
  entry('rx-rest/persist', 'adapters/persist/index.ts'),
  entry('rx-rest/sync', 'adapters/sync/index.ts'),
];

/** Minified bundle of one virtual entry module (with its source map when `sourcemap` is set). */
async function bundle({ code, external }, sourcemap = false) {
  const entry = '\0size-entry.js';
  const output = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      {
        name: 'size-entry',
        resolveId: (id) => (id === 'size-entry' ? entry : undefined),
        load: (id) => (id === entry ? code : undefined),
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap,
      rolldownOptions: { input: 'size-entry', external, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  if (sourcemap) return chunks[0];
  return chunks.map((c) => c.code).join('\n');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one source-map segment (base64 VLQ) into its fields. */
function decodeSegment(segment) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** Minified bytes per source file of a chunk: each generated range goes to the source its mapping names. */
function bytesBySource(chunk) {
  const { sources, mappings } = chunk.map;
  const lines = chunk.code.split('\n');
  const bytes = new Map();
  let sourceIndex = 0;
  mappings.split(';').forEach((line, lineNo) => {
    const text = lines[lineNo] ?? '';
    let column = 0;
    let owner;
    let from = 0;
    for (const segment of line ? line.split(',') : []) {
      const fields = decodeSegment(segment);
      column += fields[0];
      if (owner !== undefined) bytes.set(owner, (bytes.get(owner) ?? 0) + column - from);
      if (fields.length > 1) sourceIndex += fields[1];
      owner = fields.length > 1 ? sources[sourceIndex] : '(unmapped)';
      from = column;
    }
    if (owner !== undefined) bytes.set(owner, (bytes.get(owner) ?? 0) + text.length - from);
    else if (text.length) bytes.set('(unmapped)', (bytes.get('(unmapped)') ?? 0) + text.length);
  });
  return bytes;
}

/** A bundled module's source path as printed and matched by `absent`: `core/...`, `rxjs/dist/...`. */
const moduleName = (source) => source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');

/** Prints what each source module weighs in the core bundle. */
async function printModules(item) {
  const chunk = await bundle(item, true);
  const gzipped = gzipSync(chunk.code, { level: 9 }).length;
  const bytes = [...bytesBySource(chunk)].map(([source, size]) => [moduleName(source), size]);
  bytes.sort((a, b) => b[1] - a[1]);
  const total = chunk.code.length;
  console.log(`\n  per module (minified bytes; gzip share in proportion), total ${total} B, ${gzipped} B gzip:`);
  for (const [source, size] of bytes)
    console.log(
      `  ${String(size).padStart(7)} B  ${String(Math.round((gzipped * size) / total)).padStart(6)} B gzip  ${source}`,
    );
}

let failed = false;
console.log('bundle size (minified, gzip -9)');
for (const item of CASES) {
  const code = await bundle(item);
  const gzipped = gzipSync(code, { level: 9 }).length;
  const overLimit = gzipped > item.limit;
  failed ||= overLimit;
  const verdict = overLimit
    ? 'OVER LIMIT'
    : gzipped > item.budget
      ? `over target by ${((gzipped - item.budget) / KiB).toFixed(2)} KiB`
      : 'ok';
  console.log(
    `  ${(gzipped / KiB).toFixed(2).padStart(6)} KiB gzip (${(code.length / KiB).toFixed(1)} KiB min)  target ${(item.budget / KiB).toFixed(1)} KiB, limit ${(item.limit / KiB).toFixed(2)} KiB: ${verdict}  ${item.name}`,
  );
  if (item.absent) {
    const bundled = new Set((await bundle(item, true)).map.sources.map(moduleName));
    const present = item.absent.filter((module) => bundled.has(module));
    failed ||= present.length > 0;
    for (const module of present) console.log(`        BUNDLES ${module}, which only apps that use it should`);
  }
  if (item.external.length === 0) {
    // the share of rxjs: the same entry with rxjs left out
    const own = gzipSync(await bundle({ ...item, external: [/^rxjs(\/.*)?$/] }), { level: 9 }).length;
    console.log(
      `        ${(own / KiB).toFixed(2).padStart(6)} KiB gzip of it without rxjs (rxjs adds ${((gzipped - own) / KiB).toFixed(2)} KiB)`,
    );
  }
}
/** The demo apps' production builds: what a page loads at start, and the chunks it loads later. */
const DEMOS = ['svelte-todo', 'solid-todo'];
/** A string only the devtools panel's code holds. */
const PANEL_MARK = 'data-rx-rest-devtools';

async function printDemo(app) {
  const output = await build({
    configFile: path.join(root, 'demos', app, 'vite.config.ts'),
    logLevel: 'silent',
    mode: 'production',
    build: { write: false },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initial = new Set();
  const visit = (chunk) => {
    if (initial.has(chunk)) return;
    initial.add(chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
  const size = (list) => {
    const code = list.map((c) => c.code).join('\n');
    return `${(gzipSync(code, { level: 9 }).length / KiB).toFixed(2).padStart(6)} KiB gzip (${(code.length / KiB).toFixed(1)} KiB min)`;
  };
  const leaks = [...initial].filter((c) => c.code.includes(PANEL_MARK));
  failed ||= leaks.length > 0;
  console.log(
    `  ${size([...initial])}  demos/${app}: the JavaScript a page loads at start${leaks.length ? ': HOLDS THE DEVTOOLS PANEL' : ', without the devtools panel'}`,
  );
  for (const chunk of chunks.filter((c) => !initial.has(c)))
    console.log(
      `  ${size([chunk])}    loaded on demand: ${chunk.fileName.replace(/-[\w-]{8}\.js$/, '.js')}${chunk.code.includes(PANEL_MARK) ? ' (the devtools panel)' : ''}`,
    );
}

if (!process.argv.includes('--no-demos')) {
  console.log('demo apps, production builds (the panel loads in development, or on demand)');
  for (const app of DEMOS) await printDemo(app);
}
if (process.argv.includes('--modules')) await printModules(CASES[0]);
if (failed) {
  console.error('bundle size: over the limit, or a module bundled that should not be');
  process.exit(1);
}
