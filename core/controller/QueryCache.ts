/**
 * The query streams by request key, the index from entity records to the streams that read them, and
 * the transitions: on every store change, exactly the streams that read something it changed recompute.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import { MemoCache, isEntityClass, type Entity, type EntityTables } from '../schema/index.js';
import type { Store, Transition } from '../store/index.js';
import { ActionLog } from './ActionLog.js';
import { GarbageCollector } from './GarbageCollector.js';
import { Environment, type ControllerEnvironment, type EnvironmentListener } from './Environment.js';
import { applyLayers, type EffectiveEntities } from './optimistic.js';
import { NO_PATHS, QueryStream, type QueryRead, type UpdateOptions } from './QueryStream.js';
import { Requests, toError, type RequestPolicy } from './Requests.js';
import type { ControllerEndpoint } from './types.js';

const ENTITIES_ONLY: UpdateOptions = { entitiesOnly: true };

/** For an entity endpoint with no stored result of its own: the pk its arguments name (data from other requests). */
function pkFromArgs(schema: typeof Entity, args: readonly unknown[]): string | undefined {
  const params = args[0];
  if (typeof params !== 'object' || params === null) return undefined;
  try {
    const pk = schema.pk({ ...params });
    return typeof pk === 'string' && pk !== '' && pk !== 'undefined' ? pk : undefined;
  } catch {
    return undefined;
  }
}

/** What a query cache needs besides its store. */
export interface QueryCacheOptions extends RequestPolicy {
  /** The clock (ms since the epoch). */
  readonly now: () => number;
  /** Where polling and retry waits are scheduled (`undefined`: the global timers). */
  readonly scheduler: SchedulerLike | undefined;
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

/** Focus events closer together than this (ms) count as one. */
const FOCUS_THROTTLE = 1_000;

/** The streams of one controller and the reads they share (one memo, one view of the optimistic layers). */
export class QueryCache implements EnvironmentListener {
  /** @internal The live streams by request key. */
  readonly streams = new Map<string, QueryStream>();
  /** @internal `entity key \0 pk` -> the streams whose data read that record. */
  readonly byPath = new Map<string, Set<QueryStream>>();
  readonly #keysByEndpoint = new WeakMap<object, Set<string>>();
  /** The endpoint and arguments of each key seen (to trace what its result reaches). */
  readonly #requestOf = new Map<string, { readonly endpoint: ControllerEndpoint; readonly args: readonly unknown[] }>();
  /** @internal The memo every read of this controller shares (streams, `getResponse`, `get`): one instance per record. */
  readonly memo = new MemoCache();
  readonly #store: Store;
  readonly #clock: () => number;
  #effective: EffectiveEntities | undefined;
  /** Numbers transitions: a stream listed with the current one is already listed for it. */
  #transitions = 0;
  /** Where polling and retry waits are scheduled (`undefined`: the global timers). */
  declare readonly scheduler: SchedulerLike | undefined;
  /** The requests of this cache's keys. */
  declare readonly requests: Requests;
  /** The network and the page, as the environment tells them. */
  declare readonly environment: Environment;
  /** Drops what nobody uses any more. */
  declare readonly gc: GarbageCollector;
  readonly #options: QueryCacheOptions;
  readonly #transitions$: Subscription;
  #lastFocus = Number.NEGATIVE_INFINITY;

  constructor(store: Store, options: QueryCacheOptions) {
    this.#store = store;
    this.#clock = options.now;
    this.scheduler = options.scheduler;
    this.#options = options;
    const log = new ActionLog();
    this.requests = new Requests(store, this, options, log);
    this.gc = new GarbageCollector(this, store, log, options.gcTime);
    this.#transitions$ = store.transitions$.subscribe((transition) => this.#onTransition(transition));
    this.environment = new Environment(options.environment, this);
  }

  /** Stops everything: the environment, requests, polling; every stream completes. */
  dispose(): void {
    this.environment.dispose();
    this.gc.dispose();
    this.#transitions$.unsubscribe();
    this.requests.dispose();
    for (const stream of [...this.streams.values()]) {
      this.index(stream, stream.paths, NO_PATHS);
      stream.complete();
    }
    this.streams.clear();
    this.requests.log.complete();
    this.memo.forget();
  }

  /** Whether a request for this key waits for the network. */
  isPaused(key: string): boolean {
    return this.requests.isPaused(key);
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
    if (!this.#requestOf.has(key)) this.#requestOf.set(key, { endpoint, args });
    return key;
  }

  /** @internal The endpoint and arguments `key` was last made from, if this cache saw it (`inspectController`). */
  requestOf(key: string): { readonly endpoint: ControllerEndpoint; readonly args: readonly unknown[] } | undefined {
    return this.#requestOf.get(key);
  }

  /** @internal The records the stored result of `key` reaches, or `undefined` when its endpoint is unknown. */
  pathsOf(key: string): ReadonlySet<string> | undefined {
    const request = this.#requestOf.get(key);
    if (request === undefined) return undefined;
    if (request.endpoint.schema === undefined) return NO_PATHS;
    try {
      return this.readKey(request.endpoint, request.args, key, true).paths;
    } catch {
      return undefined; // unreadable: keep what it may reach
    }
  }

  /** `key` was collected: forget it. */
  forget(key: string): void {
    const request = this.#requestOf.get(key);
    if (request) this.#keysByEndpoint.get(request.endpoint)?.delete(key);
    this.#requestOf.delete(key);
  }

  /** A response or error was written for `key`: with no stream on it, it is released now. */
  written(key: string): void {
    if (!this.streams.has(key)) this.gc.release(key, this.now());
  }

  /** Every request key this endpoint was used with. */
  keysOf(endpoint: ControllerEndpoint): Iterable<string> {
    return this.#keysByEndpoint.get(endpoint) ?? [];
  }

  /**
   * Marks the results of `keys` invalid (observers stop showing them and refetch) or stale (observers
   * refetch in the background and keep their data). `args`: the arguments of the one request marked.
   */
  mark(
    type: 'invalidate' | 'expire',
    keys: Iterable<string>,
    endpoint: ControllerEndpoint,
    args?: readonly unknown[],
  ): void {
    const list = [...keys];
    const { changes } = this.#store.dispatch({ type, keys: list, date: this.now(), stamp: this.requests.stamp() });
    const log = this.requests.log;
    if (log.observed) log.emit({ type, key: args ? list[0] : undefined, keys: list, endpoint, args, changes });
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

  /** The live stream of `key`, if any. */
  streamOf(key: string): QueryStream | undefined {
    return this.streams.get(key);
  }

  /** Whether a request for this key is in flight. */
  isFetching(key: string): boolean {
    return this.requests.isFetching(key);
  }

  /** Starts a request for the stream's key (deduplicated); failures become state. */
  refetch(stream: QueryStream): void {
    if (stream.endpoint.signal?.aborted) return; // its own signal stops it for good: no request loop
    this.requests.request(stream.endpoint, stream.args, stream.key, false).catch(noop);
  }

  /** The stream has no subscribers left: its request is abandoned and it is dropped. */
  release(stream: QueryStream): void {
    this.requests.abandon(stream);
    this.index(stream, stream.paths, NO_PATHS);
    stream.close();
    if (this.streams.get(stream.key) === stream) {
      this.streams.delete(stream.key);
      this.gc.release(stream.key, this.now());
    }
  }

  /** The stream read `paths` now instead of `previous`: keeps the path index up to date. */
  index(stream: QueryStream, previous: ReadonlySet<string>, paths: ReadonlySet<string>): void {
    if (previous === paths) return;
    for (const path of previous) {
      if (paths.has(path)) continue;
      const set = this.byPath.get(path);
      if (set && set.delete(stream) && set.size === 0) this.byPath.delete(path);
    }
    for (const path of paths) {
      if (previous.has(path)) continue;
      let set = this.byPath.get(path);
      if (!set) this.byPath.set(path, (set = new Set()));
      set.add(stream);
    }
  }

  /** The entity tables reads see: the store's with every optimistic layer applied. */
  entities(): EntityTables {
    this.#effective = applyLayers(this.#store.current, this.#effective);
    return this.#effective.entities;
  }

  /**
   * A stream's read of its key. `previous`: its last read, when since then only entity records changed
   * (the key's result and meta are the same). A stored value that cannot be read (a deserializer that
   * throws, a graph too deep) is the query's error, and it keeps watching what it read.
   */
  read(stream: QueryStream, previous: QueryRead | undefined): QueryRead {
    try {
      return previous !== undefined && previous.input !== undefined
        ? this.#reread(stream, previous)
        : this.readKey(stream.endpoint, stream.args, stream.key, true);
    } catch (error) {
      return {
        input: undefined,
        data: undefined,
        invalid: false,
        paths: stream.paths,
        error: toError(error),
        unreadable: true,
        missing: false,
        invalidated: false,
        expiresAt: 0,
        fetchedAt: Number.NEGATIVE_INFINITY,
      };
    }
  }

  /** When the key's current result or error was written (`undefined`: never). */
  dateOf(key: string): number | undefined {
    return this.#store.current.meta[key]?.date;
  }

  /** Reads a key from the current state; `tracked`: a stream's read, that needs the records it read (`paths`). */
  readKey(endpoint: ControllerEndpoint, args: readonly unknown[], key: string, tracked = false): QueryRead {
    const state = this.#store.current;
    const meta = state.meta[key];
    const stored = state.endpoints[key];
    const schema = endpoint.schema;
    let input = stored;
    if (input === undefined && isEntityClass(schema)) {
      input = pkFromArgs(schema, args);
    }
    // one object literal, always of one shape (the read is on every affected stream's path)
    let data = input;
    let invalid = false;
    let paths = NO_PATHS;
    if (schema !== undefined && input !== undefined) {
      const result = this.memo.denormalize(schema, input, this.entities(), args);
      data = result.data;
      invalid = result.invalid;
      if (tracked) paths = result.paths; // computed on first use: a one-off read (getResponse, peek) never pays for it
    }
    return {
      input,
      data,
      invalid,
      paths,
      error: meta?.error,
      unreadable: false,
      missing: stored === undefined,
      invalidated: meta?.invalidated === true,
      expiresAt: meta?.expiresAt ?? 0,
      fetchedAt: meta?.fetchedAt ?? Number.NEGATIVE_INFINITY,
    };
  }

  /** `readKey` after a change to entity records only: the result and meta of `previous`, the data read anew. */
  #reread(stream: QueryStream, previous: QueryRead): QueryRead {
    const schema = stream.endpoint.schema;
    if (schema === undefined) return previous;
    const result = this.memo.denormalize(schema, previous.input, this.entities(), stream.args);
    return {
      input: previous.input,
      data: result.data,
      invalid: result.invalid,
      paths: result.paths,
      error: previous.error,
      unreadable: previous.unreadable,
      missing: previous.missing,
      invalidated: previous.invalidated,
      expiresAt: previous.expiresAt,
      fetchedAt: previous.fetchedAt,
    };
  }

  /** Recomputes exactly the streams that read something the transition changed. */
  #onTransition({ state, changes }: Transition): void {
    const before = this.#effective;
    this.#effective = applyLayers(state, before);
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
    const addPath = (key: string, pk: string) => {
      const streams = byPath.get(`${key}\u0000${pk}`);
      if (streams) for (const stream of streams) if (stream.listFor(mark)) affected.push(stream);
    };
    // no stream reads any record (a store written before anything observes it): nothing to look up
    if (byPath.size > 0) for (const [key, pk] of changes.entities) addPath(key, pk);
    if (this.#effective !== before) {
      for (const [key, pk] of before?.touched ?? []) addPath(key, pk);
      for (const [key, pk] of this.#effective.touched) addPath(key, pk);
    }
    for (let i = 0; i < affected.length; i++)
      (affected[i] as QueryStream).update(i >= fullReads ? ENTITIES_ONLY : undefined);
  }
}

function noop(): void {}
