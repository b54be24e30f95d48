import { Observable, type Observable as ObservableType } from 'rxjs';
import { MemoCache, isEntityClass, normalize, type Entity, type EntityTables } from '../schema/index.js';
import { Store, initialState, restoreState, type State, type Transition } from '../store/index.js';
import { NO_LAYER, applyLayers, expectedResponse, type EffectiveEntities } from './optimistic.js';
import { QueryStream, needsFetch, queryState, type QueryHost, type QueryRead } from './observe.js';
import type { ControllerEndpoint, EndpointArgs, EndpointData, QueryState, ResponseSnapshot, StoreSnapshot } from './types.js';

/** Options of `new Controller(...)`. */
export interface ControllerOptions {
  /** A state to start from: `controller.getState()` of another controller, or it after a JSON round trip. */
  readonly initialState?: unknown;
  /** The clock (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
}

interface InFlight {
  readonly promise: Promise<unknown>;
}

const IDLE: QueryState<never> = Object.freeze({ data: undefined, error: undefined, loading: false, fetching: false, stale: false });
const EMPTY_PATHS: ReadonlySet<string> = new Set();
const noop = () => {};

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Ties endpoints to the one normalized store: `fetch` runs an endpoint and stores its response,
 * `observe` turns the store into one `Observable<QueryState>` per request key.
 *
 * @example
 * const controller = new Controller();
 * controller.observe(TodoResource.getList, { userId: 1 }).subscribe(({ data, loading, error }) => render(data));
 * await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
 */
export class Controller {
  /** The normalized state, now and on every change. */
  readonly state$: ObservableType<State>;
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly memo = new MemoCache();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly streams = new Map<string, QueryStream>();
  private readonly byPath = new Map<string, Set<QueryStream>>();
  private readonly keysByEndpoint = new WeakMap<object, Set<string>>();
  private effective: EffectiveEntities | undefined;
  private generation = 0;
  private layerIds = 0;
  private readonly host: QueryHost;

  constructor(options: ControllerOptions = {}) {
    this.clock = options.now ?? Date.now;
    const start = options.initialState === undefined ? initialState() : restoreState(options.initialState);
    this.store = new Store(start);
    this.state$ = this.store.state$;
    this.store.transitions$.subscribe((transition) => this.onTransition(transition));
    this.host = {
      now: () => this.clock(),
      read: (stream) => this.read(stream.endpoint, stream.args, stream.key),
      isFetching: (key) => this.inFlight.has(key),
      refetch: (stream) => {
        (this.fetch as (endpoint: ControllerEndpoint, ...args: readonly unknown[]) => Promise<unknown>)(stream.endpoint, ...stream.args).catch(noop);
      },
      reindex: (stream, previous, paths) => this.reindex(stream, previous, paths),
      release: (stream) => {
        this.reindex(stream, stream.paths, EMPTY_PATHS);
        stream.paths = EMPTY_PATHS;
        if (this.streams.get(stream.key) === stream) this.streams.delete(stream.key);
      },
    };
  }

  /** The normalized state (entities, endpoints, meta, entitiesMeta, optimistic). */
  getState(): State {
    return this.store.getState();
  }

  /**
   * Performs the request, stores the normalized response and resolves the denormalized value once the
   * store holds it. Identical GET requests in flight share one request; mutations never do. A failed
   * mutation leaves the store as it was (its optimistic layer, if any, is removed).
   */
  fetch<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    const key = endpoint.key(...args);
    this.track(endpoint, key);
    if (!endpoint.sideEffect) {
      const running = this.inFlight.get(key);
      if (running) return running.promise as Promise<EndpointData<E>>;
    }
    const fetchedAt = this.clock();
    const generation = this.generation;
    let layer: number | undefined;
    let expected: unknown = NO_LAYER;
    try {
      expected = expectedResponse(endpoint, args, this.snapshot());
    } catch {
      expected = NO_LAYER;
    }
    if (expected !== NO_LAYER && endpoint.schema !== undefined) {
      layer = ++this.layerIds;
      this.store.dispatch({ type: 'optimistic', layer: { id: layer, key, schema: endpoint.schema, args, response: expected, fetchedAt } });
    }
    const run = async (): Promise<EndpointData<E>> => {
      await undefined; // the request is registered in flight before anything can settle it
      let response: unknown;
      try {
        response = await endpoint(...args);
      } catch (error) {
        this.settle(key, endpoint);
        if (generation === this.generation) {
          const date = this.clock();
          this.store.dispatch({ type: 'error', key, error: toError(error), fetchedAt, date, expiresAt: date + endpoint.errorExpiryLength, settles: layer });
        }
        throw error;
      }
      this.settle(key, endpoint);
      if (generation !== this.generation) return this.readDetached(endpoint, args, response) as EndpointData<E>;
      const date = this.clock();
      try {
        this.store.dispatch({ type: 'response', key, schema: endpoint.schema, args, response, fetchedAt, date, expiresAt: date + endpoint.dataExpiryLength, settles: layer });
      } catch (error) {
        this.store.dispatch({ type: 'error', key, error: toError(error), fetchedAt, date, expiresAt: date + endpoint.errorExpiryLength, settles: layer });
        throw error;
      }
      return this.read(endpoint, args, key).data as EndpointData<E>;
    };
    const promise = run();
    if (!endpoint.sideEffect) {
      this.inFlight.set(key, { promise });
      this.streams.get(key)?.update();
    }
    return promise;
  }

  /** Like `fetch`, but resolves from the store when the stored result is fresh and usable. */
  fetchIfStale<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    const key = endpoint.key(...args);
    const read = this.read(endpoint, args, key);
    if (!read.missing && !read.invalid && !read.invalidated && !read.error && this.clock() < read.expiresAt) {
      return Promise.resolve(read.data as EndpointData<E>);
    }
    return this.fetch(endpoint, ...args);
  }

  /**
   * The live state of one request: emits synchronously on subscribe, then whenever a field changes;
   * never errors or completes. Fetches when data is missing, stale or invalid; polls every
   * `pollFrequency` ms while subscribed. `args` of `null` gives an idle stream.
   *
   * @example
   * controller.observe(TodoResource.get, { id: 1 }).subscribe((state) => console.log(state.data?.title));
   */
  observe<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E> | [null]): ObservableType<QueryState<EndpointData<E>>> {
    return this.watch(endpoint, args, true);
  }

  /**
   * `observe` with polling on or off: the adapters' `useSuspense` reads without polling. `args` is the
   * argument list (`[null]` for idle).
   *
   * @example
   * controller.watch(TodoResource.get, [{ id: 1 }], false).subscribe(render);
   */
  watch<E extends ControllerEndpoint>(endpoint: E, args: readonly unknown[], poll: boolean): ObservableType<QueryState<EndpointData<E>>> {
    if (args[0] === null) {
      return new Observable<QueryState<EndpointData<E>>>((subscriber) => subscriber.next(IDLE));
    }
    return new Observable<QueryState<EndpointData<E>>>((subscriber) => {
      const key = endpoint.key(...(args as EndpointArgs<E>));
      this.track(endpoint, key);
      let stream = this.streams.get(key);
      if (!stream) {
        stream = new QueryStream(this.host, endpoint, args, key);
        this.streams.set(key, stream);
      }
      return stream.observe(poll).subscribe(subscriber as never);
    });
  }

  /**
   * The state `observe` would emit first, without subscribing: no request, no timer. For server
   * rendering (a per-request controller) and for reading a query once. `loading`/`fetching` say that a
   * subscriber would start a request.
   *
   * @example
   * const { data, loading } = controller.peek(TodoResource.getList, { userId: 1 });
   */
  peek<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E> | [null]): QueryState<EndpointData<E>> {
    if (args[0] === null) return IDLE;
    const key = endpoint.key(...(args as EndpointArgs<E>));
    const read = this.read(endpoint, args, key);
    const now = this.clock();
    const fetching = this.inFlight.has(key) || needsFetch(read, false, now);
    return queryState(read, fetching, now) as QueryState<EndpointData<E>>;
  }

  /** Marks the result of this request invalid: observers stop showing it and refetch. */
  invalidate<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): void {
    this.store.dispatch({ type: 'invalidate', keys: [endpoint.key(...args)], date: this.clock() });
  }

  /** Marks every stored result of this endpoint invalid. */
  invalidateAll(endpoint: ControllerEndpoint): void {
    this.store.dispatch({ type: 'invalidate', keys: [...(this.keysByEndpoint.get(endpoint) ?? [])], date: this.clock() });
  }

  /** Marks every stored result of this endpoint stale: observers refetch in the background and keep their data. */
  expireAll(endpoint: ControllerEndpoint): void {
    this.store.dispatch({ type: 'expire', keys: [...(this.keysByEndpoint.get(endpoint) ?? [])], date: this.clock() });
  }

  /** Stores `response` for this request as if it had been fetched: `setResponse(endpoint, ...args, response)`. */
  setResponse<E extends ControllerEndpoint>(endpoint: E, ...argsAndResponse: [...EndpointArgs<E>, unknown]): void {
    const args = argsAndResponse.slice(0, -1) as EndpointArgs<E>;
    const key = endpoint.key(...args);
    this.track(endpoint, key);
    const now = this.clock();
    this.store.dispatch({ type: 'response', key, schema: endpoint.schema, args, response: argsAndResponse[argsAndResponse.length - 1], fetchedAt: now, date: now, expiresAt: now + endpoint.dataExpiryLength });
  }

  /** Stores an error for this request as if the request had failed: `setError(endpoint, ...args, error)`. */
  setError<E extends ControllerEndpoint>(endpoint: E, ...argsAndError: [...EndpointArgs<E>, Error]): void {
    const args = argsAndError.slice(0, -1) as EndpointArgs<E>;
    const key = endpoint.key(...args);
    this.track(endpoint, key);
    const now = this.clock();
    this.store.dispatch({ type: 'error', key, error: argsAndError[argsAndError.length - 1] as Error, fetchedAt: now, date: now, expiresAt: now + endpoint.errorExpiryLength });
  }

  /** A synchronous snapshot of one request in the store. */
  getResponse<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): ResponseSnapshot<EndpointData<E>> {
    const read = this.read(endpoint, args, endpoint.key(...args));
    const invalid = read.invalid || read.invalidated;
    return {
      data: invalid ? undefined : (read.data as EndpointData<E>),
      expiresAt: read.expiresAt,
      stale: read.invalidated || this.clock() >= read.expiresAt,
      invalid,
    };
  }

  /** Empties the store. Requests in flight settle without writing; observers refetch. */
  resetEntireStore(): void {
    this.generation++;
    this.inFlight.clear();
    this.store.dispatch({ type: 'reset', date: this.clock() });
  }

  private track(endpoint: ControllerEndpoint, key: string): void {
    let keys = this.keysByEndpoint.get(endpoint);
    if (!keys) this.keysByEndpoint.set(endpoint, (keys = new Set()));
    keys.add(key);
  }

  private settle(key: string, endpoint: ControllerEndpoint): void {
    if (!endpoint.sideEffect) this.inFlight.delete(key);
  }

  private snapshot(): StoreSnapshot {
    const entities = this.entities();
    const now = this.clock();
    return { now, getEntity: (key, pk) => entities[key]?.[pk] };
  }

  private entities(): EntityTables {
    this.effective = applyLayers(this.store.getState(), this.effective);
    return this.effective.entities;
  }

  private read(endpoint: ControllerEndpoint, args: readonly unknown[], key: string): QueryRead {
    const state = this.store.getState();
    const meta = state.meta[key];
    let input = state.endpoints[key];
    const schema = endpoint.schema;
    if (input === undefined && isEntityClass(schema)) {
      input = this.pkFromArgs(schema, args);
    }
    const base = { error: meta?.error, missing: state.endpoints[key] === undefined, invalidated: meta?.invalidated === true, expiresAt: meta?.expiresAt ?? 0 };
    if (schema === undefined || input === undefined) return { ...base, data: input, invalid: false, paths: EMPTY_PATHS };
    const result = this.memo.denormalize(schema, input, this.entities(), args);
    return { ...base, data: result.data, invalid: result.invalid, paths: result.paths };
  }

  /** For an entity endpoint with no stored result of its own: the pk its arguments name (data from other requests). */
  private pkFromArgs(schema: typeof Entity, args: readonly unknown[]): string | undefined {
    const params = args[0];
    if (typeof params !== 'object' || params === null) return undefined;
    try {
      const pk = schema.pk({ ...params });
      return typeof pk === 'string' && pk !== '' && pk !== 'undefined' ? pk : undefined;
    } catch {
      return undefined;
    }
  }

  /** Resolves a response that arrived after a reset: read on its own, never written. */
  private readDetached(endpoint: ControllerEndpoint, args: readonly unknown[], response: unknown): unknown {
    if (endpoint.schema === undefined) return response;
    const normalized = normalize(endpoint.schema, response, args);
    return new MemoCache().denormalize(endpoint.schema, normalized.result, normalized.entities, args).data;
  }

  private reindex(stream: QueryStream, previous: ReadonlySet<string>, paths: ReadonlySet<string>): void {
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

  /** Recomputes exactly the streams that read something the transition changed. */
  private onTransition({ state, changes }: Transition): void {
    const before = this.effective;
    this.effective = applyLayers(state, before);
    let affected: Iterable<QueryStream>;
    if (changes.entities === 'all' || changes.endpoints === 'all') {
      affected = [...this.streams.values()];
    } else {
      const set = new Set<QueryStream>();
      const addPath = (key: string, pk: string) => {
        const streams = this.byPath.get(`${key}\u0000${pk}`);
        if (streams) for (const stream of streams) set.add(stream);
      };
      for (const [key, pk] of changes.entities) addPath(key, pk);
      if (this.effective !== before) {
        for (const [key, pk] of before?.touched ?? []) addPath(key, pk);
        for (const [key, pk] of this.effective.touched) addPath(key, pk);
      }
      for (const key of changes.endpoints) {
        const stream = this.streams.get(key);
        if (stream) set.add(stream);
      }
      affected = set;
    }
    for (const stream of affected) stream.update();
  }
}
