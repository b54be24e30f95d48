#!/usr/bin/env node
/**
 * `npm run size`: the bundle-size budget. Bundles what a typical app imports (createResource, Entity,
 * schema.Collection, Controller with observe) with the rxjs code it pulls in twice, as an app's production
 * build would: with Vite (rolldown, Oxc's minifier) and with esbuild (`--bundle --minify`), both with
 * `process.env.NODE_ENV` = "production" (what both define in an app's production build); and each package
 * entry besides the core (the adapters, the add-ons) with Vite, rxjs, the core and its framework left
 * external. Gzips each (level 9). `budget` is the target; `limit` is what CI enforces (exit 1 above it): the
 * size it has now plus a small margin, so that no change grows it unnoticed. The core case also fails when
 * its Vite bundle holds a module of `absent`: code that only apps using that feature should carry
 * (tree-shaking must leave it out; esbuild keeps every class of the `schema` namespace once `schema.X` is
 * used, since it builds the namespace object whole).
 *
 * A new entry is one line in CASES: `entry('rx-rest/persist', 'adapters/persist/index.ts')`, with the
 * packages it imports besides rxjs and the core as a third argument (`['svelte']`).
 *
 * Then builds each demo app for production (its own vite config) and prints what a page loads at start and
 * the chunks it loads on demand; it fails when the JavaScript loaded at start holds the devtools panel
 * (`--no-demos` skips them).
 *
 * `--modules`: also prints, for the core case, what each source module weighs in the minified bundle (Vite: from
 * the bundle's source map; esbuild: its metafile) and its share of the gzip size (in proportion to its minified
 * bytes).
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import * as esbuild from 'esbuild';

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
    budget: 20 * KiB,
    // the size today plus a small margin, per bundler; the history is in docs/performance.md ("The bundle"):
    // 25.9 / 28.4 after the error prose left development, then +0.7 for the read path that walks only what a write
    // changed (memo/Readers.ts, writeSteps.ts) and +0.3 for the list-edit and tie-break fixes; 26.27 / 28.82 after
    // the schema classes answered for themselves (Union, Values, Array, Object), peekQuery and watchQuery left the
    // controller, the path checks' prose left production and the teardowns went into a Subscription; then +1.1 for
    // the engine's list patching (memo/patchList.ts, Recording.ts, TableSlots.ts), +0.2 for set([Entity], rows), +0.3
    // for collecting deleted records while pages stay open (GarbageCollector's sweep, Pins.ts) and +0.2 for the first
    // read's field copy: 27.97 / 30.54; 27.69 / 30.24 after the last prose left production (the request a
    // NormalizeError names, the abort reasons, the renamed-class report, ...: -0.29 with both); 27.76 / 30.30 with the
    // query cache's and the readers' for...of loops back; 27.89 / 30.41 with a stream's re-read waiting for the end of
    // the task while its subscribers batch (QueryStream.changed, +0.13; endOfTask.ts itself only with watchQuery);
    // 28.00 / 30.52 with the first read's shared one-read dependency lists (memo/Recording.ts, +0.11)
    // 28.09 / 30.59 on main then; 28.21 / 30.68 with the sweep of deleted records walking the store only when a
    // transition wrote a deleted record or an edited list (GarbageCollector.changed, +0.12 / +0.09); 27.97 / 30.48
    // with less code for the same contract (one Requests.mark, the retry waits on one signal, the list members'
    // Collection through mapCollection, the store queries as functions, ...: -0.24 / -0.20); 28.04 / 30.56 with a list of an
    // entity class read by pk straight through the record's read (DenormalizeContext.listPlan, +0.08 / +0.10: a
    // page's first reads and first writes run cold, docs/performance.md); 28.20 / 30.67 (main at 28.06 / 30.56 then) with
    // a node a write reached built again at once (memo/Readers.ts reached) and the sweep's index of what it may
    // bury (GarbageCollector.changed): +0.14 / +0.11; 28.38 / 30.86 with a long list's rows indexed by their table
    // (ReadResult.index, QueryCache.byPath: +0.18 / +0.19), 28.60 / 31.10 with a first read's plain rows built in
    // one loop (memo/buildEntity.ts readRows: +0.22 / +0.24), and 28.65 / 31.15 with a long list's re-read that left
    // its data as it was telling nothing (QueryStream.update): the core's first read of 5,000 rows, cold, a quarter
    // less CPU (docs/performance.md, "A long list's index and rows, first read cold"); 28.77 / 31.29 with three
    // faults of those reads fixed (a list that gives up patching keeps its previous reads, a read keeps its paths only
    // while no other read reshaped a record, an unreadable long list quiet on its table's writes: +0.11 / +0.11;
    // docs/performance.md, "The newest read paths, reviewed against a fresh read"); 28.80 / 31.33 with the checks of
    // controller.set (a schema that is not one, a value that is not a record), an observed queryable listening before
    // its first emission and every afterQueries run run though one throws (+0.03 / +0.04); 28.86 / 31.40 with a
    // record written twice by one normalize that ends as it was kept as the same record (TableWriter.original: +0.06);
    // 28.88 / 31.40 with state$ giving each subscriber the state as it is when its turn comes (+0.02 / +0.00);
    // 28.93 / 31.45 with a record missing in one read and found in the next counted as a change of what was read
    // (memo/dependencies.ts sameRecords) and the records a live store query shows kept by the collector
    // (StoreQueries.storeObserve, QueryCache.liveQueries): +0.05 / +0.05; 28.97 / 31.48 with a list a sweep rewrote
    // read back as the same list (memo/dependencies.ts nodesStillIn, sameList: +0.04 / +0.03); 29.06 / 31.58 with
    // the writes that nothing read between them joined into one step (writeSteps.ts: a burst read at the end of its
    // task as one write) and set's one check of an Entity's record (+0.08 / +0.09); 29.33 / 31.83 with a record
    // rewritten equal to what its node was built from read back as that node's instance (a change and its revert in
    // one task, an optimistic answer equal to what was shown: memo/ReadPass.ts, +0.08), actions$ in the order the
    // writes were made when a subscriber writes while the store emits (ActionLog: +0.16), a thenable validator
    // answer and an initialState that is no state refused (+0.01 / +0.01); 29.38 / 31.90 with a validate() that
    // throws a ValidationError with its cause, an odd validator answer refused in production too, and a usable pk
    // or none in a ValidationError (+0.05 / +0.07); 29.40 / 31.91 with a restored error's message kept by JSON (+0.02 /
    // +0.01); 29.63 / 32.17 with the deserializers that must be built with new found (+0.04 / +0.03), the store
    // calling its transitions' listeners itself instead of through an rxjs Subject (+0.05 / +0.07), a restored
    // ValidationError kept (issues, entity, pk) by snapshots and initialState (+0.10 / +0.12), a refresh's
    // ParseError keeping the data (+0.01) and deletion marks held for sync and persist (+0.03 / +0.02); 29.88 /
    // 32.44 with a request in flight shared only by callers of the same signal and timeout, an endpoint's signal
    // ending a retry's or the network's wait, and a reset ending a request waiting offline (+0.06 / +0.09), each
    // instance's own copy of an array or plain-object class default (+0.11 / +0.10) and Entity.pk(value) as a
    // string, a disposed controller named by the caller's function, a bigint named by JSON.stringify of a state
    // (+0.07 / +0.06); 29.96 / 32.51 with an error written to the state keeping its name and message through
    // JSON (+0.04 / +0.04) and a key's freshness capped at its date plus the reading endpoint's lifetime (+0.04 / +0.03);
    // 30.14 / 32.72 with a list endpoint reading the list a nested collection stored under its arguments (+0.01 /
    // +0.02), a Date, Map or Set class default copied per instance and a restored date capped at the controller's
    // clock (+0.03 / +0.05), and in the request runner a key's last observer aborting every request only its
    // observers wanted, an observer waiting for an optimistic delete instead of refetching past it, and a lifetime
    // of 0 refetched when a subscriber arrives rather than on every re-read (+0.14 / +0.14); 30.49 / 33.12 with a
    // rolled-back optimistic write read back as the objects shown before it and a Values collection's writes without
    // a second equality walk (memo's prior value, collectionMerges: +0.17 / +0.22), getOptimisticResponse run again
    // whenever the layers apply and each polling subscriber's own period (+0.08 / +0.08), and a GET sent while a
    // mutation runs writing its entities as older than it, the entity of a delete in flight loading, a poll waiting
    // for that delete (+0.10 / +0.12); 30.52 / 33.16 with that comparison run only after a transition that took layers
    // away (MemoCache.undoing, +0.03 / +0.04: without it case D paid about a fifth more); 30.98 / 33.61 with a
    // write made while a mutation is in flight keeping the stamps of the fields it leaves, so that the mutation's
    // answer and layer still write them, and the GET-during-mutation rule only for mutations that can write the GET's
    // tables (Normalizer#byField, schemaTables: +0.41 / +0.40), a hydrating page not refetching data for its age
    // (+0.02) and expireAll / invalidateAll refusing a non-endpoint in production too (+0.03 / +0.03); 31.17 / 33.81
    // with a watched key's `stale` turning true at its expiry (one timer per watched key, as TanStack's observers
    // have), lifetimes of Infinity kept finite for JSON and lifetimes that are no number refused (+0.15 / +0.15) and
    // an entity's validator read off the class once per write (one assigned after its first use counts: +0.02);
    // 31.28 / 33.93 with review14's request runner (a set or setResponse during a GET of its tables keeping field
    // stamps, a delete answered over a partial set made meanwhile, entities with their own merge written field by
    // field while a request is in flight, an Invalidate counting only its own table: +0.07 / +0.09) and lifecycle
    // (timers capped at 24.8 days, requests stamped after a restored invalidation mark: +0.04 / +0.03; the new
    // option checks run in development only); 31.30 / 33.96 with review15's `invalidateAll` / `expireAll` reaching
    // results stored without a request of this controller (restored: a server render, persist, another tab) through
    // the endpoint's `testKey` (+0.02 / +0.03); 31.32 / 33.99 with a restored key marked since its last answer reading
    // stale (an `expireAll` on a server clock ahead) and a schema class's tables read off its schema-holding members
    // only (+0.02 / +0.03; the controller's option checks run in development only)
    limit: { vite: 31.35 * KiB, esbuild: 34 * KiB },
    external: [],
    // only apps that use these bundle them: the other schema families, the helpers of their own entries, snapshots
    // and their merge, the adapters' peekQuery and watchQuery, rxjs's schedulers
    absent: [
      'core/schema/PolymorphicSchema.ts',
      'core/schema/PolymorphicArraySchema.ts',
      'core/schema/Union.ts',
      'core/schema/All.ts',
      'core/schema/Query.ts',
      'core/schema/Values.ts',
      'core/schema/EntityMixin.ts',
      'core/controller/infinite.ts',
      'core/controller/mutation.ts',
      'core/controller/placeholder.ts',
      'core/controller/controllerSnapshot.ts',
      'core/controller/watchQuery.ts',
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
  // 2.08 with reconcile rows (rows.ts), 1.83 once its error prose left production; 2.11 with one re-read per task
  // (+0.19, about 0.06 of it the end of the task, core/controller/endOfTask.ts, which an app bundles anyway with
  // watchQuery: the svelte-todo demo's page stayed at 79.5 KiB); 2.18 with rows that refuse freeze and setPrototypeOf,
  // copy through $state.snapshot (toJSON) and follow a field the record gains and their keys (+0.11); 2.16 after
  // review13 (its own endpoint check folded into the core's); 2.21 with review14's: a getter's $state args edited in
  // place tracked, a request kept when a store is left and taken up in one task, the layout load's fetch untracked,
  // args that make no URL an error state (+0.05); 2.22 with the deferred unsubscribe of both adapters one function of
  // core/internal.ts (bundled into each entry: +10 bytes); 2.23 with a bigint in a getter's args read (+11 bytes) and a request kept
  // when args switch away and back in one task (+5)
  entry('rx-rest/svelte', 'adapters/svelte/index.ts', ['svelte'], 2.25 * KiB),
  // 1.89 KiB: 1.06 before server rendering (+0.83: the query resolving on the server, its snapshot restored while
  // hydrating, controllerPerRequest, preloadQuery; a browser build drops the server-only branches, isServer
  // being false there, but solid-js is external here)
  // then 2.04 with createQueryState/createInfiniteQuery resolving on the server, 2.49 with `reconcile` (rows.ts)
  // and a task's later emissions rendered in one batch
  // 2.89 with rows over the latest record and one batch per task, 2.66 once its error prose left production;
  // 2.80 with rows that refuse freeze, follow a field the record gains and are current in an event handler (+0.12)
  // Measured as an app's browser build bundles it: there `solid-js/web` is its browser build, whose `isServer` is the
  // constant false, so the server-only branches (the query resolving on the server, the page's snapshot) are left out
  // (they were counted here until 2026-11-28: 2.84 KiB with them, 2.94 with the server render's two fixes of review13).
  // 2.46 then; 2.50 with review14's: the endpoint and options checked in development as in rx-rest/svelte, a request
  // kept when a query is left and made again in one task, args that make no URL an error state (+0.04); 2.51 with the
  // deferred unsubscribe one function of core/internal.ts, shared with rx-rest/svelte (+10 bytes)
  {
    ...entry('rx-rest/solid', 'adapters/solid/index.ts', ['solid-js'], 2.55 * KiB),
    name: 'rx-rest/solid in a browser build (isServer false; solid-js, rxjs, the core external)',
    external: [/^solid-js$/, /^solid-js\/(?!web$).*/, packageId('rxjs'), /\/core\/index\.(js|ts)$/],
    plugins: [
      {
        name: 'solid-web-browser',
        resolveId: (id) => (id === 'solid-js/web' ? '\0solid-web-browser' : undefined),
        load: (id) =>
          id === '\0solid-web-browser'
            ? "export const isServer = false; export * from 'solid-js/web-browser-build';"
            : undefined,
      },
    ],
  },
  {
    ...entry('rx-rest/devtools', 'adapters/devtools/index.ts'),
    name: 'rx-rest/devtools connectDevtools (rxjs, the core external)',
    code: `export { connectDevtools } from ${JSON.stringify(path.join(root, 'adapters/devtools/index.ts'))};`,
  },
  {
    ...entry('rx-rest/devtools', 'adapters/devtools/index.ts'),
    name: 'rx-rest/devtools mountDevtools, the in-page panel (rxjs, the core external)',
    budget: 8 * KiB,
    limit: 8.5 * KiB, // 8.00 KiB today
    code: `export { mountDevtools } from ${JSON.stringify(path.join(root, 'adapters/devtools/index.ts'))};`,
  },
  // both wait for a server-rendered page's hydration before they restore or apply (1.53 and 1.52 KiB); 1.45 and 1.42
  // once the explanations of their warnings left production; persist 1.53 with the checks of its arguments, 1.71
  // once a record deleted while the save is read stays deleted; sync 1.49 with a reset applied at its stamp, 1.61
  // with the deletions a tab remembers capped (the oldest forgotten) and looked up per record (+0.06), 1.65 with a
  // protocol version in each message, a tab ignoring those of another release (+0.04); persist 1.75 with `restored`
  // settled by the teardown, a throttle of Infinity saving on flush, hide and teardown only, and a Web Worker's
  // given storage used without a warning; 1.78 with review14's: a storage blocked on access warned about, a persist
  // started on a key after the writes in flight there, the save on hide made inside the event, a save's invalidation
  // marks dated now at most; 1.97 with review15's: `invalidateAll` / `expireAll` made before an asynchronous restore
  // reaching the results it brings (+0.11), a storage that never settles holding later writes, the next restore and
  // `flush()` 5 s at most (+0.06), saves dated on the controller's clock
  entry('rx-rest/persist', 'adapters/persist/index.ts', [], 2 * KiB),
  entry('rx-rest/sync', 'adapters/sync/index.ts', [], 1.65 * KiB),
];

/** Minified bundle of one virtual entry module (with its source map when `sourcemap` is set). */
async function bundle({ code, external, plugins = [] }, sourcemap = false) {
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
      ...plugins,
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

/** The same entry bundled and minified by esbuild, as an app's esbuild build would (with its metafile). */
async function bundleEsbuild({ code, external }) {
  const result = await esbuild.build({
    stdin: { contents: code, resolveDir: root, sourcefile: 'size-entry.js', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: external.length
      ? [
          {
            name: 'size-external',
            setup(build) {
              build.onResolve({ filter: /.*/ }, (args) =>
                external.some((pattern) => pattern.test(args.path)) ? { path: args.path, external: true } : undefined,
              );
            },
          },
        ]
      : [],
  });
  const [output] = Object.values(result.metafile.outputs);
  return { code: result.outputFiles[0].text, inputs: output.inputs };
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

/** Prints a per-module table: minified bytes and their share of the gzip size. */
function printTable(title, bytes, total, gzipped) {
  bytes.sort((a, b) => b[1] - a[1]);
  console.log(
    `\n  ${title}: per module (minified bytes; gzip share in proportion), total ${total} B, ${gzipped} B gzip:`,
  );
  for (const [source, size] of bytes)
    console.log(
      `  ${String(size).padStart(7)} B  ${String(Math.round((gzipped * size) / total)).padStart(6)} B gzip  ${source}`,
    );
}

/** Prints what each source module weighs in the core bundle, with Vite and with esbuild. */
async function printModules(item) {
  const chunk = await bundle(item, true);
  const viteBytes = [...bytesBySource(chunk)].map(([source, size]) => [moduleName(source), size]);
  printTable('Vite', viteBytes, chunk.code.length, gzipSync(chunk.code, { level: 9 }).length);
  const { code, inputs } = await bundleEsbuild(item);
  const esbuildBytes = Object.entries(inputs).map(([source, { bytesInOutput }]) => [moduleName(source), bytesInOutput]);
  printTable('esbuild', esbuildBytes, code.length, gzipSync(code, { level: 9 }).length);
}

/** One line of the report; returns whether the size is over its limit. */
function report(name, code, budget, limit) {
  const gzipped = gzipSync(code, { level: 9 }).length;
  const overLimit = gzipped > limit;
  const verdict = overLimit
    ? 'OVER LIMIT'
    : gzipped > budget
      ? `over target by ${((gzipped - budget) / KiB).toFixed(2)} KiB`
      : 'ok';
  console.log(
    `  ${(gzipped / KiB).toFixed(2).padStart(6)} KiB gzip (${(code.length / KiB).toFixed(1)} KiB min)  target ${(budget / KiB).toFixed(1)} KiB, limit ${(limit / KiB).toFixed(2)} KiB: ${verdict}  ${name}`,
  );
  return overLimit;
}

/** `  ... KiB gzip of it without rxjs (rxjs adds ...)`, for a bundle of `code` and the same without rxjs. */
function rxjsShare(code, own) {
  const all = gzipSync(code, { level: 9 }).length;
  const without = gzipSync(own, { level: 9 }).length;
  console.log(
    `        ${(without / KiB).toFixed(2).padStart(6)} KiB gzip of it without rxjs (rxjs adds ${((all - without) / KiB).toFixed(2)} KiB)`,
  );
}

let failed = false;
console.log('bundle size (minified, gzip -9)');
for (const item of CASES) {
  if (typeof item.limit === 'number') {
    failed = report(item.name, await bundle(item), item.budget, item.limit) || failed;
    continue;
  }
  // the typical app: with Vite, then with esbuild, each also without rxjs (its share)
  const noRxjs = { ...item, external: [/^rxjs(\/.*)?$/] };
  const vite = await bundle(item);
  failed = report(`${item.name}, Vite`, vite, item.budget, item.limit.vite) || failed;
  rxjsShare(vite, await bundle(noRxjs));
  const bundled = new Set((await bundle(item, true)).map.sources.map(moduleName));
  const present = item.absent.filter((module) => bundled.has(module));
  failed ||= present.length > 0;
  for (const module of present) console.log(`        BUNDLES ${module}, which only apps that use it should`);
  const { code } = await bundleEsbuild(item);
  failed = report(`${item.name}, esbuild`, code, item.budget, item.limit.esbuild) || failed;
  rxjsShare(code, (await bundleEsbuild(noRxjs)).code);
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
