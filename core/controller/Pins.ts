/**
 * What running requests pin for the garbage collector: a record marked INVALID (deleted) after a
 * request started must stay marked while it runs, or its response could bring the record back. A pin
 * lasts as long as the collector allows (`gcTime`): a request running longer (hung, perhaps) loses it,
 * and its answer is then not written if a tombstone it may need was collected meanwhile.
 */
export class Pins {
  /** When each running request started (its first attempt). */
  readonly #started = new Map<object, number>();
  /** Running requests that lost their pin, by their start. */
  readonly #lost = new Map<object, number>();
  /** Lost requests that may need a tombstone collected since: their answers are not written. */
  readonly #robbed = new Set<object>();
  /**
   * The add-ons' holds (`holdTombstones`): when each began and ends, on the controller's clock. While one
   * lasts, no tombstone goes; like a pin, it lasts `gcTime` at most.
   */
  readonly holds = new Map<object, readonly [at: number, until: number]>();

  /** The request `request` started at `stamp`. */
  add(request: object, stamp: number): void {
    this.#started.set(request, stamp);
  }

  /** The request ended; whether a tombstone it may need was collected meanwhile (its answer must then not be written). */
  end(request: object): boolean {
    this.#started.delete(request);
    this.#lost.delete(request);
    return this.#robbed.delete(request);
  }

  /** Tombstones written up to `newest` were collected: the requests that lost their pin and started before may have needed them. */
  buried(newest: number): void {
    for (const [request, start] of this.#lost) if (start < newest) this.#robbed.add(request);
  }

  /**
   * The start of the oldest running request that started at or after `since` (`Infinity` when none):
   * a record marked INVALID since then must stay marked while it runs. The requests that started
   * before `since` (running for the collector's `gcTime`, hung perhaps) lose their pin: the tombstones
   * go, and an answer of theirs that comes after one they may need went is not written (their key is
   * marked stale and refetches; a `fetch` awaiting one still resolves it). A hold lasting at `now` (and
   * made at or after `since`) keeps every tombstone (`-Infinity`).
   */
  oldestStart(since: number, now: number): number {
    let oldest = Number.POSITIVE_INFINITY;
    // an expired hold stays until its add-on releases it (each keeps one at a time)
    for (const [at, until] of this.holds.values()) if (at >= since && until > now) oldest = Number.NEGATIVE_INFINITY;
    for (const [request, start] of this.#started) {
      if (start < since) this.#lost.set(request, start);
      else if (start < oldest) oldest = start;
    }
    return oldest;
  }

  /** Forgets every request. */
  clear(): void {
    this.#started.clear();
    this.#lost.clear();
    this.#robbed.clear();
  }
}
