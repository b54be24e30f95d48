/**
 * `npm run bench:browser` (case H): a list of todos in the browser, rx-rest beside TanStack Query.
 *
 * Builds the pages of this folder with vite in production mode (Svelte and Solid; rx-rest from the
 * repository's source, as the demos do), serves them on a free port and drives them in Chromium. Every
 * page renders n todos in a keyed list (Svelte `{#each ... (todo.id)}`, Solid `<For>`) from data already
 * cached (rx-rest: `setResponse`; TanStack: `setQueryData`), and times, in the page, until the DOM shows
 * the result and a forced layout:
 *
 * - first render: mounting the list → all n rows in the DOM;
 * - one record updated (rx-rest `controller.set(Todo, { id }, { id, title })`, TanStack `setQueryData`
 *   mapping the list) → its text in the DOM;
 * - a burst of 100 such updates in one task → all 100 shown.
 *
 * Two floors run beside them on each page, no data library at all: Svelte with the rows in a deep `$state` (a field
 * assigned) and in a `$state.raw` list (replaced by a mapped copy), Solid with the rows in a store (a field set). What
 * any data layer adds to a page is measured above them.
 *
 * Rounds interleave the variants (a fresh page each), and the table gives medians and the ratio
 * rx-rest / TanStack. Environment: BENCH_BROWSER_ROUNDS (default 5), BENCH_BROWSER_UPDATES (single
 * updates per page, default 15), BENCH_BROWSER_BURSTS (bursts per page, default 5), BENCH_BROWSER_SIZES
 * (default 500,5000), BENCH_BROWSER_PAGES (default svelte,solid), BENCH_BROWSER_VARIANTS (variant names, default
 * all; TanStack's always), BENCH_BROWSER_POSITIONS=1 (also prints each single update's median by its position in
 * the page: the first updates run the libraries' code cold), BENCH_BROWSER_PHASES=1 (also prints each update's and
 * burst's medians in three parts: the action's synchronous code, until the DOM showed it, the forced layout). Times
 * are wall-clock: run it on a quiet machine.
 */
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/browser.js';
import { servePages } from './pages.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = env('BENCH_BROWSER_ROUNDS', 5);
const UPDATES = env('BENCH_BROWSER_UPDATES', 15);
const BURSTS = env('BENCH_BROWSER_BURSTS', 5);
const SIZES = (process.env.BENCH_BROWSER_SIZES ?? '500,5000').split(',').map(Number);
const PAGES = (process.env.BENCH_BROWSER_PAGES ?? 'svelte,solid').split(',');
const BURST = 100;
const PHASES = Boolean(process.env.BENCH_BROWSER_PHASES);

/** The variants: page, variant name, label, and the TanStack variant it is compared with (none for TanStack). */
const ALL = [
  { page: 'svelte', name: 'tanstack', label: 'Svelte, TanStack svelte-query' },
  { page: 'svelte', name: 'rx-store', label: 'Svelte, rx-rest {#each $todos.data}', base: 'tanstack' },
  { page: 'svelte', name: 'rx-state', label: 'Svelte, rx-rest createQueryState', base: 'tanstack' },
  { page: 'svelte', name: 'rx-derived', label: 'Svelte, rx-rest $derived($todos.data)', base: 'tanstack' },
  {
    page: 'svelte',
    name: 'rx-reconcile',
    label: 'Svelte, rx-rest createQueryState({ reconcile: true })',
    base: 'tanstack',
  },
  {
    page: 'svelte',
    name: 'rx-store-reconcile',
    label: 'Svelte, rx-rest {#each $todos.data} + reconcile',
    base: 'tanstack',
  },
  { page: 'svelte', name: 'floor', label: 'Svelte alone: a deep $state, a field assigned', base: 'tanstack' },
  { page: 'svelte', name: 'floor-raw', label: 'Svelte alone: a $state.raw list, mapped', base: 'tanstack' },
  { page: 'solid', name: 'tanstack', label: 'Solid, TanStack solid-query' },
  { page: 'solid', name: 'rx', label: 'Solid, rx-rest createQuery + <For>', base: 'tanstack' },
  { page: 'solid', name: 'rx-reconcile', label: 'Solid, rx-rest createQuery({ reconcile: true })', base: 'tanstack' },
  { page: 'solid', name: 'floor', label: 'Solid alone: a store, a field set', base: 'tanstack' },
] as const;
const NAMES = process.env.BENCH_BROWSER_VARIANTS?.split(','); // tanstack is always run: the ratios need it
const VARIANTS = ALL.filter(
  (v) => PAGES.includes(v.page) && (!NAMES || v.name === 'tanstack' || NAMES.includes(v.name)),
);
type Key = `${string}/${string}/${number}`;
const key = (page: string, name: string, n: number): Key => `${page}/${name}/${n}`;

console.log('building the pages (vite, production)...');
const { origin, close } = await servePages(['svelte', 'solid']);

const browser = await launchBrowser();
const samples = new Map<string, number[]>();
let isolated = true; // every page cross-origin isolated (pages.ts's headers): the timer's steps are 5 µs, not 100
const record = (name: string, value: number) => {
  const list = samples.get(name) ?? [];
  list.push(value);
  samples.set(name, list);
};

/** Records the page's last measure in its three parts (`BENCH_BROWSER_PHASES`). */
async function recordPhases(tab: Page, measure: string) {
  const phases = await tab.evaluate(() => window.benchPhases!);
  phases.forEach((ms, i) => record(`${measure}/phase${i}`, ms));
}

/** One fresh page of one variant at n rows: a first render, then single updates, then bursts. */
async function visit(page: string, name: string, n: number, round: number) {
  const tab = await browser.context.newPage();
  try {
    tab.on('pageerror', (error) => console.error(`[${page} ${name} n=${n}]`, error.message));
    await tab.goto(`${origin}/${page}.html?variant=${name}&n=${n}`);
    await tab.waitForFunction(() => window.bench !== undefined || window.benchError !== undefined);
    const error = await tab.evaluate(() => window.benchError);
    if (error) throw new Error(`${page} ${name}: ${error}`);
    if (process.env.BENCH_BROWSER_DEBUG)
      tab.on('console', (message) => console.log(`[${page} ${name}]`, message.text()));
    isolated &&= await tab.evaluate(() => crossOriginIsolated);
    const k = key(page, name, n);
    record(`${k}/render`, await tab.evaluate(() => window.bench!.render()));
    for (let i = 0; i < UPDATES; i++) {
      const id = 1 + (((round + 1) * 7919 + i * 104_729) % n);
      const title = `todo ${id} r${round}u${i}`;
      const time = await tab.evaluate(([id, title]) => window.bench!.update(id, title), [id, title] as const);
      record(`${k}/update`, time);
      record(`${k}/update/${i}`, time);
      if (PHASES) await recordPhases(tab, `${k}/update`);
    }
    for (let b = 0; b < BURSTS; b++) {
      const first = ((round + 1) * 31 + b * 211) % n;
      const ids = Array.from({ length: Math.min(BURST, n) }, (_, i) => 1 + ((first + i * Math.floor(n / BURST)) % n));
      record(
        `${k}/burst`,
        await tab.evaluate(([ids, tag]) => window.bench!.burst(ids, tag), [ids, `r${round}b${b}`] as const),
      );
      if (PHASES) await recordPhases(tab, `${k}/burst`);
    }
  } catch (error) {
    throw new Error(`${page} ${name} n=${n}: ${String(error)}`, { cause: error });
  } finally {
    await tab.close();
  }
}

const started = Date.now();
try {
  for (let round = -1; round < ROUNDS; round++) {
    // round -1 warms up the browser and the server; the order of the variants turns each round
    const order = [...VARIANTS.entries()].map(([i, v]) => ({ v, at: (i + Math.max(round, 0)) % VARIANTS.length }));
    order.sort((a, b) => a.at - b.at);
    for (const n of SIZES) for (const { v } of order) await visit(v.page, v.name, n, round);
    if (round === -1) samples.clear();
    else process.stdout.write(`round ${round + 1}/${ROUNDS} done (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
} finally {
  await browser.close();
  close();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const MEASURES = [
  ['render', 'first render, data cached → all rows in the DOM'],
  ['update', 'one record updated → its text in the DOM'],
  ['burst', `${BURST} updates in one task → all shown`],
] as const;

console.log(
  `\ncase H: a list in the browser (Chromium, production builds; medians of ${ROUNDS} rounds: first render 1 per round, ` +
    `${UPDATES} single updates and ${BURSTS} bursts per round; ratio = rx-rest / TanStack; ` +
    `timer steps ${isolated ? '5 µs' : '100 µs: the pages were not cross-origin isolated'})\n`,
);
for (const page of PAGES) {
  const compared = VARIANTS.filter((v) => v.page === page && 'base' in v);
  const header = ['| n | measure |', ' TanStack |', ...compared.map((v) => ` ${v.label.replace(/^\w+, /, '')} |`)];
  console.log(`${page === 'svelte' ? 'Svelte' : 'Solid'}\n`);
  console.log(header.join(''));
  console.log(`|---|---|---|${compared.map(() => '---|').join('')}`);
  for (const n of SIZES)
    for (const [measure, label] of MEASURES) {
      const base = median(samples.get(`${key(page, 'tanstack', n)}/${measure}`) ?? [NaN]);
      const cells = compared.map((v) => {
        const value = median(samples.get(`${key(page, v.name, n)}/${measure}`) ?? [NaN]);
        return ` ${ms(value)} (${(value / base).toFixed(2)}x) |`;
      });
      console.log(`| ${n.toLocaleString('en-US')} | ${label} | ${ms(base)} |${cells.join('')}`);
    }
  console.log('');
}
if (process.env.BENCH_BROWSER_POSITIONS)
  for (const n of SIZES)
    for (const v of VARIANTS) {
      const k = key(v.page, v.name, n);
      const row = Array.from({ length: UPDATES }, (_, i) =>
        median(samples.get(`${k}/update/${i}`) ?? [NaN]).toFixed(2),
      );
      console.log(`${k}: one update by position in the page (median over rounds, ms): ${row.join(' ')}`);
    }
if (PHASES)
  for (const n of SIZES)
    for (const v of VARIANTS)
      for (const measure of ['update', 'burst']) {
        const k = `${key(v.page, v.name, n)}/${measure}`;
        const parts = [0, 1, 2].map((i) => median(samples.get(`${k}/phase${i}`) ?? [NaN]).toFixed(3));
        console.log(`${k}: the action / until shown / layout (medians, ms): ${parts.join(' / ')}`);
      }
console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
