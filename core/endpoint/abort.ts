/**
 * One request's abort signal: the endpoint's `signal`, a per-call signal (the controller's) and the
 * `timeout`, linked into one `AbortSignal` whose reason is always a named error.
 */
import { AbortError, TimeoutError, type RequestDescription } from '../errors.js';

/** The linked signal of one request, and a promise that rejects (with the named error) when it aborts. */
export interface RequestAbort {
  /** Aborts when any source aborts or the timeout passes; `reason` is an `AbortError` or a `TimeoutError`. */
  readonly signal: AbortSignal;
  /** Rejects with `signal.reason` once the signal aborts; never resolves. */
  readonly aborted: Promise<never>;
  /** Makes one more signal (e.g. a `RequestInit`'s) abort this request too. */
  follow(source: AbortSignal): void;
  /** Removes the listeners and clears the timer: call when the request settles. */
  dispose(): void;
}

/** The named error for an abort `reason`: our own errors stay as they are, anything else becomes an `AbortError`. */
export function abortErrorOf(request: RequestDescription, reason: unknown): AbortError | TimeoutError {
  return reason instanceof AbortError || reason instanceof TimeoutError ? reason : new AbortError(request, reason);
}

/**
 * Links `sources` and a `timeout` (ms; none when `undefined`, not positive, or 2^31 or more) into one
 * signal. The timer is the global `setTimeout`, looked up now (so fake timers apply).
 */
export function linkAbort(
  request: RequestDescription,
  sources: readonly (AbortSignal | undefined)[],
  timeout: number | undefined,
): RequestAbort {
  const link = new AbortController();
  const cleanups: (() => void)[] = [];
  let reject!: (reason: unknown) => void;
  const aborted = new Promise<never>((_resolve, fail) => (reject = fail));
  aborted.catch(() => {}); // observed by the request's race; never an unhandled rejection
  link.signal.addEventListener('abort', () => reject(link.signal.reason), { once: true });

  const follow = (source: AbortSignal) => {
    if (link.signal.aborted) return;
    const listener = () => link.abort(abortErrorOf(request, source.reason));
    if (source.aborted) return listener();
    source.addEventListener('abort', listener, { once: true });
    cleanups.push(() => source.removeEventListener('abort', listener));
  };
  for (const source of sources) if (source) follow(source);
  // a limit a timer cannot wait (2^31 ms, 24.8 days, or more: it would fire at once) is none
  if (timeout! > 0 && timeout! < 2147483648 && !link.signal.aborted) {
    const handle = setTimeout(() => link.abort(new TimeoutError(request, timeout!)), timeout);
    cleanups.push(() => clearTimeout(handle));
  }
  return {
    signal: link.signal,
    aborted,
    follow,
    dispose: () => {
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
