/**
 * Case I: many changed records written at once into a store that holds them while live streams watch
 * them (a sync endpoint's page of changes, a bulk edit). The store holds n users; `STREAMS` live streams
 * each read one page of `n / STREAMS` of them; all n users change. Each way a library offers to write
 * them (a batch, a loop of single writes) is timed from the write to the moment every stream shows its
 * changed rows, and its emissions are counted. Runs inside a peer's child process (see harness.ts).
 */
import { median, now } from './clock.js';
import { manyUsers, type UserJson } from './data.js';

/** How many live streams watch the rows (each reads one page of rows). */
export const STREAMS = 100;

/** A store holding the users, with live page streams, and the ways its library writes many rows. */
export interface BatchStore {
  /**
   * Subscribes to page `page` (the users `page * size` to `page * size + size - 1`); `emit` gets the
   * names of its rows on every emission after the initial one.
   */
  subscribe(page: number, size: number, emit: (names: readonly string[]) => void): () => void;
  /** Writes the changed rows in the mode's way (see `BatchWrites.modes`). */
  write(mode: string, rows: readonly UserJson[]): void;
  /** Anything to check after the run (that no request went out); throws on failure. */
  verify?(): void;
}

/** What a peer offers for case I. */
export interface BatchWrites {
  /** The write modes, in table order: the key is passed to `write`, the value is its label. */
  readonly modes: Readonly<Record<string, string>>;
  /** A new store holding `users` (untimed). */
  store(users: readonly UserJson[]): BatchStore;
}

/** One mode's result: time to the last stream showing its rows, and the emissions that took. */
export interface BatchResult {
  readonly mode: string;
  readonly label: string;
  readonly ms: number;
  /** Emissions of all streams together per write (the best is one per stream). */
  readonly emissions: number;
  readonly streams: number;
  readonly rows: number;
}

/** The `round`-th change of every user: a new name and follower count. */
const changed = (users: readonly UserJson[], round: number) =>
  users.map((user, i) => ({ ...user, name: `${user.name} #${round}.${i}`, followers: user.followers + round + 1 }));

/** Warm-up of each mode: at least this many rounds and this long, unless its rounds are slow (see `warmUp`). */
const WARM_ROUNDS = 8;
const WARM_MS = 1_000;
/** A mode stops warming after this long, and stops being sampled once its samples add up to `SLOW_MS` (3 at least). */
const SLOW_MS = 15_000;

/**
 * Case I for each mode of `peer`: every mode warmed up first (the JIT settles: a first batch write takes 5x
 * its warm time), then `batches` rounds with the modes interleaved, a new store each; the median per mode.
 */
export async function runBatchWrites(name: string, peer: BatchWrites, n: number, batches: number) {
  const users = manyUsers(n);
  const size = n / STREAMS;
  let round = 0;

  /** One round of `mode`: its time, and the emissions it took. */
  const once = async (mode: string) => {
    const store = peer.store(users);
    const rows = changed(users, ++round);
    let shown = 0;
    let total = 0;
    let reachedAt = 0;
    const unsubscribes = Array.from({ length: STREAMS }, (_, page) => {
      const expected = rows.slice(page * size, page * size + size).map((row) => row.name);
      let done = false;
      return store.subscribe(page, size, (names) => {
        total++;
        if (!done && names.length === size && names.every((name, i) => name === expected[i])) {
          done = true;
          if (++shown === STREAMS) reachedAt = now();
        }
      });
    });
    globalThis.gc?.();
    const start = now();
    store.write(mode, rows);
    while (reachedAt === 0) {
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      if (reachedAt === 0 && now() - start > 30_000)
        throw new Error(`${name} ${mode}: ${shown} of ${STREAMS} streams show their rows after 30 s`);
      if (reachedAt === 0 && now() - start > 1) await new Promise((resolve) => setImmediate(resolve));
    }
    const ms = reachedAt - start;
    await new Promise((resolve) => setTimeout(resolve, 5)); // late emissions count too
    store.verify?.();
    for (const unsubscribe of unsubscribes) unsubscribe();
    return { ms, emissions: total };
  };

  const modes = Object.keys(peer.modes);
  for (const mode of modes) {
    const warmStart = now();
    for (let r = 0; r < WARM_ROUNDS || now() - warmStart < WARM_MS; r++) {
      await once(mode);
      if (now() - warmStart > SLOW_MS) break;
    }
  }
  const samples = new Map(modes.map((mode) => [mode, [] as number[]]));
  const emissions = new Map<string, number>();
  for (let b = 0; b < batches; b++) {
    for (const mode of modes) {
      const taken = samples.get(mode)!;
      if (taken.length >= 3 && taken.reduce((sum, ms) => sum + ms, 0) > SLOW_MS) continue;
      const { ms, emissions: count } = await once(mode);
      taken.push(ms);
      emissions.set(mode, count);
    }
  }
  return modes.map((mode): BatchResult => ({
    mode,
    label: peer.modes[mode]!,
    ms: median(samples.get(mode)!),
    emissions: emissions.get(mode)!,
    streams: STREAMS,
    rows: n,
  }));
}
