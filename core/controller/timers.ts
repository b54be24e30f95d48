/**
 * The controller's timers (retry waits, polling, reconnect delays): on the `scheduler` of its options
 * when one was given (a `TestScheduler` in marble tests), else on the global `setTimeout`/`setInterval`,
 * looked up at each call so that fake timers control them. Without a scheduler, no RxJS scheduler code
 * is bundled.
 */
import type { SchedulerLike, Unsubscribable } from 'rxjs';

/**
 * Calls `work` once after `ms`, or after 2^31 - 1 ms (24.8 days) when `ms` is longer (`Infinity` too): a timer
 * given more fires at once. Unsubscribing before then cancels it.
 */
export function after(ms: number, work: () => void, scheduler: SchedulerLike | undefined): Unsubscribable {
  ms = Math.min(ms, 2147483647);
  if (scheduler) return scheduler.schedule(work, ms);
  const handle = setTimeout(work, ms);
  return { unsubscribe: () => clearTimeout(handle) };
}

/**
 * Calls `work` every `ms` until unsubscribed (as `interval(ms, scheduler)` does), the first time after
 * `first` ms (default `ms`): one global `setInterval`, or after a different first wait (or on a scheduler)
 * one `after` per call, the next one set before `work` runs (so that `work` may unsubscribe).
 */
export function every(ms: number, work: () => void, scheduler: SchedulerLike | undefined, first = ms): Unsubscribable {
  // (a period a timer cannot wait goes through `after`)
  if (!scheduler && first === ms && ms < 2147483648) {
    const handle = setInterval(work, ms);
    return { unsubscribe: () => clearInterval(handle) };
  }
  const tick = () => {
    timer = after(ms, tick, scheduler);
    work();
  };
  let timer = after(first, tick, scheduler);
  return { unsubscribe: () => timer.unsubscribe() };
}
