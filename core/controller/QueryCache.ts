/**
 * The query streams by request key, the index from entity records to the streams that read them, and
 * the transitions: on every store change, exactly the streams that read something it changed recompute.
 * Each part it holds sees it through an interface of its own: a stream its `StreamHost`, the requests
 * their `RequestListener`, the garbage collector its `CollectorView`, the environment its
 * `EnvironmentListener`.
 */
import { Observable, type SchedulerLike } from 'rxjs';
import { toError } from '../errors.js';
import type { Store, Transition } from '../store/index.js';
import { ActionLog } from './ActionLog.js';
import { GarbageCollector, type CollectorView } from './GarbageCollector.js';
import { Environment, type EnvironmentListener } from './Environment.js';
import type { ResolvedOptions } from './options.js';
import { NO_PATHS, QueryReader } from './QueryReader.js';
import { QueryStream, type StreamHost, type StreamObserveOptions } from './QueryStream.js';
import { Requests, type RequestListener } from './Requests.js';
import { IDLE, type ControllerEndpoint, type QueryState } from './types.js';

/** The query cache's options: the controller's, each at its default when not given (`cacheOptions`). */
export type QueryCacheOptions = ResolvedOptions;

/** Focus events closer together than this (ms) count as one. */
const FOCUS_THROTTLE = 1_000;

/** The streams of one controller and the reads they share (one memo, one view of the optimistic layers). */
export class QueryCache implements StreamHost, RequestListener, CollectorView, EnvironmentListener {
  /** @internal The live streams by request key. */
  readonly streams = new Map<string, QueryStream>();
  /**
   * @internal `entity key \0 pk` -> the stream whose data read that record, or the streams when more than one
   * does (most records are read by one stream: no `Set` for them). Under an entity key alone (no `\0`), the
   * streams indexed by that whole table (a long list's rows: no path per row).
   */
  readonly byPath = new Map<string, QueryStream | Set<QueryStream>>();
  /** @internal The live store queries (`controller.observe` of a queryable): the records they show stay. */
  readonly liveQueries = new Map<object, ReadonlySet<string>>();
  readonly #keysByEndpoint = new WeakMap<object, Set<string>>();
  /** @internal The endpoint and arguments of each key seen (to trace what its result reaches; `inspectController`). */
  readonly requestOf = new Map<string, { readonly endpoint: ControllerEndpoint; readonly args: readonly unknown[] }>();
  /** The read path every read of this controller shares (streams, `getResponse`, `get`): one instance per record. */
  readonly reader: QueryReader;
  readonly #clock: () => number;
  /** Numbers transitions: a stream listed with the current one is already listed for it. */
  #transitions = 0;
  /** The optimistic layers of the last transition's state: fewer in the next one is a change undone (see `MemoCache.undoing`). */
  #layers = 0;
  /** Where polling and retry waits are scheduled (`undefined`: the global timers). */
  declare readonly scheduler: SchedulerLike | undefined;
  /** The requests of this cache's keys. */
  declare readonly requests: Requests;
  /** The network and the page, as the environment tells them. */
  declare readonly environment: Environment;
  /** Drops what nobody uses any more. */
  declare readonly gc: GarbageCollector;
  readonly #options: QueryCacheOptions;
  /** Stops listening to the store's transitions. */
  readonly #unlisten: () => void;
  #lastFocus = Number.NEGATIVE_INFINITY;

  constructor(store: Store, options: QueryCacheOptions) {
    this.#clock = options.now;
    this.scheduler = options.scheduler;
    this.#options = options;
    this.reader = new QueryReader(store);
    const log = new ActionLog(() => store.emitting);
    this.environment = new Environment(options.environment, this);
    const requests = (this.requests = new Requests(store, this.reader, this.environment, this, options, log));
    this.gc = new GarbageCollector(this, store, log, {
      gcTime: options.gcTime,
      now: options.now,
      oldestStart: (since, now) => requests.pins.oldestStart(since, now),
      buried: (newest) => requests.pins.buried(newest),
    });
    this.#unlisten = store.listen((transition) => this.#onTransition(transition));
  }

  /** Stops everything: the environment, requests, polling; every stream completes. */
  dispose(): void {
    this.environment.dispose();
    this.gc.dispose();
    this.#unlisten();
    this.requests.dispose();
    for (const stream of [...this.streams.values()]) {
      this.index(stream, stream.deps.index, NO_PATHS);
      stream.complete();
    }
    this.streams.clear();
    this.requests.log.complete();
    this.reader.memo.forget();
  }

  /** Whether polling may run now: always with `pollInBackground`, else while online and visible. */
  pollingAllowed(): boolean {
    return this.#options.pollInBackground || (this.environment.online && this.environment.visible);
  }

  /** The network came back: waiting requests have started; stale or errored streams refetch. */
  onReconnect(): void {
    if (!this.#options.refetchOnReconnect) return;
    for (const stream of [...this.streams.values()]) stream.revalidate(true);
  }

  /** Polling may run now, or must pause. */
  onPollingChange(): void {
    for (const stream of [...this.streams.values()]) stream.syncPolling();
  }

  /** The window regained focus: stale streams refetch (at most once per burst of focus events). */
  onFocus(): void {
    if (!this.#options.refetchOnFocus) return;
    const now = this.now();
    if (now - this.#lastFocus < FOCUS_THROTTLE) return;
    this.#lastFocus = now;
    for (const stream of [...this.streams.values()]) stream.revalidate(false);
  }

  /** The clock. */
  now(): number {
    return this.#clock();
  }

  /** The request key of these arguments, remembered as one of the endpoint's (for `keysOf`). */
  keyOf(endpoint: ControllerEndpoint, args: readonly unknown[]): string {
    const key = endpoint.key(...args);
    let keys = this.#keysByEndpoint.get(endpoint);
    if (!keys) this.#keysByEndpoint.set(endpoint, (keys = new Set()));
    keys.add(key);
    if (!this.requestOf.has(key)) this.requestOf.set(key, { endpoint, args });
    return key;
  }

  /** @internal The records the stored result of `key` reaches, or `undefined` when its endpoint is unknown. */
  pathsOf(key: string): ReadonlySet<string> | undefined {
    const request = this.requestOf.get(key);
    if (request === undefined) return undefined;
    if (request.endpoint.schema === undefined) return NO_PATHS;
    try {
      return this.reader.readKey(request.endpoint, request.args, key, true).deps.paths;
    } catch {
      return undefined; // unreadable: keep what it may reach
    }
  }

  /** `key` is dropped (collected, or removed by `inspectController`): forget its endpoint and arguments. */
  forget(key: string): void {
    const request = this.requestOf.get(key);
    if (request) this.#keysByEndpoint.get(request.endpoint)?.delete(key);
    this.requestOf.delete(key);
  }

  /** The records live streams read (the garbage collector keeps them). */
  *liveRecords(): Iterable<string> {
    yield* this.byPath.keys();
    // a stream indexed by a whole table (its index is not its paths): its records, computed now
    for (const stream of this.streams.values()) if (stream.deps.index !== stream.paths) yield* stream.paths;
    for (const paths of this.liveQueries.values()) yield* paths;
  }

  /** A garbage collection dropped `keys` and records: their endpoints are forgotten, and the memo lets go of the records. */
  collected(keys: readonly string[]): void {
    for (const key of keys) this.forget(key);
    this.reader.memo.forget(this.reader.entities());
  }

  /** A response or error was written for `key`: with no stream on it, it is released now. */
  onWritten(key: string): void {
    if (!this.streams.has(key)) this.gc.release(key, this.now());
    else this.gc.tick(this.now());
  }

  /** A request for `key` started, paused, resumed or ended: its stream, if any, re-reads (and deleted records may be buried). */
  onFetchingChange(key: string): void {
    this.streams.get(key)?.update();
    this.gc.tick(this.now());
  }

  /**
   * The states of one request for one subscriber (`controller.observe`): idle for `[null]` arguments, an
   * error state for arguments the endpoint makes no key of, else the shared stream of the key.
   */
  observe(
    endpoint: ControllerEndpoint,
    args: readonly unknown[],
    options: StreamObserveOptions,
  ): Observable<QueryState<unknown>> {
    if (args[0] === null) {
      return new Observable<QueryState<unknown>>((subscriber) => subscriber.next(IDLE));
    }
    return new Observable<QueryState<unknown>>((subscriber) => {
      let key: string;
      try {
        key = this.keyOf(endpoint, args);
      } catch (error) {
        // bad URL arguments: an error state (streams never error), and nothing to fetch
        subscriber.next({ ...IDLE, error: toError(error) });
        return undefined;
      }
      return this.stream(endpoint, args, key).observe(options, endpoint).subscribe(subscriber);
    });
  }

  /** Every request key this endpoint was used with. */
  keysOf(endpoint: ControllerEndpoint): Iterable<string> {
    return this.#keysByEndpoint.get(endpoint) ?? [];
  }

  /** The stream of `key`, made on first use. */
  stream(endpoint: ControllerEndpoint, args: readonly unknown[], key: string): QueryStream {
    let stream = this.streams.get(key);
    if (!stream) {
      this.streams.set(key, (stream = new QueryStream(this, endpoint, args, key)));
      this.gc.retain(key);
    }
    return stream;
  }

  /** Starts a request for the stream's key (deduplicated); failures become state. */
  refetch(stream: QueryStream): void {
    if (stream.endpoint.signal?.aborted) return; // its own signal stops it for good: no request loop
    this.requests.request(stream.endpoint, stream.args, stream.key, false).catch(noop);
  }

  /** The stream has no subscribers left: its request is abandoned and it is dropped. */
  release(stream: QueryStream): void {
    this.requests.abandon(stream.key);
    this.index(stream, stream.deps.index, NO_PATHS);
    stream.close();
    if (this.streams.get(stream.key) === stream) {
      this.streams.delete(stream.key);
      this.gc.release(stream.key, this.now());
    }
  }

  /** The stream is indexed under `paths` now instead of `previous` (see `byPath`): keeps the index up to date. */
  index(stream: QueryStream, previous: ReadonlySet<string>, paths: ReadonlySet<string>): void {
    if (previous === paths) return;
    const byPath = this.byPath;
    for (const path of previous) {
      if (paths.has(path)) continue;
      const streams = byPath.get(path);
      if (streams === stream || (streams instanceof Set && streams.delete(stream) && streams.size === 0))
        byPath.delete(path);
    }
    for (const path of paths) {
      if (previous.has(path)) continue;
      const streams = byPath.get(path);
      if (streams === undefined) byPath.set(path, stream);
      else if (streams instanceof Set) streams.add(stream);
      else if (streams !== stream) byPath.set(path, new Set([streams, stream]));
    }
  }

  /** Recomputes exactly the streams that read something the transition changed (and tells the collector what it wrote). */
  #onTransition({ state, changes }: Transition): void {
    this.gc.changed(state, changes.entities); // a deleted record or an edited list: the next sweep buries it
    const reader = this.reader;
    reader.memo.undoing = state.optimistic.length < this.#layers;
    this.#layers = state.optimistic.length;
    const before = reader.follow(state);
    if (changes.entities === 'all' || changes.endpoints === 'all') {
      for (const stream of [...this.streams.values()]) stream.update();
      return;
    }
    // each stream once. The streams of the changed keys come first: their own result or meta changed,
    // so they read everything anew; the others only read records that changed (optimistic layers
    // change records only), so they keep their key's result and meta and read just the data anew.
    const mark = ++this.#transitions;
    const affected: QueryStream[] = [];
    for (const key of changes.endpoints) {
      const stream = this.streams.get(key);
      if (stream !== undefined && stream.listFor(mark)) affected.push(stream);
    }
    const fullReads = affected.length;
    const byPath = this.byPath;
    // no stream reads any record (a store written before anything observes it): nothing to look up
    if (byPath.size > 0) for (const [key, pk] of changes.entities) addPath(byPath, key, pk, mark, affected);
    const after = reader.layers;
    if (after !== before && after !== undefined) {
      for (const [key, pk] of before?.touched ?? []) addPath(byPath, key, pk, mark, affected);
      for (const [key, pk] of after.touched) addPath(byPath, key, pk, mark, affected);
    }
    for (let i = 0; i < affected.length; i++) (affected[i] as QueryStream).changed(i >= fullReads);
  }
}

function noop(): void {}

/**
 * Adds the streams that read the record `key`/`pk` or its whole table (in `byPath`) to `affected`, each once per transition `mark`.
 * A function of its own, not a closure made per transition: a page's first writes run before the engine has
 * gathered type feedback for the code they run, and a closure made anew each time gathers none.
 */
function addPath(
  byPath: Map<string, QueryStream | Set<QueryStream>>,
  key: string,
  pk: string,
  mark: number,
  affected: QueryStream[],
): void {
  addStreams(byPath.get(`${key}\u0000${pk}`), mark, affected);
  addStreams(byPath.get(key), mark, affected);
}

/** Adds the streams of an index entry to `affected`, each once per transition `mark`. */
function addStreams(streams: QueryStream | Set<QueryStream> | undefined, mark: number, affected: QueryStream[]): void {
  if (streams instanceof Set) {
    for (const stream of streams) if (stream.listFor(mark)) affected.push(stream);
  } else if (streams?.listFor(mark)) affected.push(streams);
}

/** The streams of an index entry. */
export function asSet(streams: QueryStream | Set<QueryStream> | undefined): Iterable<QueryStream> {
  return streams instanceof Set ? streams : streams ? [streams] : [];
}
