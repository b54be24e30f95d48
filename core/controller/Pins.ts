/**
 * What running requests pin for the garbage collector: a record marked INVALID (deleted) after a
 * request started must stay marked while it runs, or its response could bring the record back. A pin
 * lasts as long as the collector allows (`gcTime`): a request running longer (hung, perhaps) loses it,
 * and its answer is then not written.
 */
export class Pins {
  /** When each running request started (its first attempt). */
  readonly #started = new Map<object, number>();
  /** Running requests that lost their pin. */
  readonly #lost = new Set<object>();

  /** The request `request` started at `stamp`. */
  add(request: object, stamp: number): void {
    this.#started.set(request, stamp);
  }

  /** The request ended; whether it had lost its pin (its answer must then not be written). */
  end(request: object): boolean {
    this.#started.delete(request);
    return this.#lost.delete(request);
  }

  /**
   * The start of the oldest running request that started at or after `since` (`Infinity` when none).
   * The requests that started before `since` lose their pin.
   */
  oldestStart(since: number): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const [request, start] of this.#started) {
      if (start < since) this.#lost.add(request);
      else if (start < oldest) oldest = start;
    }
    return oldest;
  }

  /** Forgets every request. */
  clear(): void {
    this.#started.clear();
    this.#lost.clear();
  }
}
