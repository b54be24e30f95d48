/**
 * The benchmark's driver: one `Peer` (a library under test) is checked for correctness, then timed on the
 * cases of issue 7. Each peer runs in its own child process (see `run.mjs`); this file runs inside it and
 * prints one `@@result <json>` line for the parent.
 */
import { runBatchWrites, type BatchWrites } from './batchWrites.js';
import { median, now } from './clock.js';
import { generate, manyUsers, type ArticleJson, type UserJson } from './data.js';

/** What a read of the list must look like, whatever the library returns (instances, frozen objects...). */
export interface ArticleView {
  readonly id: number | string;
  readonly title: string;
  readonly author: { readonly id: string; readonly name: string };
  readonly comments: readonly {
    readonly id: string;
    readonly author: { readonly id: string; readonly name: string };
  }[];
}

/** Live subscriptions to single articles (case E). */
export interface FanOut {
  /** Subscribes to article `id`; `emit` is called on every emission after the initial one. */
  subscribe(id: number, emit: () => void): () => void;
  /** Writes one changed User the way the library's app would. */
  writeUser(user: UserJson): void;
  /** Anything to verify after the run (e.g. that no request went out); throws on failure. */
  verify?(): void;
}

/** A library under test. `S` is its store (immutable states are returned anew, mutable ones returned as is). */
export interface Peer<S = unknown> {
  readonly name: string;
  /** Whether reads keep unchanged objects (===) across reads and updates. */
  readonly keepsIdentity: boolean;
  /** Untimed: turns the parsed response into this library's input (default: as is). */
  prepare?(input: ArticleJson[]): unknown;
  /** A: writes the prepared response into a new, empty store. */
  write(input: unknown): S;
  /** B: the first read of the whole list from a store written by `write` and never read. */
  firstRead(store: S): readonly ArticleView[];
  /** C and D: a read of the list (the library's cache may answer). */
  read(store: S): readonly ArticleView[];
  /** D: writes one changed User; returns the store (a new state for immutable stores). */
  writeUser(store: S, user: UserJson): S;
  /**
   * D1: writes one article of the list, its title changed (the whole article, as a response to its update
   * holds it); returns the store.
   */
  writeArticle?(store: S, article: ArticleJson): S;
  /** E: 1,000 live single-article subscriptions over a store that holds `articles`. */
  fanOut?(articles: ArticleJson[]): FanOut;
  /**
   * G: a new store holding `users` (one table of n entities), and the library's public write of one
   * changed User (a single-entity write, as a real-time push makes it).
   */
  singleWrites?(users: readonly UserJson[]): (user: UserJson) => void;
  /** I: the ways to write many changed records while live streams watch them (see batchWrites.ts). */
  readonly batchWrites?: BatchWrites;
}

export interface Timing {
  /** Median of the batches, in milliseconds per operation. */
  readonly ms: number;
  readonly batches: number;
  readonly iterations: number;
}

export interface SizeResult {
  readonly A?: Timing;
  readonly B?: Timing;
  readonly C?: Timing;
  readonly D?: Timing;
  /** D: whether the articles that do not contain the changed User kept their objects. */
  readonly dIdentity?: 'kept' | 'lost';
  /** D1: one article of the list written (its title changed), the list read again. */
  readonly D1?: Timing;
  /** D1: whether every other article kept its object and the changed one got a new one. */
  readonly d1Identity?: 'kept' | 'lost';
  /** Floors (only in the floors process). */
  readonly parse?: Timing;
  readonly walk?: Timing;
}

export interface FanOutResult {
  readonly timing: Timing;
  readonly subscribers: number;
  readonly affected: number;
  /** Emissions per write (equal to `affected` when correct). */
  readonly emissions: number;
  /** Emissions to subscribers whose article does not contain the User. */
  readonly strayEmissions: number;
}

export interface MemoryResult {
  readonly n: number;
  /** Retained heap in bytes. */
  readonly bytes: number;
}

/** Arguments from the parent: which job this child runs. */
export type Job =
  | {
      readonly kind: 'size';
      readonly n: number;
      readonly batches: number;
      /** Warm-up calls before timing (default `WARM_CALLS`; fewer for the largest sizes, whose calls take seconds). */
      readonly warmCalls?: number;
    }
  | { readonly kind: 'fanout'; readonly n: number; readonly batches: number }
  | { readonly kind: 'memory'; readonly n: number }
  | { readonly kind: 'writes'; readonly n: number; readonly batches: number }
  | { readonly kind: 'batch'; readonly n: number; readonly batches: number };

function collect(): void {
  globalThis.gc?.();
}

/** Warm-up before timing: at least this many calls and this long (so every library runs optimized code). */
const WARM_CALLS = 10;
const WARM_MS = 300;

/** Time of `run` per call, median of `batches` batches; each batch calls it enough times to last ~`minBatchMs`. */
export function measure<C>(options: {
  readonly batches: number;
  /** Untimed: builds what `iterations` timed calls need. */
  readonly setup: (iterations: number) => C;
  readonly run: (context: C, index: number) => unknown;
  readonly minBatchMs?: number;
  /** Cap on calls per batch (cases whose setup parses a fresh response per call). */
  readonly maxIterations?: number;
  /** Warm-up calls (at least; the warm-up also lasts at least `WARM_MS`). */
  readonly warmCalls?: number;
}): Timing {
  const { batches, setup, run, minBatchMs = 25, maxIterations = 20_000, warmCalls = WARM_CALLS } = options;
  let sink: unknown;
  // warm-up and calibration: calls until the JIT has settled (at least WARM_CALLS calls and WARM_MS);
  // the per-call time is the fastest warm-up call, so batches are sized for optimized code
  let once = Infinity;
  let calls = 0;
  const warmStart = now();
  while (calls < warmCalls || now() - warmStart < WARM_MS) {
    const context = setup(1);
    const start = now();
    sink = run(context, 0);
    once = Math.min(once, Math.max(now() - start, 0.0005));
    calls++;
  }
  const iterations = Math.max(1, Math.min(maxIterations, Math.ceil(minBatchMs / once)));
  let context = setup(iterations); // a full warm-up batch
  for (let i = 0; i < iterations; i++) sink = run(context, i);
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    context = setup(iterations);
    collect();
    const start = now();
    for (let i = 0; i < iterations; i++) sink = run(context, i);
    samples.push((now() - start) / iterations);
  }
  keep(sink);
  return { ms: median(samples), batches, iterations };
}

/** Keeps a value reachable (a global: neither the bundler nor V8 can drop the work that made it). */
export function keep(value: unknown): void {
  (globalThis as { __benchKept?: unknown }).__benchKept = value;
}

/** The User whose change case D and E write: the one closest to being in 25% of the articles. */
export function pickUser(articles: readonly ArticleJson[], users: readonly UserJson[]): UserJson {
  let best = users[0]!;
  let bestDistance = Infinity;
  for (const user of users) {
    const share = articles.filter((article) => contains(article, user.id)).length / articles.length;
    if (Math.abs(share - 0.25) < bestDistance) {
      bestDistance = Math.abs(share - 0.25);
      best = user;
    }
  }
  return best;
}

/** Whether an article (as its author or a comment's author) contains the User. */
export function contains(article: ArticleJson, userId: string): boolean {
  return article.author.id === userId || article.comments.some((comment) => comment.author.id === userId);
}

/** The `index`-th changed version of `user` (every write really changes it). */
export function changedUser(user: UserJson, index: number): UserJson {
  return { ...user, name: `${user.name} #${index}`, followers: user.followers + index + 1 };
}

/** Throws unless `view` reads back exactly the input's titles and authors (after `changed`, if given). */
export function checkList(
  peer: string,
  view: readonly ArticleView[],
  articles: readonly ArticleJson[],
  changed?: UserJson,
): void {
  const fail = (what: string) => {
    throw new Error(`${peer}: wrong read: ${what}`);
  };
  if (!Array.isArray(view) || view.length !== articles.length)
    fail(`length ${(view as unknown[] | undefined)?.length} instead of ${articles.length}`);
  const nameOf = (user: UserJson) => (changed && user.id === changed.id ? changed.name : user.name);
  articles.forEach((article, i) => {
    const read = view[i]!;
    if (String(read.id) !== String(article.id) || read.title !== article.title)
      fail(`article ${i}: ${read.id} ${read.title}`);
    if (read.author.id !== article.author.id || read.author.name !== nameOf(article.author))
      fail(`article ${i}: author ${read.author.name}`);
    if (read.comments.length !== article.comments.length) fail(`article ${i}: ${read.comments.length} comments`);
    article.comments.forEach((comment, j) => {
      const readComment = read.comments[j]!;
      if (
        readComment.id !== comment.id ||
        readComment.author.id !== comment.author.id ||
        readComment.author.name !== nameOf(comment.author)
      ) {
        fail(`article ${i} comment ${j}`);
      }
    });
  });
}

/** A fresh parse of the response text (what a library gets from `response.json()`). */
function parse(text: string): ArticleJson[] {
  return JSON.parse(text) as ArticleJson[];
}

/**
 * Calls per batch of A and B (at most; fewer only for a peer slower than 25 ms per call). Each call needs a
 * freshly parsed response (A) or a freshly written store (B), all built before the batch and alive during it,
 * and what a first read returns stays alive with its store (the memo). When batches were sized by speed (up to
 * 20 calls), a faster library ran with more of them alive and paid more collection per call: at n = 500 one
 * library's B measured 3.1, 3.8 and 5.2 ms per read with 3, 10 and 20 stores per batch. The same small count
 * for every peer keeps the heap alike; the median over the batches absorbs the timer's noise.
 */
const FRESH_PER_BATCH = 3;

/** Cases A to D at one size, each checked before it is timed. */
export function runSize<S>(peer: Peer<S>, n: number, batches: number, warmCalls?: number): SizeResult {
  const data = generate(n);
  const articles = parse(data.text);
  const user = pickUser(articles, data.users);
  const prepare = (input: ArticleJson[]) => (peer.prepare ? peer.prepare(input) : input);

  // correctness first: write, first read, repeated read, update
  let store = peer.write(prepare(parse(data.text)));
  const first = peer.firstRead(store);
  checkList(peer.name, first, articles);
  const again = peer.read(store);
  checkList(peer.name, again, articles);
  if (peer.keepsIdentity && again !== first) throw new Error(`${peer.name}: a repeated read returned a new list`);
  const updated = changedUser(user, 0);
  store = peer.writeUser(store, updated);
  const afterUpdate = peer.read(store);
  checkList(peer.name, afterUpdate, articles, updated);
  let identityKept = true;
  articles.forEach((article, i) => {
    if (!contains(article, user.id) && afterUpdate[i] !== again[i]) identityKept = false;
  });
  if (peer.keepsIdentity && afterUpdate === again)
    throw new Error(`${peer.name}: the update did not produce a new list`);

  const A = measure({
    batches,
    setup: (iterations) => Array.from({ length: iterations }, () => prepare(parse(data.text))),
    run: (inputs, i) => peer.write(inputs[i]),
    maxIterations: FRESH_PER_BATCH,
    warmCalls,
  });
  const B = measure({
    batches,
    setup: (iterations) => Array.from({ length: iterations }, () => peer.write(prepare(parse(data.text)))),
    run: (stores, i) => peer.firstRead(stores[i]!),
    maxIterations: FRESH_PER_BATCH,
    warmCalls,
  });
  const warm = peer.write(prepare(parse(data.text)));
  peer.firstRead(warm);
  const C = measure({ batches, setup: () => warm, run: (s) => peer.read(s), warmCalls });
  let current = warm;
  let version = 1;
  const D = measure({
    batches,
    setup: (iterations) => Array.from({ length: iterations }, () => changedUser(user, version++)),
    run: (users, i) => {
      current = peer.writeUser(current, users[i]!);
      return peer.read(current);
    },
    warmCalls,
  });
  const D1 = peer.writeArticle ? runD1(peer, data.text, articles, batches, warmCalls) : undefined;
  return { A, B, C, D, dIdentity: identityKept ? 'kept' : 'lost', ...D1 };
}

/** The `index`-th changed version of `article`: its title only (every write really changes it). */
export function retitled(article: ArticleJson, index: number): ArticleJson {
  return { ...article, title: `${article.title} #${index}` };
}

/** D1: one article of the list written with a new title, the list read again (checked, then timed on a new store). */
function runD1<S>(
  peer: Peer<S>,
  text: string,
  articles: readonly ArticleJson[],
  batches: number,
  warmCalls: number | undefined,
): Pick<SizeResult, 'D1' | 'd1Identity'> {
  const writeArticle = peer.writeArticle!;
  const prepare = (input: ArticleJson[]) => (peer.prepare ? peer.prepare(input) : input);
  const fresh = () => {
    const store = peer.write(prepare(parse(text)));
    peer.firstRead(store);
    return store;
  };
  // the articles as the library's app gets them (parsed and prepared as the list was), parsed once
  const pool = prepare(parse(text)) as ArticleJson[];
  const n = articles.length;
  let store = fresh();
  let expected = articles;
  let identityKept = true;
  for (const [step, index] of [0, n >> 1, n - 1].entries()) {
    const before = peer.read(store);
    store = writeArticle(store, retitled(pool[index]!, step));
    const after = peer.read(store);
    expected = expected.map((a, i) => (i === index ? retitled(a, step) : a));
    checkList(peer.name, after, expected);
    if (after[index] === before[index] || after.some((row, i) => i !== index && row !== before[i]))
      identityKept = false;
  }
  let current = fresh();
  let version = 1;
  // each write changes another article
  const D1 = measure({
    batches,
    setup: (iterations) => Array.from({ length: iterations }, () => retitled(pool[(version * 7919) % n]!, version++)),
    run: (written, i) => {
      current = writeArticle(current, written[i]!);
      return peer.read(current);
    },
    warmCalls,
  });
  return { D1, d1Identity: identityKept ? 'kept' : 'lost' };
}

/** Case E: 1,000 live single-article subscriptions (one per article of a 1,000-article set), one User written. */
export async function runFanOut(peer: Peer, n: number, batches: number): Promise<FanOutResult> {
  if (!peer.fanOut) throw new Error(`${peer.name}: no fan-out case`);
  const data = generate(n);
  const articles = parse(data.text);
  const user = pickUser(articles, data.users);
  const fan = peer.fanOut(articles);
  const counts = new Map<number, number>();
  let total = 0;
  let target = Infinity;
  // eslint-disable-next-line no-useless-assignment -- read after the loop; 0 if it never ran
  let reachedAt = 0;
  const affectedIds = articles.filter((article) => contains(article, user.id)).map((article) => article.id);
  const unsubscribes = articles.map((article) =>
    fan.subscribe(article.id, () => {
      counts.set(article.id, (counts.get(article.id) ?? 0) + 1);
      if (++total === target) reachedAt = now();
    }),
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  await settle();
  const samples: number[] = [];
  let version = 0;
  let emissions = 0;
  let stray = 0;
  for (let b = -2; b < batches; b++) {
    // b < 0: warm-up rounds, checked but not timed
    counts.clear();
    total = 0;
    target = affectedIds.length;
    reachedAt = 0;
    const next = changedUser(user, version++);
    collect();
    const start = now();
    fan.writeUser(next);
    while (reachedAt === 0) {
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      if (reachedAt === 0 && now() - start > 10_000)
        throw new Error(`${peer.name}: only ${total} of ${target} emissions after 10 s`);
      if (reachedAt === 0 && now() - start > 1) await new Promise((resolve) => setImmediate(resolve));
    }
    const elapsed = reachedAt - start;
    await settle(); // late or extra emissions count against correctness
    emissions = total;
    stray = [...counts.keys()].filter((id) => !affectedIds.includes(id)).length;
    const exact = affectedIds.every((id) => counts.get(id) === 1);
    if (!exact || stray > 0 || total !== affectedIds.length) {
      throw new Error(
        `${peer.name}: fan-out emitted ${total} times (${stray} to unaffected subscribers) for ${affectedIds.length} affected`,
      );
    }
    if (b >= 0) samples.push(elapsed);
  }
  fan.verify?.();
  for (const unsubscribe of unsubscribes) unsubscribe();
  return {
    timing: { ms: median(samples), batches, iterations: 1 },
    subscribers: articles.length,
    affected: affectedIds.length,
    emissions,
    strayEmissions: stray,
  };
}

/** Retained heap of `build()`'s value, in bytes (needs `node --expose-gc`). */
export function retained(build: () => unknown): number {
  if (!globalThis.gc) throw new Error('memory: run node with --expose-gc');
  collect();
  collect();
  const before = process.memoryUsage().heapUsed;
  keep(build());
  collect();
  collect();
  const after = process.memoryUsage().heapUsed;
  keep(undefined);
  return after - before;
}

/** Memory: the store with n articles plus one kept read. */
export function runMemory<S>(peer: Peer<S>, n: number): MemoryResult {
  const data = generate(n);
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(
      retained(() => {
        let input: unknown = JSON.parse(data.text);
        if (peer.prepare) input = peer.prepare(input as ArticleJson[]);
        const store = peer.write(input);
        // eslint-disable-next-line no-useless-assignment -- drops the parsed input so that only the store is retained
        input = undefined;
        return [store, peer.firstRead(store)];
      }),
    );
  }
  return { n, bytes: median(samples) };
}

/** Single-entity writes per batch in case G. */
export const WRITES = 1_000;

/** A batch of case G stops after this long even before `WRITES` writes (a library whose writes copy the table). */
const WRITE_BATCH_MS = 1_000;

/**
 * G: up to `WRITES` single-entity writes into a store that holds n users, per write (median of the
 * batches; a new store per batch, built untimed; one batch first to warm up).
 */
export function runWrites(peer: Peer, n: number, batches: number): Timing {
  if (!peer.singleWrites) throw new Error(`${peer.name}: no single-write case`);
  const users = manyUsers(n);
  const samples: number[] = [];
  let sink: unknown;
  for (let b = -1; b < batches; b++) {
    const write = peer.singleWrites(users);
    const changed = Array.from({ length: WRITES }, (_, i) =>
      changedUser(users[(i * 7919 + (b + 1) * 13) % n]!, (b + 1) * WRITES + i),
    );
    collect();
    const start = now();
    let count = 0;
    while (count < WRITES) {
      sink = write(changed[count++]!);
      if ((count & 15) === 0 && now() - start > WRITE_BATCH_MS) break;
    }
    if (b >= 0) samples.push((now() - start) / count);
  }
  keep(sink);
  return { ms: median(samples), batches, iterations: WRITES };
}

/** Reads the job from argv, runs it, prints `@@result <json>`. */
export async function main(peer: Peer): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  let result: unknown;
  if (job.kind === 'size') result = runSize(peer, job.n, job.batches, job.warmCalls);
  else if (job.kind === 'fanout') result = peer.fanOut ? await runFanOut(peer, job.n, job.batches) : { skipped: true };
  else if (job.kind === 'writes') result = peer.singleWrites ? runWrites(peer, job.n, job.batches) : { skipped: true };
  else if (job.kind === 'batch')
    result = peer.batchWrites
      ? await runBatchWrites(peer.name, peer.batchWrites, job.n, job.batches)
      : { skipped: true };
  else result = runMemory(peer, job.n);
  report(peer.name, job, result);
}

/** Prints the result line for the parent and exits (libraries' timers must not keep the child alive). */
export function report(peer: string, job: Job, result: unknown): void {
  process.stdout.write(`@@result ${JSON.stringify({ peer, job, result })}\n`, () => process.exit(0));
}
