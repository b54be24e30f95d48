/**
 * `npx tsx test/bench/browser/profile.ts <page> <variant> <n> [measure]`: where case H's time goes. Builds
 * the pages unminified, opens one variant, and records Chromium's CPU profile around each measure
 * (render, update, burst, or all), printing the functions with the most self and total time (sampled
 * every 50 µs; several updates and bursts are summed; PROFILE_TOP=n prints more). Like `npm run bench:browser`, run
 * it on a quiet machine. PROFILE_SAVE=<prefix> writes each measure's profile to <prefix>.<measure>.<i>.cpuprofile
 * (for DevTools), PROFILE_KEEP=1 keeps the unminified build to read the lines the tables name, PROFILE_WARM=k runs k
 * single updates unprofiled before the profiled ones (what a warm update costs).
 */
import { writeFileSync } from 'node:fs';
import { launchBrowser } from '../../e2e/browser.js';
import { summarize, type Profile } from './cpuProfile.js';
import { servePages } from './pages.js';

const [page = 'solid', name = 'rx', size = '5000', only = 'all'] = process.argv.slice(2);
const n = Number(size);
const WARM = Number(process.env.PROFILE_WARM ?? 0);
const { origin, outDir, close } = await servePages([page], { minify: false });
const browser = await launchBrowser();

const print = (title: string, map: Map<string, number>, count = 25) => {
  console.log(`\n${title}`);
  for (const [label, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${label}`);
};

try {
  const tab = await browser.context.newPage();
  tab.on('pageerror', (error) => console.error(error.message));
  await tab.goto(`${origin}/${page}.html?variant=${name}&n=${n}`);
  await tab.waitForFunction(() => window.bench !== undefined || window.benchError !== undefined);
  const cdp = await tab.context().newCDPSession(tab);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  const measures: [string, () => Promise<number>][] = [
    ['render', () => tab.evaluate(() => window.bench!.render())],
    ...Array.from(
      { length: WARM + Number(process.env.PROFILE_UPDATES ?? 20) },
      (_, i): [string, () => Promise<number>] => [
        i < WARM ? 'warm-up' : 'update',
        () => tab.evaluate(([id, title]) => window.bench!.update(id, title), [1 + ((i * 7919) % n), `u${i}`] as const),
      ],
    ),
    ...Array.from({ length: 10 }, (_, b): [string, () => Promise<number>] => [
      'burst',
      () =>
        tab.evaluate(([ids, tag]) => window.bench!.burst(ids, tag), [
          Array.from({ length: 100 }, (_, i) => 1 + ((b * 211 + i * Math.floor(n / 100)) % n)),
          `b${b}`,
        ] as const),
    ]),
  ];
  const sums = new Map<string, { ms: number[]; self: Map<string, number>; total: Map<string, number> }>();
  for (const [measure, run] of measures) {
    const profiled = measure !== 'warm-up' && (only === 'all' || only === measure);
    if (profiled) await cdp.send('Profiler.start');
    const ms = await run();
    if (!profiled) continue;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const sum = sums.get(measure) ?? {
      ms: [] as number[],
      self: new Map<string, number>(),
      total: new Map<string, number>(),
    };
    sum.ms.push(ms);
    if (process.env.PROFILE_SAVE)
      writeFileSync(`${process.env.PROFILE_SAVE}.${measure}.${sum.ms.length}.cpuprofile`, JSON.stringify(profile));
    summarize(profile, sum.self, sum.total);
    sums.set(measure, sum);
  }
  for (const [measure, sum] of sums) {
    console.log(`\n=== ${page} ${name} n=${n} ${measure}: ${sum.ms.map((ms) => ms.toFixed(1)).join(' ')} ms`);
    const top = Number(process.env.PROFILE_TOP ?? 25);
    print('self', sum.self, top);
    print('total', sum.total, top + 15);
  }
} finally {
  await browser.close();
  if (process.env.PROFILE_KEEP) console.log(`kept ${outDir}`);
  close({ keep: Boolean(process.env.PROFILE_KEEP) });
}
