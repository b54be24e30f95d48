/**
 * The in-page side of `npm run bench:browser`: a page mounts one variant (a library and a form of its
 * list) and exposes `window.bench`, whose methods time an action with `performance.now()` until the DOM
 * shows its result, then force a layout (so style and layout are counted as well).
 */
import { rows, type TodoRow } from './api.js';

/** What a variant gives the harness: the list mounted with its data already cached, and its writes. */
export interface Mounted {
  /** Changes one todo's title the way the library's docs say. */
  update(id: number, title: string): void;
}

/** One variant of a page: puts `data` in its cache, then mounts the list into `target`. */
export type Variant = {
  /** Caches the data (not timed). */
  prepare(data: TodoRow[]): void;
  /** Renders the list (timed, until every row is in the DOM). */
  mount(target: HTMLElement): Mounted;
};

/** The methods the driver calls through `page.evaluate`; each resolves to milliseconds. */
export interface Bench {
  render(): Promise<number>;
  update(id: number, title: string): Promise<number>;
  burst(ids: number[], tag: string): Promise<number>;
}

declare global {
  interface Window {
    bench?: Bench;
    benchError?: string;
    /**
     * The last measure in three parts (ms): the action itself (the library's synchronous code), until the DOM
     * showed its result (what the library and the framework ran after it: microtasks, tasks), and the forced layout.
     */
    benchPhases?: [act: number, shown: number, layout: number];
  }
}

const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
/** A macrotask without setTimeout's clamping. */
const task = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });

/** Resolves as soon as `done()` holds, checking synchronously, then after microtasks, then after each task. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  if (done()) return;
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
    if (done()) return;
  }
  const deadline = performance.now() + 10_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`the DOM did not show the change within 10 s (${what()})`);
    await task();
  }
}

/** Lets the page settle (a frame and a task) before a measure starts. */
const settle = async () => {
  await new Promise((resolve) => requestAnimationFrame(resolve));
  await task();
};

const layout = () => document.body.offsetHeight;
const text = (id: number) => document.getElementById(`t${id}`)?.textContent;

/** Registers `window.bench` for the variant the URL names (`?variant=...&n=...`). */
export async function start(variants: Record<string, () => Promise<{ default: Variant }>>): Promise<void> {
  try {
    const params = new URLSearchParams(location.search);
    const name = params.get('variant') ?? '';
    const n = Number(params.get('n'));
    const load = variants[name];
    if (!load || !(n > 0)) throw new Error(`unknown variant ${name} or row count ${n}`);
    const variant = (await load()).default;
    const target = document.getElementById('app')!;
    let mounted: Mounted | undefined;
    const timed = async (act: () => void, done: () => boolean, what: () => string) => {
      await settle();
      const start = performance.now();
      act();
      const acted = performance.now();
      await until(done, what);
      const shown = performance.now();
      layout();
      const end = performance.now();
      window.benchPhases = [acted - start, shown - acted, end - shown];
      return end - start;
    };
    window.bench = {
      render: () => {
        variant.prepare(rows(n));
        return timed(
          () => (mounted = variant.mount(target)),
          () => target.querySelectorAll('li').length === n,
          () => `${target.querySelectorAll('li').length} rows of ${n}`,
        );
      },
      update: (id, title) =>
        timed(
          () => mounted!.update(id, title),
          () => text(id) === title,
          () => `row ${id} shows ${text(id)}, not ${title}`,
        ),
      burst: (ids, tag) =>
        timed(
          () => {
            for (const id of ids) mounted!.update(id, `todo ${id} ${tag}`);
          },
          () => ids.every((id) => text(id) === `todo ${id} ${tag}`),
          () => `${ids.filter((id) => text(id) !== `todo ${id} ${tag}`).length} of ${ids.length} rows not shown`,
        ),
    };
  } catch (error) {
    window.benchError = String(error);
  }
}
