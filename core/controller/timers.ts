/**
 * The controller's timers (retry waits, polling, reconnect delays): on the `scheduler` of its options
 * when one was given (a `TestScheduler` in marble tests), else on the global `setTimeout`/`setInterval`,
 * looked up at each call so that fake timers control them. Without a scheduler, no RxJS scheduler code
 * is bundled.
 */
import type { SchedulerLike, Unsubscribable } from 'rxjs';

/** Calls `work` once after `ms`; unsubscribing before then cancels it. */
export function after(ms: number, work: () => void, scheduler: SchedulerLike | undefined): Unsubscribable {
  if (scheduler) return scheduler.schedule(work, ms);
  const handle = setTimeout(work, ms);
  return { unsubscribe: () => clearTimeout(handle) };
}

/**
 * Calls `work` every `ms` until unsubscribed (as `interval(ms, scheduler)` does), the first time after
 * `first` ms (default `ms`).
 */
export function every(ms: number, work: () => void, scheduler: SchedulerLike | undefined, first = ms): Unsubscribable {
  if (scheduler) {
    return scheduler.schedule(function tick() {
      work();
      this.schedule(undefined, ms);
    }, first);
  }
  if (first === ms) {
    const handle = setInterval(work, ms);
    return { unsubscribe: () => clearInterval(handle) };
  }
  let handle: ReturnType<typeof setTimeout> | ReturnType<typeof setInterval> = setTimeout(() => {
    handle = setInterval(work, ms);
    work();
  }, first);
  return { unsubscribe: () => (clearTimeout(handle as ReturnType<typeof setTimeout>), clearInterval(handle)) };
}
