/**
 * One request key's whole data path, from the store to a subscriber:
 *
 * 1. read: `QueryReader.read` looks up the key's normalized result and meta in the current state (with
 *    optimistic layers applied) and denormalizes it through the memo, which also tells which entity
 *    records the data depends on (`deps`: every record, and what the stream is indexed under);
 * 2. dependency check: the stream's host (its `QueryCache`) indexes it under those records (the rows of a long
 *    list under their table), and on each
 *    store transition recomputes only the streams that read something that changed (a stream reached
 *    only through changed records re-reads just its data, its result and meta being unchanged);
 * 3. fetch decision: `needsFetch` (data missing, stale or invalid, an expired error);
 * 4. `QueryState`: `queryState` turns the read into what a subscriber sees (a transient failure keeps
 *    the data, another error replaces it);
 * 5. emission: only when a field changed, to every subscriber of the key at once.
 */
import { BehaviorSubject, Observable, type SchedulerLike, type Unsubscribable } from 'rxjs';
import { NO_PATHS, NO_READ_DEPS, NOT_READ, type QueryRead, type QueryReader, type ReadDeps } from './QueryReader.js';
import { isTransient } from './retry.js';
import { isHydrating } from './hydration.js';
import { after, every } from './timers.js';
import type { ControllerEndpoint, ObserveOptions, QueryState, ResponseSnapshot } from './types.js';

/**
 * What a subscriber asks of the stream: `ObserveOptions`, and for `batch` (`watchQuery`) where the stream
 * waits for the end of the task (kept out of the stream so that only apps batching bundle it).
 */
export interface StreamObserveOptions extends ObserveOptions {
  /** Queues the stream's re-read for the end of the task (it calls `flush` then). */
  readonly wait?: (stream: QueryStream) => void;
}

/** How `QueryStream.update` re-reads. */
export interface UpdateOptions {
  /** The first subscriber arrived: a failed request is retried without waiting for its error to expire. */
  readonly mounting?: boolean;
  /** A subscriber arrived: data that was stale when it was written (a lifetime of 0) is refetched too. */
  readonly subscribing?: boolean;
  /** Only entity records changed since the last read, not this key's result or meta. */
  readonly entitiesOnly?: boolean;
}

/** What a query stream asks of the requests: whether its key's request is in flight, paused, and since when. */
export interface RequestStatus {
  /** Whether a request for this key is in flight. */
  isFetching(key: string): boolean;
  /** Whether a request for this key waits for the network. */
  isPaused(key: string): boolean;
  /** The stamp of the attempt in flight for this key, if any. */
  startOf(key: string): number | undefined;
}

/**
 * What a stream sees of its cache: where it reads, the status of its key's request, the clock and the
 * polling policy, and the three things it tells: what it read (the dependency index), that it wants a
 * request, that its last subscriber left.
 */
export interface StreamHost {
  /** The read path (one memo, one view of the optimistic layers). */
  readonly reader: QueryReader;
  /** Whether the key's request is in flight, paused, and since when. */
  readonly requests: RequestStatus;
  /** Where polling is scheduled (`undefined`: the global timers). */
  readonly scheduler: SchedulerLike | undefined;
  /** The clock. */
  now(): number;
  /** Whether polling may run now. */
  pollingAllowed(): boolean;
  /** The stream is indexed under `index` now instead of `previous` (see `ReadDeps.index`). */
  index(stream: QueryStream, previous: ReadonlySet<string>, index: ReadonlySet<string>): void;
  /** Starts a request for the stream's key (deduplicated); failures become state. */
  refetch(stream: QueryStream): void;
  /** The stream has no subscribers left. */
  release(stream: QueryStream): void;
}

const MOUNTING: UpdateOptions = { mounting: true, subscribing: true };
const SUBSCRIBING: UpdateOptions = { subscribing: true };
const ENTITIES_ONLY: UpdateOptions = { entitiesOnly: true };

function sameState(a: QueryState<unknown>, b: QueryState<unknown>): boolean {
  return (
    a.data === b.data &&
    a.error === b.error &&
    a.loading === b.loading &&
    a.fetching === b.fetching &&
    a.stale === b.stale &&
    a.paused === b.paused
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

/**
 * Whether the data on screen stays beside `error`: a transient failure (5xx, network), or a response a
 * validator refused or whose 2xx body was not JSON (an HTML page a proxy answered with): the stored data is
 * as it was, and still the best there is.
 */
function keepsData(error: Error): boolean {
  return isTransient(error) || error.name === 'ValidationError' || error.name === 'ParseError';
}

/**
 * The QueryState of a read: transient errors (5xx, network), validation failures and unreadable 2xx bodies keep the data, 4xx
 * and other status-less errors replace it; while a request runs and no data is shown (`loading`), the old
 * error of a request is not shown either (an error reading the stored value is), unless it was written
 * after the request in flight started (`startedAt`; `setError` during a load): then it is the key's
 * answer until a newer one.
 * `paused`: the request waits for the network. `waiting`: the read waits for a mutation in flight (an optimistic
 * delete took its data away): a request is on the way, so it is loading, though not fetching.
 */
export function queryState(
  read: QueryRead,
  fetching: boolean,
  now: number,
  paused = false,
  startedAt?: number,
  waiting = false,
): QueryState<unknown> {
  const usable = !read.invalid && !read.invalidated && !(read.error && !keepsData(read.error));
  const data = usable ? read.data : undefined;
  const newerError = read.error !== undefined && startedAt !== undefined && read.fetchedAt > startedAt;
  const loading = data === undefined && (fetching || waiting) && !newerError;
  return {
    data,
    error: loading && !read.unreadable ? undefined : read.error,
    loading,
    fetching,
    // the data shown is past its expiry (API.md): a state without data (a key never fetched, an invalidated result,
    // an error that replaced the data) has none to call stale; a key's own result missing makes data read elsewhere stale
    stale: data !== undefined && (read.missing || now >= read.expiresAt),
    paused: fetching && paused,
  };
}

/** Whether a read answers without a request (`controller.fetchIfStale`): stored, usable and not expired at `now`. */
export function isFresh(read: QueryRead, now: number): boolean {
  return !read.missing && !read.invalid && !read.invalidated && !read.error && now < read.expiresAt;
}

/** What `controller.getResponse` answers for a read: its data unless invalid, and whether it is stale at `now`. */
export function responseSnapshot(read: QueryRead, now: number): ResponseSnapshot<unknown> {
  const invalid = read.invalid || read.invalidated;
  return {
    data: invalid ? undefined : read.data,
    expiresAt: read.expiresAt,
    stale: read.invalidated || now >= read.expiresAt,
    invalid,
  };
}

/**
 * The QueryState of `key` from a read: its pause and the start of its request in flight come from `requests`;
 * `waiting`: it waits for a mutation (see `queryState`).
 */
export function stateOf(
  requests: RequestStatus,
  key: string,
  read: QueryRead,
  fetching: boolean,
  now: number,
  waiting?: boolean,
): QueryState<unknown> {
  return queryState(read, fetching, now, requests.isPaused(key), requests.startOf(key), waiting);
}

/** @internal A stream's subject and polling subscription, for tests that check what is left (not exported by the package). */
export let streamInternals: (stream: QueryStream) => {
  readonly subject: BehaviorSubject<QueryState<unknown>>;
  readonly poll: Unsubscribable | undefined;
};

/**
 * The shared stream of one request key: one per key however many subscribers, one request at a time,
 * one polling timer. Recomputed by its host only when something it read changed.
 */
export class QueryStream {
  readonly #subject: BehaviorSubject<QueryState<unknown>>;
  readonly #host: StreamHost;
  #subscribers = 0;
  /** The periods of the subscribers that poll (their endpoint's `pollFrequency`): the smallest runs (Data Client's useLive). */
  readonly #periods: number[] = [];
  #poll: Unsubscribable | undefined;
  /** The period of the running timer. */
  #period = 0;
  #updating = false;
  #dirty = false;
  /** Subscribers that want every write's state at once (not `batch`); `#wait`: where a batching one waits. */
  #eager = 0;
  #wait: ((stream: QueryStream) => void) | undefined;
  /** A re-read waits for the end of the task (`changed`); `#waitingFull`: it reads the key's result and meta too. */
  #waiting = false;
  #waitingFull = false;
  /** The last transition that listed this stream for an update (see `listFor`). */
  #mark = 0;
  /** The last read (an `entitiesOnly` update reads its key's result and meta from it). */
  #last: QueryRead = NOT_READ;
  /** When the data shown falls stale (0: no such time), and the timer that then emits `stale: true`. */
  #staleAt = 0;
  #staleTimer: Unsubscribable | undefined;

  static {
    streamInternals = (stream) => ({ subject: stream.#subject, poll: stream.#poll });
  }

  declare readonly endpoint: ControllerEndpoint;
  declare readonly args: readonly unknown[];
  declare readonly key: string;

  constructor(host: StreamHost, endpoint: ControllerEndpoint, args: readonly unknown[], key: string) {
    this.endpoint = endpoint;
    this.args = args;
    this.key = key;
    this.#host = host;
    const read = (this.#last = host.reader.read(this, undefined));
    host.index(this, NO_PATHS, read.deps.index);
    this.#subject = new BehaviorSubject(stateOf(host.requests, key, read, host.requests.isFetching(key), host.now()));
  }

  /** The records the current data depends on (computed on first use for a long result). */
  get paths(): ReadonlySet<string> {
    return this.#last.deps.paths;
  }

  /** What the current data depends on. */
  get deps(): ReadDeps {
    return this.#last.deps;
  }

  /** The stream for one subscriber, who observes with `endpoint` (one of this key's: its `pollFrequency` counts). */
  observe(
    options: StreamObserveOptions,
    endpoint: ControllerEndpoint = this.endpoint,
  ): Observable<QueryState<unknown>> {
    const period = (options.poll && endpoint.pollFrequency) || 0;
    return new Observable<QueryState<unknown>>((subscriber) => {
      const mounting = this.#subscribers++ === 0;
      const eager = !options.wait;
      if (eager) this.#eager++;
      else this.#wait = options.wait;
      if (period > 0) this.#periods.push(period);
      this.update(mounting ? MOUNTING : SUBSCRIBING);
      this.syncPolling();
      const subscription = this.#subject.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        if (period > 0) this.#periods.splice(this.#periods.indexOf(period), 1);
        if (eager) this.#eager--;
        this.#subscribers--;
        this.syncPolling();
        if (this.#subscribers === 0) {
          this.#timeStale(0);
          this.#host.release(this);
        }
      };
    });
  }

  /** How many subscribers it has now (`inspectController`'s observer count). */
  get observers(): number {
    return this.#subscribers;
  }

  /** Whether anyone is subscribed. */
  get active(): boolean {
    return this.#subscribers > 0;
  }

  /**
   * Something this stream read changed (`entitiesOnly`: records only, not its key's result or meta). Re-reads
   * at once, or, when every subscriber renders once per task (`batch`), once at the end of the task however
   * many writes the task makes.
   */
  changed(entitiesOnly: boolean): void {
    if (this.#eager > 0 || this.#subscribers === 0 || !this.#wait)
      return this.update(entitiesOnly ? ENTITIES_ONLY : undefined);
    if (!entitiesOnly) this.#waitingFull = true;
    if (this.#waiting) return;
    this.#waiting = true;
    this.#wait(this);
  }

  /** Runs the re-read that waits for the end of the task, if any. */
  flush(): void {
    if (this.#waiting) this.update(this.#waitingFull ? undefined : ENTITIES_ONLY);
  }

  /** Re-reads the store, fetches if the data is missing, stale or invalid, and emits if a field changed. */
  update(options?: UpdateOptions): void {
    if (this.#waiting) {
      // a re-read waited for the end of the task: this one replaces it (reading everything if it had to)
      this.#waiting = false;
      if (this.#waitingFull && options?.entitiesOnly) options = undefined;
      this.#waitingFull = false;
    }
    if (this.#updating) {
      this.#dirty = true;
      return;
    }
    this.#updating = true;
    const host = this.#host;
    let previous = options?.entitiesOnly ? this.#last : undefined;
    const mounting = options?.mounting === true;
    const subscribing = options?.subscribing === true;
    try {
      do {
        this.#dirty = false;
        const before = this.#last.deps.index;
        const read = host.reader.read(this, previous);
        const index = read.deps.index;
        // a long list reached by a write to its table that left its data as it was: the write was not one of its
        // records, and nothing is told (no fetch decision, no state), as when a write does not reach a stream (its
        // stored value still unreadable: the same error read anew)
        const untouched =
          previous !== undefined &&
          read.deps.wide === true &&
          read.data === previous.data &&
          read.invalid === previous.invalid &&
          (read.error === previous.error ||
            (read.unreadable && previous.unreadable && read.error?.message === previous.error?.message));
        previous = undefined;
        this.#last = read;
        if (index !== before) host.index(this, before, index);
        if (untouched) continue;
        const now = host.now();
        let fetching = host.requests.isFetching(this.key);
        // a read that an optimistic layer alone makes unusable (the entity of a delete in flight) waits for its
        // mutation, loading meanwhile: a request sent now could be answered first and bring back what it removes
        const waiting = read.invalid && host.reader.byLayerOnly(this, read);
        if (
          this.active &&
          !waiting &&
          // while a server-rendered page hydrates, data is not refetched for its age: it is what the server rendered
          needsFetch(read, fetching, isHydrating() ? -Infinity : now, mounting) &&
          // stale as it was written (a lifetime of 0) and not marked since: refetched when a subscriber arrives, not
          // on every re-read (each answer would ask again); a key never written or marked has no such meta
          (subscribing || (read.invalid && !read.error) || !host.reader.bornStale(this.key))
        ) {
          host.refetch(this);
          fetching = host.requests.isFetching(this.key);
        }
        if (this.#dirty) continue;
        let next = stateOf(host.requests, this.key, read, fetching, now, waiting);
        if (!sameState(next, this.#subject.getValue())) this.#subject.next(next);
        else next = this.#subject.getValue();
        // the data shown turns stale at its expiry: subscribers see `stale: true` then (no request: staleness
        // refetches on the usual triggers)
        this.#timeStale(this.active && next.data !== undefined && !next.stale ? read.expiresAt : 0);
      } while (this.#dirty);
    } finally {
      this.#updating = false;
    }
  }

  /**
   * Lists the stream for transition number `mark`: false when it is listed already (cheaper than a Set
   * of the streams a transition reaches).
   */
  listFor(mark: number): boolean {
    if (this.#mark === mark) return false;
    this.#mark = mark;
    return true;
  }

  /** The controller is disposed: polling stops and every subscriber completes. */
  complete(): void {
    this.close();
    this.#subject.complete();
  }

  /** The stream is dropped by its cache: it depends on nothing any more and stops polling. */
  close(): void {
    this.#timeStale(0);
    this.#waiting = false;
    this.#poll?.unsubscribe();
    this.#poll = undefined;
    this.#last = { ...this.#last, deps: NO_READ_DEPS };
  }

  /**
   * Sets the timer that emits `stale: true` at `at` (none for 0, or for data that never expires: the last time a `Date` holds), unless it is set for that time
   * already. A wait longer than a timer holds (24.8 days) is taken in steps.
   */
  #timeStale(at: number): void {
    if (at === this.#staleAt) return;
    this.#staleTimer?.unsubscribe();
    this.#staleAt = at;
    this.#staleTimer =
      at > 0 && at < 8.64e15
        ? after(
            at - this.#host.now(), // `after` waits 24.8 days at most
            () => {
              this.#staleAt = 0;
              const state = this.#subject.getValue();
              if (this.#host.now() < at) this.#timeStale(at);
              else if (state.data !== undefined && !state.stale) this.#subject.next({ ...state, stale: true });
            },
            this.#host.scheduler,
          )
        : undefined;
  }

  /**
   * Refetches when someone is subscribed and the data is stale, invalid or an error is shown (the
   * network came back, the window regained focus, polling resumed). `errors`: an error alone is a reason.
   */
  revalidate(errors: boolean): void {
    if (!this.active) return;
    const read = this.#last;
    const host = this.#host;
    if (host.requests.isFetching(this.key)) return;
    const now = host.now();
    const stale = read.missing || read.invalid || read.invalidated || now >= read.expiresAt;
    if ((stale || (errors && read.error !== undefined)) && !host.reader.byLayerOnly(this, read)) {
      host.refetch(this);
      this.update();
    }
  }

  /**
   * Starts, stops or re-times the polling timer: it runs while a polling subscriber is there and the cache lets
   * it (by default not while the page is hidden or the network is down), at the smallest period of the polling
   * subscribers. Its first poll comes when the data is that old. Resuming refetches at once when a poll was
   * missed meanwhile.
   */
  syncPolling(): void {
    const host = this.#host;
    const frequency = Math.min(...this.#periods); // Infinity: none
    const shouldPoll = frequency < Infinity && host.pollingAllowed();
    if (this.#poll && !(shouldPoll && frequency === this.#period)) {
      this.#poll.unsubscribe();
      this.#poll = undefined;
    }
    if (shouldPoll && !this.#poll) {
      this.#period = frequency;
      // the first poll when the data is `frequency` old (data rendered on the server or prefetched a
      // moment ago is not fetched again at once), then every `frequency`; data already that old (a poll
      // was missed while polling paused, or before this subscriber came) is polled at once
      const age = host.now() - (host.reader.dateOf(this.key) ?? Number.NEGATIVE_INFINITY);
      // a poll waits for an optimistic delete of its data in flight, as focus and reconnect do (see `revalidate`)
      const poll = () => host.reader.byLayerOnly(this, this.#last) || host.refetch(this);
      if (age >= frequency) poll();
      this.#poll = every(frequency, poll, host.scheduler, age >= 0 && age < frequency ? frequency - age : frequency);
    }
  }
}
