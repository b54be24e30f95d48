/**
 * Retries of a failed request: which errors are worth another attempt, how long to wait, and the
 * attempt loop, stopped by an abort (the request's signal) or a store reset.
 */
import type { SchedulerLike } from 'rxjs';
import type { FetchFunction, RetryDelay } from '../endpoint/index.js';
import { after } from './timers.js';

/** How requests are sent, and how failed ones retry, when their endpoint does not say. */
export interface RequestPolicy {
  /** Retries of a failed GET (mutations: none unless the endpoint sets `retry`). */
  readonly retry: number | false;
  /** The wait before each retry. */
  readonly retryDelay: RetryDelay;
  /** The `fetch` requests are sent with (the endpoint's `fetchWith` option); default: the global one. */
  readonly fetch?: FetchFunction | undefined;
}

/** The default wait before retry number `attempt` (0-based): 1 s, 2 s, 4 s, ..., at most 30 s (TanStack Query's). */
export function defaultRetryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/**
 * A transient failure: a network failure (status 0, a `TimeoutError` too) or a 5xx (500-599). It is
 * retried, and the data on screen stays beside it; 4xx, parse and normalize errors and aborts are not
 * transient.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'AbortError') return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && (status === 0 || (status >= 500 && status < 600));
}

/** A retry count as the options give it (`false`, a negative or a non-number is 0; `Infinity` is allowed). */
export function retryCount(retry: number | false | undefined): number {
  return typeof retry === 'number' && retry > 0 ? Math.floor(retry) : 0;
}

/** The wait (ms) before retry number `attempt` after `error`: what `retryDelay` gives, 0 unless a positive number. */
export function delayOf(retryDelay: RetryDelay, attempt: number, error: Error): number {
  const delay = typeof retryDelay === 'function' ? retryDelay(attempt, error) : retryDelay;
  return typeof delay === 'number' && delay > 0 ? delay : 0;
}

/**
 * Calls `attempt` until it resolves, a failure is not retryable, the `retries` (after the first attempt)
 * are used up, `abort` aborts (rejects with its reason, an `AbortError`) or `stop` aborts (the store was
 * reset: rejects with the last error, without another attempt); waits `retryDelay` on `scheduler` (the
 * global `setTimeout` when `undefined`) before each retry. Resolves the successful attempt's value.
 */
export async function withRetries<T>(
  attempt: (index: number) => Promise<T>,
  retries: number,
  retryDelay: RetryDelay,
  scheduler: SchedulerLike | undefined,
  abort: AbortSignal,
  stop: AbortSignal,
): Promise<T> {
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (error) {
      if (index >= retries || !isTransient(error) || abort.aborted || stop.aborted) throw error;
      await wait(delayOf(retryDelay, index, error as Error), scheduler, abort, stop);
      if (abort.aborted) throw abort.reason;
      if (stop.aborted) throw error;
    }
  }
}

/** Resolves after `ms` on `scheduler`, or as soon as `abort` or `stop` aborts. */
function wait(ms: number, scheduler: SchedulerLike | undefined, abort: AbortSignal, stop: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const either = AbortSignal.any([abort, stop]);
    if (either.aborted) return resolve(); // `retryDelay` aborted it
    const stopped = () => (timer.unsubscribe(), resolve());
    either.addEventListener('abort', stopped, { once: true });
    // the listener leaves when the time is up (a signal that can still abort keeps its listeners), even
    // when a synchronous scheduler calls this before `after` returns
    const timer = after(ms, () => (either.removeEventListener('abort', stopped), resolve()), scheduler);
  });
}
