#!/usr/bin/env node
/**
 * `npm run bench`: compiles the TypeScript peers (test/bench/peers/*.ts) with vite into
 * node_modules/.cache/rx-rest-bench, runs each peer in its own `node --expose-gc --no-concurrent-sweeping` child
 * per size and case (so one library's heap does not tax another's), and prints the tables of issue 7.
 *
 * A peer's third entry in PEERS, when given, is the one kind of job it runs (the validating rx-rest peers: 'size').
 *
 * Options: --quick (n = 100 and 500 only, fewer batches), --only=<peer file>,... , --cases=<kind>,... (size: A-D1,
 * fanout: E, memory, writes: G, batch: I), --json=<file>, --scaling[=500,5000,50000] (instead of the default run: A, B, D, E
 * and G at each n, for how cost grows with the data; a peer whose estimate at the next n is too slow is skipped there),
 * --cpu (times are the process's CPU time, user + system, instead of the wall clock: less moved by other processes
 * on a shared machine, but they include the collector's helper threads).
 */
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const peersDir = path.join(root, 'test/bench/peers');
// inside the repository, so that the compiled peers resolve their packages from node_modules; named after the
// checkout, since git worktrees may share one node_modules
const outDir = path.join(root, `node_modules/.cache/rx-rest-bench-${path.basename(root)}`);

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const cases = argv
  .find((a) => a.startsWith('--cases='))
  ?.slice(8)
  .split(',');
const jsonOut = argv.find((a) => a.startsWith('--json='))?.slice(7);
const cpuClock = argv.includes('--cpu');
const scalingArg = argv.find((a) => a === '--scaling' || a.startsWith('--scaling='));
/** `--scaling`: the sizes of the scaling tables (A, B, D, E and G at each). */
const SCALING_SIZES = scalingArg
  ? scalingArg.includes('=')
    ? scalingArg.slice(10).split(',').map(Number)
    : [500, 5000, 50000]
  : undefined;

/** Peer files in table order (floors first), with the short label used in the tables. */
const PEERS = [
  ['floors', 'floors'],
  ['rxRest', 'rx-rest (normalize + MemoCache)'],
  // validation on: cases A-D only (the size job), beside rx-rest without validators
  ['rxRestZod', 'rx-rest + zod 4 validators', 'size'],
  ['rxRestValibot', 'rx-rest + valibot 1 validators', 'size'],
  ['rxRestController', 'rx-rest Controller'],
  ['dataClient', '@data-client/core 0.10 + rest 0.9.9'],
  ['dataClientNormalizr', '@data-client/normalizr 0.18'],
  ['normalizr', 'normalizr 3.6.2'],
  ['apollo', '@apollo/client 4 InMemoryCache'],
  ['tanstack', '@tanstack/query-core 5 (not normalized)'],
].filter(([file]) => file === 'floors' || !only || only.includes(file));

const SIZES = quick ? [100, 500] : [100, 500, 5000];
const batchesFor = (n) => (quick ? 5 : n >= 5000 ? 5 : n >= 500 ? 11 : 15);
const FANOUT_N = 1000;
const MEMORY_N = 5000;
/** Case G: the table sizes single-entity writes go into. */
const WRITE_SIZES = [1000, 10000];
/** Case I: the rows written at once (watched by 100 live streams). */
const BATCH_N = 1000;

async function compile() {
  rmSync(outDir, { recursive: true, force: true });
  const files = readdirSync(peersDir).filter((f) => f.endsWith('.ts'));
  const input = Object.fromEntries(
    files
      .map((f) => [f.slice(0, -3), path.join(peersDir, f)])
      .filter(([name]) => PEERS.some(([file]) => file === name)),
  );
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      ssr: true, // node target; packages stay external and load from node_modules
      target: 'node20',
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap: false,
      rolldownOptions: {
        input,
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  });
}

/**
 * A job still running after this long is stopped and reported as an error: a peer's set-up can grow much faster
 * than the operation it times (data-client's E took 4.8 minutes at n = 5,000, most of it subscribing, and did
 * not end in 5.5 minutes at 50,000), which the scaling run's estimate, made from the timed operation, cannot see.
 */
const JOB_LIMIT_MS = Number(process.env.BENCH_JOB_LIMIT_MS) || 6 * 60_000; // BENCH_JOB_LIMIT_MS overrides it

/** Runs one job in a fresh child; resolves its result (or an error message). */
function runJob(file, job) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        // the collection the harness forces before each batch sweeps inside that call: swept concurrently, it
        // ran into the batch after it and charged the batch in proportion to the heap (D1 through the Controller
        // measured 60 µs after a pause and 300 µs right after the collection at n = 5,000, 40-100 µs at 500)
        '--no-concurrent-sweeping',
        `--max-old-space-size=${job.n >= 20000 ? 8192 : 4096}`,
        path.join(outDir, `${file}.mjs`),
        JSON.stringify(job),
      ],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', ...(cpuClock ? { BENCH_CLOCK: 'cpu' } : {}) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const limit = setTimeout(() => {
      stopped = true;
      child.kill('SIGKILL');
    }, JOB_LIMIT_MS);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      clearTimeout(limit);
      const line = stdout.split('\n').find((l) => l.startsWith('@@result '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(9)).result);
      else if (stopped) resolve({ error: `stopped after ${Math.round(JOB_LIMIT_MS / 1000)} s` });
      else resolve({ error: (stderr.trim().split('\n').slice(-3).join(' ') || `exit ${code}`).slice(0, 300) });
    });
  });
}

// ---- formatting -----------------------------------------------------------------------------------

function fmtMs(ms) {
  if (ms === undefined) return '–';
  if (ms < 0.01) return `${(ms * 1000).toFixed(2)} µs`;
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(1)} ms`;
}
const fmtRatio = (r) =>
  r === undefined || !Number.isFinite(r)
    ? ''
    : r >= 100
      ? `${r.toFixed(0)}×`
      : r >= 10
        ? `${r.toFixed(1)}×`
        : `${r.toFixed(2)}×`;
const fmtMiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function table(title, header, rows) {
  const lines = [
    `### ${title}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function render(results) {
  const out = [];
  const get = (file, kind, n) => results.find((r) => r.file === file && r.kind === kind && r.n === n)?.result;
  const label = (file) => PEERS.find(([f]) => f === file)?.[1] ?? file;
  const libs = PEERS.filter(([f]) => f !== 'floors').map(([f]) => f);
  const floors = (n) => get('floors', 'size', n);
  const cell = (timing, base, error) =>
    error ? 'error' : timing ? `${fmtMs(timing.ms)}${base ? ` (${fmtRatio(timing.ms / base)})` : ''}` : '–';

  const has = (kind) => results.some((r) => r.kind === kind);
  if (has('size'))
    out.push(
      table(
        'F: floors (JSON.parse of the response text; one walk over every field of the parsed value)',
        ['', ...SIZES.map((n) => `n = ${n}`)],
        [
          ['response text', ...SIZES.map((n) => `${(floors(n)?.bytes / 1024).toFixed(0)} KiB`)],
          ['JSON.parse', ...SIZES.map((n) => fmtMs(floors(n)?.parse?.ms))],
          [
            'walk every field',
            ...SIZES.map(
              (n) => `${fmtMs(floors(n)?.walk?.ms)} (${fmtRatio(floors(n)?.walk?.ms / floors(n)?.parse?.ms)})`,
            ),
          ],
        ],
      ),
    );

  const caseTable = (key, title, baseFor, extra) => {
    if (!has('size')) return;
    const rows = libs.map((file) => [
      label(file),
      ...SIZES.map((n) => {
        const r = get(file, 'size', n);
        const text = cell(r?.[key], baseFor(n), r?.error);
        return extra ? `${text}${extra(r) ?? ''}` : text;
      }),
    ]);
    out.push(table(title, ['', ...SIZES.map((n) => `n = ${n}`)], rows));
  };
  const parseMs = (n) => floors(n)?.parse?.ms;
  const peerMs = (file, key) => (n) => get(file, 'size', n)?.[key]?.ms;
  caseTable('A', 'A: write the parsed list into an empty store (× JSON.parse; JSON.parse not included)', parseMs);
  caseTable('B', 'B: first read of the whole list, nothing cached (× JSON.parse)', parseMs);
  caseTable('C', 'C: the same read again, nothing changed (× Apollo)', peerMs('apollo', 'C'));
  caseTable(
    'D',
    'D: write one changed User (in ~25% of the articles), read the list again (× data-client); unaffected rows keep identity?',
    peerMs('dataClient', 'D'),
    (r) => (r?.dIdentity ? `, ${r.dIdentity}` : ''),
  );
  caseTable(
    'D1',
    'D1: write one article of the list (its title changed), read the list again (× data-client); the other rows keep identity and the changed one is new?',
    peerMs('dataClient', 'D1'),
    (r) => (r?.d1Identity ? `, ${r.d1Identity}` : ''),
  );

  const fanBase = get('dataClient', 'fanout', FANOUT_N)?.timing?.ms;
  const fanRows = libs
    .filter((file) => get(file, 'fanout', FANOUT_N))
    .map((file) => {
      const r = get(file, 'fanout', FANOUT_N);
      if (r.error) return [label(file), 'error', r.error.slice(0, 120), '', ''];
      return [
        label(file),
        `${fmtMs(r.timing.ms)} (${fmtRatio(r.timing.ms / fanBase)})`,
        String(r.subscribers),
        String(r.affected),
        `${r.emissions} (${r.strayEmissions} stray)`,
      ];
    });
  if (has('fanout'))
    out.push(
      table(
        `E: ${FANOUT_N} live single-article subscriptions, one User written: time to the last affected emission (× data-client)`,
        ['', 'time', 'subscribers', 'affected', 'emissions'],
        fanRows,
      ),
    );

  const jsonBytes = get('floors', 'memory', MEMORY_N)?.bytes;
  const memRows = [['parsed JSON (floor)', jsonBytes ? `${fmtMiB(jsonBytes)} (1.00×)` : '–']];
  for (const file of libs) {
    const r = get(file, 'memory', MEMORY_N);
    if (r) memRows.push([label(file), r.error ? 'error' : `${fmtMiB(r.bytes)} (${fmtRatio(r.bytes / jsonBytes)})`]);
  }
  if (has('memory'))
    out.push(
      table(
        `Memory: retained heap of the store with ${MEMORY_N} articles plus one kept read (× the parsed JSON)`,
        ['', 'retained'],
        memRows,
      ),
    );

  const [small, large] = WRITE_SIZES;
  const apolloLarge = get('apollo', 'writes', large)?.ms;
  const writeRows = libs
    .filter((file) => get(file, 'writes', small) || get(file, 'writes', large))
    .map((file) => {
      const a = get(file, 'writes', small);
      const b = get(file, 'writes', large);
      if (a?.error || b?.error) return [label(file), 'error', String(a?.error ?? b?.error).slice(0, 120), '', ''];
      return [
        label(file),
        fmtMs(a?.ms),
        fmtMs(b?.ms),
        fmtRatio(b?.ms / a?.ms),
        apolloLarge ? fmtRatio(b?.ms / apolloLarge) : '',
      ];
    });
  if (has('writes'))
    out.push(
      table(
        `G: one changed User written into a store holding a table of n users, per write, through the public write path (TanStack: the user's entry and the list entry that embeds it)`,
        ['', `n = ${small}`, `n = ${large}`, `growth ${small} → ${large}`, `× Apollo at ${large}`],
        writeRows,
      ),
    );

  if (has('batch')) out.push(renderBatch(results.filter((r) => r.kind === 'batch')));

  const errors = results.filter((r) => r.result?.error);
  if (errors.length)
    out.push(
      ['### Errors', '', ...errors.map((r) => `- ${label(r.file)} ${r.kind} n=${r.n}: ${r.result.error}`)].join('\n'),
    );
  return out.join('\n\n');
}

/** Case I: one row per write mode of each peer, × rx-rest's batch. */
function renderBatch(results) {
  const modes = results.flatMap((r) => (Array.isArray(r.result) ? r.result : []));
  const base = modes.find((m) => m.label.startsWith('rx-rest controller.set(['))?.ms;
  const first = modes[0];
  const rows = modes.map((m) => [
    m.label,
    `${fmtMs(m.ms)}${base ? ` (${fmtRatio(m.ms / base)})` : ''}`,
    `${m.emissions} (${(m.emissions / m.streams).toFixed(m.emissions % m.streams ? 1 : 0)} per stream)`,
  ]);
  return table(
    `I: ${first?.rows ?? BATCH_N} changed rows written into a store that holds them while ${first?.streams ?? 100} live streams (${
      first ? first.rows / first.streams : 10
    } rows each) watch: time until every stream shows its rows (× rx-rest batch)`,
    ['write', 'time', 'emissions'],
    rows,
  );
}

// ---- scaling ---------------------------------------------------------------------------------------

/**
 * A peer is skipped at a size where its slowest operation, extrapolated linearly from the previous size, would
 * take longer than this: warm-up and batches would then take minutes for that one peer.
 */
const SCALING_SKIP_MS = 3000;
const scalingBatches = (n) => (n >= 50000 ? 3 : n >= 5000 ? 5 : 7);
const scalingWarmCalls = (n) => (n >= 50000 ? 2 : n >= 5000 ? 5 : undefined);

/** The slowest per-operation time of a result, for the skip estimate. */
function slowestMs(kind, result) {
  if (!result || result.error) return undefined;
  if (kind === 'size') return Math.max(result.A?.ms ?? 0, result.B?.ms ?? 0, result.D?.ms ?? 0, result.D1?.ms ?? 0);
  if (kind === 'fanout') return result.timing?.ms;
  return undefined; // writes: a batch stops after 1 s whatever the size
}

/** Runs A-D, E and G at every scaling size, smallest first; returns the results and the skipped jobs. */
async function runScaling() {
  const results = [];
  const skipped = [];
  const unsupported = new Set();
  for (const [index, n] of SCALING_SIZES.entries()) {
    const previous = SCALING_SIZES[index - 1];
    for (const [file, , only] of PEERS) {
      for (const kind of ['size', 'fanout', 'writes']) {
        if ((cases && !cases.includes(kind)) || (only && kind !== only)) continue;
        if ((file === 'floors' && kind !== 'size') || unsupported.has(`${file} ${kind}`)) continue;
        const before = results.find((r) => r.file === file && r.kind === kind && r.n === previous);
        if (previous && (!before || before.result.error) && results.some((r) => r.kind === kind && r.n === previous)) {
          skipped.push({ file, kind, n, why: `no result at n = ${previous}` });
          continue;
        }
        const estimate = before ? slowestMs(kind, before.result) * (n / previous) : undefined;
        if (estimate > SCALING_SKIP_MS) {
          skipped.push({ file, kind, n, why: `about ${(estimate / 1000).toFixed(0)} s per operation estimated` });
          continue;
        }
        const job =
          kind === 'size'
            ? { kind, n, batches: scalingBatches(n), warmCalls: scalingWarmCalls(n) }
            : { kind, n, batches: scalingBatches(n) };
        const t = Date.now();
        const result = await runJob(file, job);
        if (result.skipped) {
          unsupported.add(`${file} ${kind}`);
          continue;
        }
        results.push({ file, kind, n, result });
        process.stderr.write(
          `  ${file} ${kind} n=${n}: ${result.error ? `ERROR ${result.error}` : 'ok'} (${((Date.now() - t) / 1000).toFixed(1)} s)\n`,
        );
      }
    }
  }
  return { results, skipped };
}

/** Growth of the time per 10× more data, from the smallest to the largest size measured (10× = linear). */
function growthPer10x(points) {
  const measured = points.filter(([, ms]) => ms > 0);
  if (measured.length < 2) return '';
  const [n0, t0] = measured[0];
  const [n1, t1] = measured[measured.length - 1];
  return `${fmtRatio((t1 / t0) ** (1 / Math.log10(n1 / n0)))}`;
}

function renderScaling({ results, skipped }) {
  const sizes = SCALING_SIZES;
  const get = (file, kind, n) => results.find((r) => r.file === file && r.kind === kind && r.n === n)?.result;
  const label = (file) => PEERS.find(([f]) => f === file)?.[1] ?? file;
  const libs = PEERS.filter(([f]) => f !== 'floors').map(([f]) => f);
  const parseMs = (n) => get('floors', 'size', n)?.parse?.ms;
  const header = ['', ...sizes.map((n) => `n = ${n}`), 'growth per 10× n'];
  const out = [];
  const scaled = (kind, title, msOf, baseOf) => {
    const rows = libs
      .filter((file) => sizes.some((n) => get(file, kind, n)))
      .map((file) => {
        const points = sizes.map((n) => [n, msOf(get(file, kind, n))]);
        const cells = sizes.map((n, i) => {
          const r = get(file, kind, n);
          if (r?.error) return 'error';
          const ms = points[i][1];
          if (ms === undefined)
            return skipped.some((s) => s.file === file && s.kind === kind && s.n === n) ? 'skipped' : '–';
          const base = baseOf?.(n);
          return `${fmtMs(ms)}${base ? ` (${fmtRatio(ms / base)})` : ''}`;
        });
        return [label(file), ...cells, growthPer10x(points)];
      });
    if (rows.length) out.push(table(title, header, rows));
  };
  if (results.some((r) => r.file === 'floors'))
    out.push(
      table(
        'Floors: JSON.parse of the response text',
        ['', ...sizes.map((n) => `n = ${n}`), 'growth per 10× n'],
        [
          [
            'response text',
            ...sizes.map((n) => `${(get('floors', 'size', n)?.bytes / 1024 / 1024).toFixed(1)} MiB`),
            '',
          ],
          ['JSON.parse', ...sizes.map((n) => fmtMs(parseMs(n))), growthPer10x(sizes.map((n) => [n, parseMs(n)]))],
        ],
      ),
    );
  scaled('size', 'A: write the parsed list of n articles into an empty store (× JSON.parse)', (r) => r?.A?.ms, parseMs);
  scaled('size', 'B: first read of the whole list, nothing cached (× JSON.parse)', (r) => r?.B?.ms, parseMs);
  scaled('size', 'D: write one changed User (in ~25% of the articles), read the list again', (r) => r?.D?.ms);
  scaled('size', 'D1: write one article of the list (its title changed), read the list again', (r) => r?.D1?.ms);
  scaled(
    'fanout',
    'E: n live single-article subscriptions, one User written (~25% affected): time to the last affected emission',
    (r) => r?.timing?.ms,
  );
  scaled('writes', 'G: one changed User written into a table of n users, per write', (r) => r?.ms);
  if (skipped.length)
    out.push(
      [
        '### Skipped',
        '',
        ...skipped.map(
          (s) =>
            `- ${label(s.file)} ${s.kind === 'size' ? 'A–D' : s.kind === 'fanout' ? 'E' : 'G'} at n = ${s.n}: ${s.why}`,
        ),
      ].join('\n'),
    );
  const errors = results.filter((r) => r.result?.error);
  if (errors.length)
    out.push(
      ['### Errors', '', ...errors.map((r) => `- ${label(r.file)} ${r.kind} n=${r.n}: ${r.result.error}`)].join('\n'),
    );
  return out.join('\n\n');
}

// ---- main -----------------------------------------------------------------------------------------

const started = Date.now();
process.stderr.write(`bench: compiling ${PEERS.length} peers…\n`);
await compile();
if (SCALING_SIZES) {
  const scaling = await runScaling();
  const cpus = os.cpus();
  console.log(
    `## rx-rest scaling (${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${cpus.length} × ${cpus[0]?.model.trim()}; ${os.platform()} ${os.arch()})\n`,
  );
  console.log(
    `Median of batches (${SCALING_SIZES.map((n) => `${scalingBatches(n)} at n = ${n}`).join(', ')}); each peer in its own \`node --expose-gc\` process; NODE_ENV=production${cpuClock ? '; CPU time' : ''}.\n`,
  );
  console.log(renderScaling(scaling));
  console.log(`\n(total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(scaling, null, 2));
  if (!process.env.BENCH_KEEP) rmSync(outDir, { recursive: true, force: true });
  process.exit(0);
}
const results = [];
const jobs = [];
for (const n of SIZES) for (const [file] of PEERS) jobs.push([file, { kind: 'size', n, batches: batchesFor(n) }]);
for (const [file, , only] of PEERS)
  if (file !== 'floors' && !only) jobs.push([file, { kind: 'fanout', n: FANOUT_N, batches: quick ? 5 : 15 }]);
if (!quick) for (const [file, , only] of PEERS) if (!only) jobs.push([file, { kind: 'memory', n: MEMORY_N }]);
for (const n of WRITE_SIZES)
  for (const [file, , only] of PEERS)
    if (file !== 'floors' && !only) jobs.push([file, { kind: 'writes', n, batches: quick ? 3 : 7 }]);
for (const [file, , only] of PEERS)
  if (file !== 'floors' && !only) jobs.push([file, { kind: 'batch', n: BATCH_N, batches: quick ? 3 : 9 }]);
for (const [file, job] of jobs) {
  if (cases && !cases.includes(job.kind)) continue;
  const t = Date.now();
  const result = await runJob(file, job);
  if (result.skipped) continue;
  results.push({ file, kind: job.kind, n: job.n, result });
  process.stderr.write(
    `  ${file} ${job.kind} n=${job.n}: ${result.error ? `ERROR ${result.error}` : 'ok'} (${((Date.now() - t) / 1000).toFixed(1)} s)\n`,
  );
}
const cpus = os.cpus();
console.log(
  `## rx-rest benchmark (${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${cpus.length} × ${cpus[0]?.model.trim()}; ${os.platform()} ${os.arch()})\n`,
);
console.log(
  `Median of batches (${SIZES.map((n) => `${batchesFor(n)} at n = ${n}`).join(', ')}); each peer in its own \`node --expose-gc\` process; NODE_ENV=production${cpuClock ? '; CPU time' : ''}.\n`,
);
console.log(render(results));
console.log(`\n(total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));
if (!process.env.BENCH_KEEP) rmSync(outDir, { recursive: true, force: true });
