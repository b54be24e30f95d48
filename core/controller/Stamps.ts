/**
 * Ordering stamps: every write carries the time its request started (or the moment of a `set`,
 * `setResponse`, `invalidate`, a reset), and of two writes of one record or key the later stamp wins
 * everywhere (reducer, snapshots, other tabs). The clock, made strictly increasing, and what the newest
 * write so far was.
 */
import type { State } from '../store/index.js';

/** How much later than the previous one a write stamped in the same millisecond counts (exact in binary). */
const START_STEP = 1 / 1024;

/** A stamp just before `stamp`: later than every stamp handed out before it (exact in binary). */
export const justBefore = (stamp: number): number => stamp - START_STEP / 2;

/**
 * The latest stamp (`fetchedAt`) of any write a state holds, or of an invalidation or expiry mark (`markedAt`: a
 * request stamped before it could not clear it); stamps that are no time (not a number up to 8.64e15) are skipped.
 */
export function newestWriteIn(state: State): number {
  let newest = Number.NEGATIVE_INFINITY;
  const see = (stamp: number | undefined) => {
    // false for `undefined`, NaN, and past the last time a `Date` holds (a restored `markedAt` is only finite)
    if (stamp! <= 8.64e15 && stamp! > newest) newest = stamp!;
  };
  for (const key in state.meta) {
    const meta = state.meta[key];
    see(meta?.fetchedAt);
    see(meta?.markedAt);
  }
  for (const key in state.entitiesMeta) {
    const table = state.entitiesMeta[key] ?? {};
    for (const pk in table) see(table[pk]?.fetchedAt);
  }
  return newest;
}

/** The ordering stamps of one controller's writes. */
export class Stamps {
  readonly #now: () => number;
  /** The last stamp handed out or seen (see `next`). */
  #last: number;
  /** The latest stamp of a write so far (responses, `set`, `setResponse`, restores): a request that started after it is the newest. */
  #newestWrite: number;

  /** Stamps from the clock `now`, later than every write `state` holds. */
  constructor(state: State, now: () => number) {
    this.#now = now;
    this.#newestWrite = newestWriteIn(state);
    this.#last = this.#newestWrite;
  }

  /**
   * The ordering stamp of a write: the start of a request, or the moment of a `set`, `setResponse`,
   * `setError`, `invalidate`, `expireAll` or reset. The clock, but always later than the previous stamp
   * (and than every stamp restored from a snapshot: see `saw`), so that of two writes made within one
   * millisecond the later one wins everywhere (reducer, snapshots, other tabs).
   */
  next(): number {
    const now = this.#now();
    this.#last = now > this.#last ? now : this.#last + START_STEP;
    return this.#last;
  }

  /**
   * A state was merged in (a restored snapshot, another tab): later stamps must be later than its
   * newest, and a request started before it no longer holds the newest write.
   */
  saw(state: State): void {
    this.past(newestWriteIn(state));
  }

  /** A write at `newest` was made elsewhere (a merged state, another tab's reset): later stamps come after it. */
  past(newest: number): void {
    if (newest > this.#last) this.#last = newest;
    if (newest > this.#newestWrite) this.#newestWrite = newest;
  }

  /** A write at `stamp` (a response, or `controller.set`): a request that started before it is no longer the newest. */
  wrote(stamp: number): void {
    if (stamp > this.#newestWrite) this.#newestWrite = stamp;
  }

  /** Whether no write stamped after `startedAt` has been made: a request started then holds the newest data. */
  isNewest(startedAt: number): boolean {
    return startedAt >= this.#newestWrite;
  }
}
