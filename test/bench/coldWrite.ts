/**
 * `npx tsx test/bench/coldWrite.ts [--base=<dir>] [--n=500] [--processes=20] [--updates=15]`: the core's first read
 * of a list and the one-record writes after it, run cold, as a fresh page runs them (case H's one update, without
 * the adapter). Each measure is a fresh Node process (the same V8 as Chromium) loading the core bundled by esbuild
 * for production: `controller.setResponse` of n todos (not timed), then the first read (`controller.observe` of the
 * list, up to its first emission), then `updates` writes `controller.set(Todo, { id }, { id, title })`, each timed
 * up to the list's emission (normalize, reducer, the query cache's transition, the patched re-read). Prints the
 * median over the processes of each step, wall time and the process's CPU time (which counts the engine's
 * compiler and collector threads too).
 *
 * `--read=none`: no list is read; each write is timed alone (its synchronous `controller.set`: normalize, the
 * reducer, the store's emission), the core's own write path without the query cache's and the memo's share.
 * `--node=<flags>`: V8 flags for the processes (comma-separated), e.g. `--node=--no-lazy-feedback-allocation`.
 *
 * `--burst=<k>`: each step is k writes in one task, the list read through `watchQuery` with `batch` (as the adapters
 * read it: one re-read at the end of the task), timed up to its emission (case H's burst, without the adapter).
 *
 * `--warm=normalize|set`: see WARM_CODE.
 * `--browser`: each measure in a fresh page of Debian's Chromium (its own V8 and flags: feedback after 8 calls,
 * Sparkplug compiled off the main thread, Maglev) instead of a Node process; wall time only (cpu shows 0).
 *
 * `--base=<dir>`: a copy of the repository's `core/` to compare with (e.g. `git archive main core | tar -x -C
 * /tmp/base`); the processes then alternate between the two bundles, and the table shows both.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, symlinkSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const N = Number(arg('n', '500'));
const PROCESSES = Number(arg('processes', '20'));
const UPDATES = Number(arg('updates', '15'));
const BASE = arg('base', '');
const READ = arg('read', 'list');
const NODE_FLAGS = arg('node', '').split(',').filter(Boolean);
const BROWSER = process.argv.includes('--browser');
const WARM = arg('warm', 'none');
const BURST = Number(arg('burst', '1'));
/**
 * `--warm=normalize`: 20 `normalize` calls of another entity class before the timed writes (the normalize's
 * orchestration gets its type feedback); `--warm=set`: 20 `controller.set` of another entity class, which no
 * query reads (the controller's, the store's and the normalize's write path, and the query cache's transition).
 * What the timed writes then save is what those parts cost them cold.
 */
const WARM_CODE = `
class Other extends Entity { id = 0; title = ''; pk() { return \`\${this.id}\`; } static key = 'Other'; }
if (${JSON.stringify(WARM)} === 'normalize') {
  let tables = normalize(Other, { id: 1, title: 'a' });
  for (let i = 0; i < 20; i++) tables = normalize(Other, { id: 1, title: 'b' + i }, [], tables, { fetchedAt: i + 1, date: i + 1 });
} else {
  for (let i = 0; i < 20; i++) controller.set(Other, { id: i % 10 }, { id: i % 10, title: 'w' + i });
}
await new Promise((resolve) => setTimeout(resolve, 1));
`;
const dir = mkdtempSync(path.join(tmpdir(), 'cold-write-'));

/** The core of `from` (a directory holding `core/`) bundled for production into `dir`. */
async function bundle(from: string, name: string): Promise<string> {
  // the copy's imports of rxjs resolve through this repository's node_modules
  const modules = path.join(from, 'node_modules');
  if (!existsSync(modules)) symlinkSync(path.join(root, 'node_modules'), modules);
  const outfile = path.join(dir, `${name}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(from, 'core/index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: BROWSER ? 'browser' : 'node',
    target: 'es2022',
    outfile,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return outfile;
}

/** What one process runs: prints one JSON line of [wall ms, cpu ms] per step. */
const child = (core: string) => `
import { Controller, Entity, createResource, normalize, watchQuery } from ${JSON.stringify(`./${core}.mjs`)};
class Todo extends Entity {
  id = 0; userId = 0; title = ''; completed = false;
  pk() { return \`\${this.id}\`; }
  static key = 'Todo';
}
const TodoResource = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });
const n = ${N};
const rows = Array.from({ length: n }, (_, i) => ({ id: i + 1, userId: (i % 10) + 1, title: \`todo \${i + 1}\`, completed: i % 3 === 0 }));
const controller = new Controller({ gcTime: Number.POSITIVE_INFINITY });
controller.setResponse(TodoResource.getList, {}, rows);
let emitted = 0;
let resolve = () => {};
const out = [];
// in a browser page there is no process CPU time (0), and the result goes to the page's global
const cpuNow = typeof process === 'object' ? () => process.cpuUsage() : () => ({ user: 0, system: 0 });
const cpuSince = (cpu) => { const now = cpuNow(); return (now.user - cpu.user + now.system - cpu.system) / 1000; };
const report = () => (typeof process === 'object' ? console.log(JSON.stringify(out)) : (globalThis.__coldWrite = out));
const step = async (run) => {
  const wall = performance.now();
  const cpu = cpuNow();
  const before = emitted;
  const done = new Promise((r) => (resolve = r));
  run();
  if (emitted === before) await done;
  out.push([performance.now() - wall, cpuSince(cpu)]);
};
const timed = (run) => {
  const wall = performance.now();
  const cpu = cpuNow();
  run();
  out.push([performance.now() - wall, cpuSince(cpu)]);
};
if (${JSON.stringify(READ)} === 'none') {
  out.push([0, 0]);
  for (let i = 0; i < ${UPDATES}; i++) {
    const id = 1 + ((7919 + i * 104729) % n);
    timed(() => controller.set(Todo, { id }, { id, title: \`todo \${id} u\${i}\` }));
  }
} else {
await step(() =>
  (${BURST} > 1
    ? watchQuery(controller, TodoResource.getList, [{}], { batch: true })
    : controller.observe(TodoResource.getList, {})
  ).subscribe((state) => {
    if (state.data === undefined) return;
    emitted++;
    resolve();
  }),
);
${WARM === 'none' ? '' : WARM_CODE}
for (let i = 0; i < ${UPDATES}; i++) {
  await step(() => {
    for (let b = i * ${BURST}; b < (i + 1) * ${BURST}; b++) {
      const id = 1 + ((7919 + b * 104729) % n);
      controller.set(Todo, { id }, { id, title: \`todo \${id} u\${b}\` });
    }
  });
}
}
report();
`;

const variants: { name: string; script: string }[] = [];
if (BASE) variants.push({ name: 'base', script: path.join(dir, 'base-run.mjs') });
variants.push({ name: 'this', script: path.join(dir, 'this-run.mjs') });
if (BASE) await bundle(path.resolve(BASE), 'base');
await bundle(root, 'this');
for (const v of variants) writeFileSync(v.script, child(v.name));

/** One fresh page per measure: a new browser context (its own renderer), nothing cached. */
async function inBrowser(): Promise<{ measure(name: string, p: number): Promise<number[][]>; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  // cross-origin isolated (COOP + COEP), so that performance.now() is not coarsened to 0.1 ms
  const server = createServer((request, response) => {
    const file = path.join(dir, path.basename(new URL(request.url!, 'http://x').pathname));
    const type = file.endsWith('.html') ? 'text/html' : 'text/javascript';
    response.writeHead(existsSync(file) ? 200 : 404, {
      'content-type': type,
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    response.end(existsSync(file) ? readFileSync(file) : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  for (const v of variants)
    writeFileSync(
      path.join(dir, `${v.name}.html`),
      `<!doctype html><script type="module" src="./${v.name}-run.mjs"></script>`,
    );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return {
    async measure(name, p) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${port}/${name}.html?${p}`);
        await page.waitForFunction(() => (globalThis as { __coldWrite?: unknown }).__coldWrite !== undefined, null, {
          timeout: 60_000,
        });
        return await page.evaluate(() => (globalThis as unknown as { __coldWrite: number[][] }).__coldWrite);
      } finally {
        await context.close();
      }
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}

const samples = new Map<string, number[][][]>(variants.map((v) => [v.name, []]));
const browser = BROWSER ? await inBrowser() : undefined;
for (let p = 0; p < PROCESSES; p++) {
  for (const v of p % 2 ? [...variants].reverse() : variants) {
    if (browser) {
      samples.get(v.name)!.push(await browser.measure(v.name, p));
      continue;
    }
    const run = spawnSync(process.execPath, [...NODE_FLAGS, v.script], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${v.name}: ${run.stderr}`);
    samples.get(v.name)!.push(JSON.parse(run.stdout.trim().split('\n').pop()!) as number[][]);
  }
}
await browser?.close();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const f = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
console.log(`n = ${N}, ${PROCESSES} processes per variant; medians in ms, wall / cpu`);
console.log(['step', ...variants.map((v) => v.name.padStart(15))].join('  '));
const steps = UPDATES + 1;
const sums = variants.map(() => [0, 0]);
for (let s = 0; s < steps; s++) {
  const cells = variants.map((v, k) => {
    const wall = median(samples.get(v.name)!.map((run) => run[s]![0]!));
    const cpu = median(samples.get(v.name)!.map((run) => run[s]![1]!));
    if (s > 0) {
      sums[k]![0]! += wall;
      sums[k]![1]! += cpu;
    }
    return `${f(wall)} / ${f(cpu)}`.padStart(15);
  });
  console.log([(s === 0 ? 'first read' : `write ${s}`).padEnd(10), ...cells].join('  '));
}
console.log(
  ['writes, sum'.padEnd(10), ...sums.map(([wall, cpu]) => `${f(wall!)} / ${f(cpu!)}`.padStart(15))].join('  '),
);
// writes 3 to 12: past the first read's O(n) work, before the write path has its type feedback (case H's median)
const mid = variants.map((v) => {
  let wall = 0;
  let cpu = 0;
  for (let s = 3; s <= Math.min(12, UPDATES); s++) {
    wall += median(samples.get(v.name)!.map((run) => run[s]![0]!));
    cpu += median(samples.get(v.name)!.map((run) => run[s]![1]!));
  }
  return `${f(wall)} / ${f(cpu)}`.padStart(15);
});
console.log(['writes 3-12'.padEnd(10), ...mid].join('  '));
// the median of a page's updates: per process, the median of its writes, then the median of those
const perPage = variants.map((v) => median(samples.get(v.name)!.map((run) => median(run.slice(1).map((x) => x[0]!)))));
console.log(['page median'.padEnd(10), ...perPage.map((x) => x.toFixed(3).padStart(15))].join('  '));
if (BASE) {
  // paired: the processes of one round ran side by side, so their difference carries less of the machine's drift
  const [base, mine] = variants.map((v) => samples.get(v.name)!);
  const pageOf = (run: number[][]) => median(run.slice(1).map((x) => x[0]!));
  const midOf = (run: number[][], k: number) => run.slice(3, 13).reduce((sum, x) => sum + x[k]!, 0);
  const diffs = (of: (run: number[][]) => number) => base!.map((run, p) => of(mine![p]!) - of(run));
  const show = (label: string, d: number[]) =>
    console.log(
      `${label.padEnd(30)} ${median(d).toFixed(3).padStart(8)}  (this lower in ${d.filter((x) => x < 0).length}/${d.length})`,
    );
  console.log('paired, this - base, median over rounds:');
  show('page median (wall)', diffs(pageOf));
  show(
    'writes 3-12, sum (wall)',
    diffs((run) => midOf(run, 0)),
  );
  show(
    'writes 3-12, sum (cpu)',
    diffs((run) => midOf(run, 1)),
  );
}
