import { BehaviorSubject, Observable, interval, type Subscription } from 'rxjs';
import type { ControllerEndpoint, QueryState } from './types.js';

/** What a query stream needs from its controller. */
export interface QueryHost {
  /** The controller's clock. */
  now(): number;
  /**
   * Reads the key's data, error and meta from the current (optimistic) state. `previous`: the stream's
   * last read, when since then only entity records changed (the key's result and meta are the same).
   */
  read(stream: QueryStream, previous?: QueryRead): QueryRead;
  /** Whether a request for this key is in flight. */
  isFetching(key: string): boolean;
  /** Starts a request for the stream's key (deduplicated); failures become state. */
  refetch(stream: QueryStream): void;
  /** The stream read `paths` now (instead of `previous`): keep the path index up to date. */
  reindex(stream: QueryStream, previous: ReadonlySet<string>, paths: ReadonlySet<string>): void;
  /** The stream has no subscribers left. */
  release(stream: QueryStream): void;
}

/** One read of a key from the store. */
export interface QueryRead {
  /** The normalized result read (or the pk the arguments name), `undefined` when there was none. */
  readonly input: unknown;
  readonly data: unknown;
  /** A required entity is missing or INVALID. */
  readonly invalid: boolean;
  readonly paths: ReadonlySet<string>;
  readonly error: Error | undefined;
  /** The key's own result has never been stored. */
  readonly missing: boolean;
  readonly invalidated: boolean;
  readonly expiresAt: number;
}

/** The paths of a read that depends on no record. */
export const NO_PATHS: ReadonlySet<string> = new Set();

/** 5xx and network failures keep the data on screen; 4xx and errors without a status replace it. */
function keepsData(error: Error): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && (status === 0 || status >= 500);
}

function sameState(a: QueryState<unknown>, b: QueryState<unknown>): boolean {
  return (
    a.data === b.data &&
    a.error === b.error &&
    a.loading === b.loading &&
    a.fetching === b.fetching &&
    a.stale === b.stale
  );
}

/**
 * Whether a subscriber should start a request: data missing, stale or invalid. After an error the
 * stream backs off until the error expires (`errorExpiryLength`), except for a first subscriber
 * (`mounting`: a component mounting, a Retry that resubscribes), which tries again at once.
 */
export function needsFetch(read: QueryRead, fetching: boolean, now: number, mounting = false): boolean {
  if (fetching) return false;
  if (read.error) return mounting || now >= read.expiresAt;
  return read.missing || read.invalidated || read.invalid || now >= read.expiresAt;
}

/** The QueryState of a read: 5xx/network errors keep the data, 4xx and status-less errors replace it. */
export function queryState(read: QueryRead, fetching: boolean, now: number): QueryState<unknown> {
  const usable = !read.invalid && !read.invalidated && !(read.error && !keepsData(read.error));
  const data = usable ? read.data : undefined;
  return {
    data,
    error: read.error,
    loading: data === undefined && fetching,
    fetching,
    stale: read.missing ? data !== undefined : read.invalidated || now >= read.expiresAt,
  };
}

/** @internal A stream's subject and polling subscription, for tests that check what is left (not exported by the package). */
export let streamInternals: (stream: QueryStream) => {
  readonly subject: BehaviorSubject<QueryState<unknown>>;
  readonly poll: Subscription | undefined;
};

/**
 * The shared stream of one request key: one per key however many subscribers, one request at a time,
 * one polling timer. Recomputed by the controller only when something it read changed.
 */
export class QueryStream {
  /** Records the current data depends on. */
  paths: ReadonlySet<string> = NO_PATHS;
  /** The controller's mark: the last transition that listed this stream for an update. */
  mark = 0;
  readonly #subject: BehaviorSubject<QueryState<unknown>>;
  #subscribers = 0;
  #pollers = 0;
  #poll: Subscription | undefined;
  #updating = false;
  #dirty = false;
  /** The last read (`update` with `entitiesOnly` reads its key's result and meta from it). */
  #last: QueryRead | undefined;
  readonly #host: QueryHost;

  static {
    streamInternals = (stream) => ({ subject: stream.#subject, poll: stream.#poll });
  }

  declare readonly endpoint: ControllerEndpoint;
  declare readonly args: readonly unknown[];
  declare readonly key: string;

  constructor(host: QueryHost, endpoint: ControllerEndpoint, args: readonly unknown[], key: string) {
    this.endpoint = endpoint;
    this.args = args;
    this.key = key;
    this.#host = host;
    const read = (this.#last = this.#host.read(this));
    this.#subject = new BehaviorSubject(queryState(read, this.#host.isFetching(key), this.#host.now()));
  }

  /** The stream for one subscriber; `poll` subscribers keep the polling timer running. */
  observe(poll: boolean): Observable<QueryState<unknown>> {
    return new Observable<QueryState<unknown>>((subscriber) => {
      const mounting = this.#subscribers++ === 0;
      if (poll) this.#pollers++;
      this.update(mounting);
      this.#syncPolling();
      const subscription = this.#subject.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        if (poll) this.#pollers--;
        this.#subscribers--;
        this.#syncPolling();
        if (this.#subscribers === 0) this.#host.release(this);
      };
    });
  }

  /** Whether anyone is subscribed. */
  get active(): boolean {
    return this.#subscribers > 0;
  }

  /**
   * Re-reads the store, fetches if the data is missing, stale or invalid, and emits if a field changed.
   * `mounting`: the first subscriber arrived (it retries a failed request without waiting for the error to expire).
   * `entitiesOnly`: only entity records changed since the last read, not this key's result or meta.
   */
  update(mounting = false, entitiesOnly = false): void {
    if (this.#updating) {
      this.#dirty = true;
      return;
    }
    this.#updating = true;
    let previous = entitiesOnly ? this.#last : undefined;
    try {
      do {
        this.#dirty = false;
        const read = this.#host.read(this, previous);
        previous = undefined;
        this.#last = read;
        if (read.paths !== this.paths) {
          this.#host.reindex(this, this.paths, read.paths);
          this.paths = read.paths;
        }
        const now = this.#host.now();
        let fetching = this.#host.isFetching(this.key);
        if (this.active && needsFetch(read, fetching, now, mounting)) {
          this.#host.refetch(this);
          fetching = this.#host.isFetching(this.key);
        }
        if (this.#dirty) continue;
        const next = queryState(read, fetching, now);
        if (!sameState(next, this.#subject.getValue())) this.#subject.next(next);
      } while (this.#dirty);
    } finally {
      this.#updating = false;
    }
  }

  #syncPolling(): void {
    const frequency = this.endpoint.pollFrequency;
    const shouldPoll = this.#pollers > 0 && typeof frequency === 'number' && frequency > 0 && !this.endpoint.sideEffect;
    if (shouldPoll && !this.#poll) {
      this.#poll = interval(frequency).subscribe(() => this.#host.refetch(this));
    } else if (!shouldPoll && this.#poll) {
      this.#poll.unsubscribe();
      this.#poll = undefined;
    }
  }
}
