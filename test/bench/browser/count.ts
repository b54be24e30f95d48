/**
 * `npx tsx test/bench/browser/count.ts <page> <variant> <n> [mode] [pages]`: what a fresh page's single updates run
 * (case H's pages, built unminified), counted rather than timed.
 *
 * - mode `calls` (default): Chromium's precise coverage, on from before the page loads, with call counts and blocks.
 *   For update COUNT_AT (default 6) of each page it prints every function the update ran: its calls, the characters
 *   of source it ran (its blocks run, comments inside them included), and its calls before the update. A function
 *   called fewer than 8 times before has no type feedback yet in Chromium (V8 allocates it after 8 calls or about
 *   1 KB of bytecode run): it runs in the interpreter without inline caches, which is what a fresh page's updates
 *   pay for. The counts are exact and do not depend on the machine's load; the times printed beside them are not a
 *   fresh page's (coverage gives every function its feedback at once).
 * - mode `profile`: CPU profiles sampled every PROFILE_US µs (default 20) around updates COUNT_FROM..COUNT_TO
 *   (default 4..15; COUNT_POS=6,12 profiles only those), summed over fresh pages: self and total ms per function.
 *
 * @example
 * npx tsx test/bench/browser/count.ts svelte rx-store-reconcile 500 calls 1
 * npx tsx test/bench/browser/count.ts svelte tanstack 500 calls 1
 * npx tsx test/bench/browser/count.ts solid rx-reconcile 500 profile 12
 */
import { launchBrowser } from '../../e2e/browser.js';
import { summarize, type Profile } from './cpuProfile.js';
import { servePages } from './pages.js';

const [page = 'svelte', name = 'rx-store-reconcile', size = '500', mode = 'calls', count = '1'] = process.argv.slice(2);
const n = Number(size);
const PAGES = Number(count);
const AT = Number(process.env.COUNT_AT ?? 6);
const FROM = Number(process.env.COUNT_FROM ?? 4);
const TO = Math.max(Number(process.env.COUNT_TO ?? 15), AT);
const US = Number(process.env.PROFILE_US ?? 20);
const POSITIONS = process.env.COUNT_POS?.split(',').map(Number);
/** V8's `--invocation-count-for-feedback-allocation` in Chromium. */
const FEEDBACK_AFTER = 8;

interface Coverage {
  result: {
    url: string;
    functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[];
  }[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

const calls = new Map<string, number>(); // function → calls in the counted update
const source = new Map<string, number>(); // function → characters of source it ran then
const earlier = new Map<string, number>(); // function → calls before the counted update
const self = new Map<string, number>();
const total = new Map<string, number>();
const times: number[][] = [];

const { origin, close } = await servePages([page], { minify: false });
const browser = await launchBrowser();

/** Each function of the page's own scripts in a coverage result, by name and place, with its ranges. */
function* functionsOf(coverage: Coverage) {
  for (const script of coverage.result) {
    if (!script.url.startsWith(origin)) continue;
    for (const fn of script.functions) {
      const file = script.url.split('/').pop()!;
      yield { label: `${fn.functionName || '(anonymous)'} ${file}@${fn.ranges[0]!.startOffset}`, ranges: fn.ranges };
    }
  }
}

try {
  for (let p = 0; p < PAGES; p++) {
    const tab = await browser.context.newPage();
    tab.on('pageerror', (error) => console.error(error.message));
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send('Profiler.enable');
    if (mode === 'profile') await cdp.send('Profiler.setSamplingInterval', { interval: US });
    else await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    await tab.goto(`${origin}/${page}.html?variant=${name}&n=${n}`);
    await tab.waitForFunction(() => window.bench !== undefined || window.benchError !== undefined);
    await tab.evaluate(() => window.bench!.render());
    const own: number[] = [];
    for (let i = 1; i <= TO; i++) {
      const counted = mode !== 'profile' && i === AT;
      const profiled = mode === 'profile' && i >= FROM && (!POSITIONS || POSITIONS.includes(i));
      if (counted) {
        // every call since the page started (taking the counts resets them)
        const coverage = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as Coverage;
        for (const { label, ranges } of functionsOf(coverage)) add(earlier, label, ranges[0]!.count);
      }
      if (profiled) await cdp.send('Profiler.start');
      own.push(
        await tab.evaluate(([id, title]) => window.bench!.update(id, title), [1 + ((i * 7919) % n), `u${i}`] as const),
      );
      if (profiled)
        summarize(((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile, self, total);
      if (counted) {
        const coverage = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as Coverage;
        for (const { label, ranges } of functionsOf(coverage)) {
          const [whole, ...blocks] = ranges;
          if (whole!.count === 0) continue;
          add(calls, label, whole!.count);
          // the source run: the function's range less its outermost blocks not run
          let run = whole!.endOffset - whole!.startOffset;
          let skippedTo = -1;
          for (const block of blocks)
            if (block.count === 0 && block.startOffset >= skippedTo) {
              run -= block.endOffset - block.startOffset;
              skippedTo = block.endOffset;
            }
          add(source, label, run);
        }
      }
    }
    times.push(own);
    await tab.close();
  }
  console.log(`${page} ${name} n=${n}, ${PAGES} page(s), updates 1..${TO} by position (ms, median over pages):`);
  console.log(Array.from({ length: TO }, (_, i) => median(times.map((t) => t[i]!)).toFixed(2)).join(' '));
  if (mode === 'profile') {
    const top = Number(process.env.PROFILE_TOP ?? 40);
    const all = [...self.values()].reduce((a, b) => a + b, 0);
    console.log(`\nself (ms, summed over the pages; all ${all.toFixed(1)})`);
    for (const [l, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${ms.toFixed(2).padStart(8)}  ${l}`);
    console.log('\ntotal');
    for (const [l, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top + 20))
      console.log(`${ms.toFixed(2).padStart(8)}  ${l}`);
  } else {
    const per = (map: Map<string, number>, l: string) => (map.get(l) ?? 0) / PAGES;
    const list = [...calls.keys()].sort((a, b) => per(source, b) - per(source, a));
    const sum = (labels: readonly string[], map: Map<string, number>) => labels.reduce((s, l) => s + per(map, l), 0);
    const cold = list.filter((l) => per(earlier, l) < FEEDBACK_AFTER);
    const byChunk = new Map<string, number>();
    for (const l of cold)
      add(
        byChunk,
        l
          .split(' ')
          .pop()!
          .split('@')[0]!
          .replace(/-[\w-]{8}\.js$/, ''),
        1,
      );
    console.log(
      `update ${AT}: ${list.length} functions, ${sum(list, calls)} calls, ${sum(list, source)} characters of source run;`,
    );
    console.log(
      `  without type feedback yet (fewer than ${FEEDBACK_AFTER} calls before): ${cold.length} functions, ${sum(cold, calls)} calls, ${sum(cold, source)} characters`,
    );
    console.log(`  of them by chunk: ${[...byChunk].map(([chunk, k]) => `${chunk} ${k}`).join(', ')}`);
    console.log('\n  calls  chars  before  function');
    for (const l of list)
      console.log(
        `${per(calls, l).toFixed(1).padStart(7)} ${String(per(source, l)).padStart(6)} ${String(per(earlier, l)).padStart(7)}  ${l}`,
      );
  }
} finally {
  await browser.close();
  close();
}
