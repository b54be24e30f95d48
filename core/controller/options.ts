import type { Observable, SchedulerLike } from 'rxjs';
import type { FetchFunction, RetryDelay } from '../endpoint/index.js';
import type { Controller } from './Controller.js';
import { browserEnvironment } from './browserEnvironment.js';
import { defaultRetryDelay } from './retry.js';
import { describeKind } from '../errors.js';

/** Options of `new Controller(...)`. */
export interface ControllerOptions {
  /**
   * A state to start from: `controller.getState()` of another controller (a server's), or it after a
   * JSON round trip. Checked like a snapshot (`restoreSnapshot`: a `SnapshotError` for a time that is not
   * a finite number or values nested too deeply, or a value that is no state at all: a JSON text not
   * parsed, a number, a list; `null` is none); its `lastReset` is not taken, and this controller's
   * requests start after the newest time it holds (a server's clock may be ahead).
   */
  readonly initialState?: unknown;
  /** The clock (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
  /**
   * How often a failed request without side effects (GET) is retried, when its endpoint does not set
   * `retry`: network errors (status 0, timeouts) and 5xx only. Default 3 in a browser, 0 outside one
   * (no `document`: a server render whose API is down fails at once); `false` or 0 turns retries off.
   * Mutations retry only when their endpoint sets `retry`.
   */
  readonly retry?: number | false | undefined;
  /** The wait (ms) before retry number `attempt` (0-based), when the endpoint does not set `retryDelay`. Default `min(1000 * 2 ** attempt, 30_000)`. */
  readonly retryDelay?: RetryDelay | undefined;
  /**
   * Where retry waits and polling intervals are scheduled (an RxJS scheduler; a `TestScheduler` in
   * marble tests). Default: the global `setTimeout` and `setInterval`, which fake timers control.
   */
  readonly scheduler?: SchedulerLike | undefined;
  /** Stale or errored streams with subscribers refetch when the network comes back. Default `true`. */
  readonly refetchOnReconnect?: boolean | undefined;
  /** Stale streams with subscribers refetch when the window regains focus (a burst of focus events counts once). Default `false`. */
  readonly refetchOnFocus?: boolean | undefined;
  /** Polling goes on while the page is hidden or the network is down. Default `false`: it pauses, and resumes on return. */
  readonly pollInBackground?: boolean | undefined;
  /**
   * Where the controller learns about the network, the page's visibility and focus (Observables; in
   * tests, Subjects). Default: the browser's `window`/`document` events, none outside a browser.
   */
  readonly environment?: ControllerEnvironment | undefined;
  /**
   * Add-ons started with the controller (persistence, tab sync, devtools, a socket): each is called
   * with the controller and may return a teardown, which `dispose()` calls.
   */
  readonly managers?: readonly ControllerManager[] | undefined;
  /**
   * How long (ms) a key's result and meta are kept after its last subscriber left (or after it was
   * written while nobody observed it); then they go, with every entity nothing else reaches.
   * Default 300_000 (5 minutes); `Infinity` keeps everything.
   */
  readonly gcTime?: number | undefined;
  /**
   * The `fetch` every request of this controller is sent with (an endpoint that overrides
   * `fetchResponse` without calling `super.fetchResponse` still sends its own way). Default: the global
   * `fetch`. On a server, pass the framework's request-scoped one (SvelteKit's `event.fetch` in a
   * `load`), so that the page replays a universal load's responses during hydration.
   *
   * @example
   * export const load = async ({ fetch }) => {
   *   const controller = new Controller({ fetch });
   *   await controller.fetch(TodoResource.getList, {});
   *   return { snapshot: takeSnapshot(controller) };
   * };
   */
  readonly fetch?: FetchFunction | undefined;
}

/** Where the controller learns about the network, the page's visibility and focus. */
export interface ControllerEnvironment {
  /** `true` when the network is up, `false` when it is down. */
  readonly online$?: Observable<boolean> | undefined;
  /** `true` when the page is visible, `false` when it is hidden (a background tab). */
  readonly visible$?: Observable<boolean> | undefined;
  /** Emits when the window regains focus. */
  readonly focus$?: Observable<unknown> | undefined;
}

/** An add-on started with the controller; its returned teardown runs on `dispose()`. */
export type ControllerManager = (controller: Controller) => (() => void) | void;

/**
 * The controller's options with every default applied, as its query cache and request runner take them
 * (the query cache's own options extend these).
 */
export interface ResolvedOptions {
  /** The clock (ms since the epoch). */
  readonly now: () => number;
  /** Where polling and retry waits are scheduled (`undefined`: the global timers). */
  readonly scheduler: SchedulerLike | undefined;
  /** Retries of a failed GET (mutations: none unless the endpoint sets `retry`). */
  readonly retry: number | false;
  /** The wait before each retry. */
  readonly retryDelay: RetryDelay;
  /** The `fetch` requests are sent with; `undefined`: the global one. */
  readonly fetch?: FetchFunction | undefined;
  /** The network, visibility and focus events. */
  readonly environment: ControllerEnvironment;
  /** Stale or errored streams with subscribers refetch when the network comes back. */
  readonly refetchOnReconnect: boolean;
  /** Stale streams with subscribers refetch when the window regains focus. */
  readonly refetchOnFocus: boolean;
  /** Polling goes on while the page is hidden or the network is down. */
  readonly pollInBackground: boolean;
  /** How long (ms) a key's result is kept after its last subscriber left. */
  readonly gcTime: number;
}

/**
 * The controller's options, each missing one at the default documented above. In development a numeric option that
 * is no number of its kind (`NaN`, a string, a negative value, `true`: it would mean something else silently) throws
 * a `TypeError` naming it, as an endpoint's do (`EndpointDefinitionError`).
 */
export function cacheOptions(options: ControllerOptions): ResolvedOptions {
  if (process.env.NODE_ENV !== 'production') {
    // what each numeric lifecycle option takes
    const takes: { readonly [option: string]: string } = {
      retry: 'a number of retries, 0 or more (Infinity: no end), or false (none)',
      retryDelay: 'a number of milliseconds, 0 or more, or a function (attempt, error) => milliseconds',
      gcTime: 'a number of milliseconds, 0 or more (Infinity: keeps everything)',
    };
    for (const option in takes) {
      const value = (options as Record<string, unknown>)[option];
      if (
        value !== undefined &&
        !(typeof value == 'number'
          ? value >= 0
          : value === false
            ? option == 'retry'
            : typeof value == 'function' && option == 'retryDelay')
      )
        throw new TypeError(
          `new Controller({ ${option} }): ${option} must be ${takes[option]}, not ${typeof value} ${
            typeof value == 'function' ? value.name || 'function' : (JSON.stringify(value) ?? String(value))
          }.`,
        );
    }
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `new Controller({ fetch }) expects a function (such as SvelteKit's event.fetch), got ${describeKind(options.fetch)}`
        : 'fetch',
    );
  }
  return {
    now: options.now ?? Date.now,
    scheduler: options.scheduler,
    retry: options.retry ?? (typeof document === 'undefined' ? 0 : 3),
    fetch: options.fetch,
    retryDelay: options.retryDelay ?? defaultRetryDelay,
    environment: options.environment ?? browserEnvironment(),
    refetchOnReconnect: options.refetchOnReconnect ?? true,
    refetchOnFocus: options.refetchOnFocus ?? false,
    pollInBackground: options.pollInBackground ?? false,
    gcTime: options.gcTime ?? 300_000,
  };
}
