import { Observable, asyncScheduler, type Observable as ObservableType, type SchedulerLike } from 'rxjs';
import type { RetryDelay } from '../endpoint/index.js';
import { AbortError, NormalizeError, type RequestDescription } from '../errors.js';
import { MemoCache, isEntityClass, normalize, type Entity, type EntityTables } from '../schema/index.js';
import { Store, initialState, restoreState, type State, type Transition } from '../store/index.js';
import { NO_LAYER, applyLayers, expectedResponse, type EffectiveEntities } from './optimistic.js';
import { NO_PATHS, QueryStream, needsFetch, queryState, type QueryHost, type QueryRead } from './observe.js';
import { defaultRetryDelay, retryCount, withRetries } from './retry.js';
import type { ControllerEndpoint, EndpointArgs, EndpointData, QueryState, ResponseSnapshot } from './types.js';

/** Options of `new Controller(...)`. */
export interface ControllerOptions {
  /** A state to start from: `controller.getState()` of another controller, or it after a JSON round trip. */
  readonly initialState?: unknown;
  /** The clock (ms since the epoch). Default `Date.now`. */
  readonly now?: () => number;
  /**
   * How often a failed request without side effects (GET) is retried, when its endpoint does not set
   * `retry`: network errors (status 0, timeouts) and 5xx only. Default 3; `false` or 0 turns retries off.
   * Mutations retry only when their endpoint sets `retry`.
   */
  readonly retry?: number | false | undefined;
  /** The wait (ms) before retry number `attempt` (0-based), when the endpoint does not set `retryDelay`. Default `min(1000 * 2 ** attempt, 30_000)`. */
  readonly retryDelay?: RetryDelay | undefined;
  /** Where retry waits are scheduled (an RxJS scheduler; a `TestScheduler` in marble tests). Default `asyncScheduler`, which fake timers control. */
  readonly scheduler?: SchedulerLike | undefined;
}

/** A request in flight for one key (GETs only: mutations are never shared). */
interface InFlight {
  promise: Promise<unknown>;
  /** Aborts it (its retries too). */
  readonly abort: AbortController;
  /** A `fetch` caller awaits it: it runs to the end even when its last observer leaves. */
  awaited: boolean;
}

/** How much later than the previous one a request started in the same millisecond counts (exact in binary). */
const START_STEP = 1 / 1024;
const IDLE: QueryState<never> = Object.freeze({
  data: undefined,
  error: undefined,
  loading: false,
  fetching: false,
  stale: false,
});
const noop = () => {};

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The request of a key, as error messages name it. */
function describe(endpoint: ControllerEndpoint, key: string): RequestDescription {
  const url = key.startsWith(`${endpoint.method} `) ? key.slice(endpoint.method.length + 1) : key;
  return { method: endpoint.method, url, endpoint: endpoint.name };
}

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

/**
 * One attempt: `fetchWith` with the request's abort signal when the endpoint has it (it rejects at once
 * on an abort); any other endpoint is raced against the signal here.
 */
function tryOnce(endpoint: ControllerEndpoint, args: readonly unknown[], signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (typeof endpoint.fetchWith === 'function') return endpoint.fetchWith({ signal }, ...args);
  const call = endpoint(...args);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves a response that arrived after a reset: read on its own, never written. */
function readDetached(endpoint: ControllerEndpoint, args: readonly unknown[], response: unknown): unknown {
  if (endpoint.schema === undefined) return response;
  const normalized = normalize(endpoint.schema, response, args);
  return new MemoCache().denormalize(endpoint.schema, normalized.result, normalized.entities, args).data;
}

/** The latest start time of any write a restored state holds. */
function newestWrite(state: State): number {
  let newest = Number.NEGATIVE_INFINITY;
  for (const key in state.meta) newest = Math.max(newest, state.meta[key]?.fetchedAt ?? newest);
  for (const key in state.entitiesMeta) {
    const table = state.entitiesMeta[key] ?? {};
    for (const pk in table) newest = Math.max(newest, table[pk]?.fetchedAt ?? newest);
  }
  return newest;
}

/** @internal The controller's bookkeeping, for tests that check that nothing is left behind (not exported by the package). */
export let controllerInternals: (controller: Controller) => {
  readonly streams: Map<string, QueryStream>;
  readonly byPath: Map<string, Set<QueryStream>>;
  readonly inFlight: Map<string, unknown>;
  readonly store: Store;
};

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
  declare readonly state$: ObservableType<State>;
  readonly #store: Store;
  readonly #clock: () => number;
  readonly #memo = new MemoCache();
  readonly #inFlight = new Map<string, InFlight>();
  readonly #streams = new Map<string, QueryStream>();
  readonly #byPath = new Map<string, Set<QueryStream>>();
  readonly #keysByEndpoint = new WeakMap<object, Set<string>>();
  #effective: EffectiveEntities | undefined;
  #generation = 0;
  /** Numbers transitions: a stream marked with the current one is already listed for it. */
  #transitions = 0;
  #layerIds = 0;
  readonly #host: QueryHost;
  readonly #retry: number | false;
  readonly #retryDelay: RetryDelay;
  readonly #scheduler: SchedulerLike;
  /** The start time of the last request (see `startTime`). */
  #lastStart = Number.NEGATIVE_INFINITY;
  /** The latest start time of a response written so far (a response that started later wins over it). */
  #newestWrite = Number.NEGATIVE_INFINITY;
  /** Aborted by `resetEntireStore`: retries of requests started before it stop. */
  #resetSignal = new AbortController();

  static {
    controllerInternals = (controller) => ({
      streams: controller.#streams,
      byPath: controller.#byPath,
      inFlight: controller.#inFlight,
      store: controller.#store,
    });
  }

  constructor(options: ControllerOptions = {}) {
    this.#clock = options.now ?? Date.now;
    this.#retry = options.retry ?? 3;
    this.#retryDelay = options.retryDelay ?? defaultRetryDelay;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    const start = options.initialState === undefined ? initialState() : restoreState(options.initialState);
    this.#store = new Store(start);
    if (options.initialState !== undefined) this.#newestWrite = newestWrite(start);
    this.state$ = this.#store.state$;
    this.#store.transitions$.subscribe((transition) => this.#onTransition(transition));
    this.#host = {
      now: () => this.#clock(),
      read: (stream, previous) => {
        try {
          return previous !== undefined && previous.input !== undefined
            ? this.#reread(stream, previous)
            : this.#read(stream.endpoint, stream.args, stream.key, true);
        } catch (error) {
          // a stored value that cannot be read (a deserializer that throws, a graph too deep) is this
          // query's error, not an exception inside the store's subscriber; it keeps watching what it read
          return {
            input: undefined,
            data: undefined,
            invalid: false,
            paths: stream.paths,
            error: toError(error),
            missing: false,
            invalidated: false,
            expiresAt: 0,
          };
        }
      },
      isFetching: (key) => this.#inFlight.has(key),
      refetch: (stream) => {
        if (stream.endpoint.signal?.aborted) return; // its own signal stops it for good: no request loop
        this.#request(stream.endpoint, stream.args, false).catch(noop);
      },
      reindex: (stream, previous, paths) => this.#reindex(stream, previous, paths),
      release: (stream) => {
        this.#abandon(stream);
        this.#reindex(stream, stream.paths, NO_PATHS);
        stream.paths = NO_PATHS;
        if (this.#streams.get(stream.key) === stream) this.#streams.delete(stream.key);
      },
    };
  }

  /** The normalized state (entities, endpoints, meta, entitiesMeta, optimistic). */
  getState(): State {
    return this.#store.getState();
  }

  /**
   * Performs the request, stores the normalized response and resolves the denormalized value once the
   * store holds it. Identical GET requests in flight share one request (and its retries); mutations
   * never do. A GET that fails with a network error or a 5xx is retried (`retry`, `retryDelay`) before
   * it rejects and its error is stored. A failed mutation leaves the store as it was (its optimistic
   * layer, if any, is removed). An aborted request (`AbortError`) stores nothing.
   */
  fetch<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    try {
      return this.#request(endpoint, args, true) as Promise<EndpointData<E>>;
    } catch (error) {
      return Promise.reject(error); // bad URL arguments (endpoint.key threw): a rejection, as for any other failure
    }
  }

  /** `fetch`; `awaited` says whether a caller waits for the result (an observer's refetch does not). */
  #request(endpoint: ControllerEndpoint, args: readonly unknown[], awaited: boolean): Promise<unknown> {
    const key = this.#key(endpoint, args);
    if (!endpoint.sideEffect) {
      const running = this.#inFlight.get(key);
      if (running) {
        running.awaited ||= awaited;
        return running.promise;
      }
    }
    const fetchedAt = this.#startTime();
    const generation = this.#generation;
    let layer: number | undefined;
    let expected: unknown;
    try {
      const entities = this.#entities();
      expected = expectedResponse(endpoint, args, { now: this.#clock(), getEntity: (key, pk) => entities[key]?.[pk] });
    } catch {
      expected = NO_LAYER;
    }
    if (expected !== NO_LAYER && endpoint.schema !== undefined && !endpoint.signal?.aborted) {
      layer = ++this.#layerIds;
      this.#store.dispatch({
        type: 'optimistic',
        layer: { id: layer, key, schema: endpoint.schema, args, response: expected, fetchedAt },
      });
    }
    const abort = new AbortController();
    const entry = { abort, awaited } as InFlight;
    const stop = this.#resetSignal.signal;
    // the request is over: it is no longer in flight (unless a reset or an abort already replaced it)
    const settle = () => this.#inFlight.get(key) === entry && this.#inFlight.delete(key);
    const run = async (): Promise<unknown> => {
      await undefined; // the request is registered in flight before anything can settle it
      let startedAt = fetchedAt;
      let response: unknown;
      try {
        response = await withRetries(
          (attempt) => {
            if (attempt > 0) startedAt = this.#startTime(); // a retry's response is as new as the retry
            return tryOnce(endpoint, args, abort.signal);
          },
          // the endpoint's retry options, else the controller's (mutations: none)
          {
            retries: retryCount(endpoint.retry !== undefined ? endpoint.retry : endpoint.sideEffect ? 0 : this.#retry),
            retryDelay: endpoint.retryDelay ?? this.#retryDelay,
            scheduler: this.#scheduler,
          },
          abort.signal,
          stop,
        );
      } catch (error) {
        settle();
        if (error instanceof Error && error.name === 'AbortError') {
          // an aborted request stores nothing: only its optimistic layer goes, and its observers stop showing it as fetching
          if (layer !== undefined) this.#store.dispatch({ type: 'dropLayer', layer });
          this.#streams.get(key)?.update();
        } else if (generation === this.#generation) {
          this.#write(endpoint, key, args, toError(error), true, startedAt, layer);
        }
        throw error;
      }
      settle();
      if (generation !== this.#generation) return readDetached(endpoint, args, response);
      const date = this.#clock();
      // no response of a later request has been written: this one wins everywhere it writes, so what
      // the store now holds for its key is exactly its own response (the object observers show)
      const newest = startedAt >= this.#newestWrite;
      try {
        this.#write(endpoint, key, args, response, false, startedAt, layer, date);
      } catch (thrown) {
        const error = thrown instanceof NormalizeError ? thrown.inResponseTo(describe(endpoint, key)) : toError(thrown);
        this.#write(endpoint, key, args, error, true, startedAt, layer, date);
        throw error;
      }
      if (!entry.awaited) return undefined; // an observer's refetch: nobody reads the value
      // other mutations' optimistic layers are not part of this response either
      return newest && this.#store.getState().optimistic.length === 0
        ? this.#read(endpoint, args, key).data
        : this.#readOwn(endpoint, args, response, date);
    };
    entry.promise = run();
    if (!endpoint.sideEffect) {
      this.#inFlight.set(key, entry);
      this.#streams.get(key)?.update();
    }
    return entry.promise;
  }

  /**
   * The start time of a request: the clock, but always later than the previous start, so that of two
   * requests started within one millisecond the later one still wins (writes are ordered by it).
   */
  #startTime(): number {
    const now = this.#clock();
    this.#lastStart = now > this.#lastStart ? now : this.#lastStart + START_STEP;
    return this.#lastStart;
  }

  /** The last observer of a GET left: abort its request unless a `fetch` caller awaits it. */
  #abandon(stream: QueryStream): void {
    const running = this.#inFlight.get(stream.key);
    if (!running || running.awaited) return;
    this.#inFlight.delete(stream.key);
    running.abort.abort(
      new AbortError(describe(stream.endpoint, stream.key), 'its last observer unsubscribed and no fetch awaits it'),
    );
  }

  /** Like `fetch`, but resolves from the store when the stored result is fresh and usable. */
  fetchIfStale<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    let key: string;
    try {
      key = endpoint.key(...args);
    } catch (error) {
      return Promise.reject(error);
    }
    const read = this.#read(endpoint, args, key);
    if (!read.missing && !read.invalid && !read.invalidated && !read.error && this.#clock() < read.expiresAt) {
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
  observe<E extends ControllerEndpoint>(
    endpoint: E,
    ...args: EndpointArgs<E> | [null]
  ): ObservableType<QueryState<EndpointData<E>>> {
    return this.watch(endpoint, args, true);
  }

  /**
   * `observe` with polling on or off: the adapters' `useSuspense` reads without polling. `args` is the
   * argument list (`[null]` for idle).
   *
   * @example
   * controller.watch(TodoResource.get, [{ id: 1 }], false).subscribe(render);
   */
  watch<E extends ControllerEndpoint>(
    endpoint: E,
    args: readonly unknown[],
    poll: boolean,
  ): ObservableType<QueryState<EndpointData<E>>> {
    if (args[0] === null) {
      return new Observable<QueryState<EndpointData<E>>>((subscriber) => subscriber.next(IDLE));
    }
    return new Observable<QueryState<EndpointData<E>>>((subscriber) => {
      let key: string;
      try {
        key = this.#key(endpoint, args);
      } catch (error) {
        // bad URL arguments: an error state (streams never error), and nothing to fetch
        subscriber.next({ ...IDLE, error: toError(error) });
        return undefined;
      }
      let stream = this.#streams.get(key);
      if (!stream) {
        stream = new QueryStream(this.#host, endpoint, args, key);
        this.#streams.set(key, stream);
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
    const read = this.#read(endpoint, args, key);
    const now = this.#clock();
    const fetching = this.#inFlight.has(key) || needsFetch(read, false, now, this.#streams.get(key)?.active !== true);
    return queryState(read, fetching, now) as QueryState<EndpointData<E>>;
  }

  /** Marks the result of this request invalid: observers stop showing it and refetch. */
  invalidate<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): void {
    this.#mark('invalidate', [endpoint.key(...args)]);
  }

  /** Marks every stored result of this endpoint invalid. */
  invalidateAll(endpoint: ControllerEndpoint): void {
    this.#mark('invalidate', this.#keysByEndpoint.get(endpoint));
  }

  /** Marks every stored result of this endpoint stale: observers refetch in the background and keep their data. */
  expireAll(endpoint: ControllerEndpoint): void {
    this.#mark('expire', this.#keysByEndpoint.get(endpoint));
  }

  #mark(type: 'invalidate' | 'expire', keys: Iterable<string> = []): void {
    this.#store.dispatch({ type, keys: [...keys], date: this.#clock() });
  }

  /** Stores `response` for this request as if it had been fetched: `setResponse(endpoint, ...args, response)`. */
  setResponse<E extends ControllerEndpoint>(endpoint: E, ...argsAndResponse: [...EndpointArgs<E>, unknown]): void {
    this.#set(endpoint, argsAndResponse, false);
  }

  /** Stores an error for this request as if the request had failed: `setError(endpoint, ...args, error)`. */
  setError<E extends ControllerEndpoint>(endpoint: E, ...argsAndError: [...EndpointArgs<E>, Error]): void {
    this.#set(endpoint, argsAndError, true);
  }

  /** `setResponse` / `setError`: the last argument is the value. */
  #set(endpoint: ControllerEndpoint, argsAndValue: readonly unknown[], isError: boolean): void {
    const args = argsAndValue.slice(0, -1);
    this.#write(endpoint, this.#key(endpoint, args), args, argsAndValue[args.length], isError);
  }

  /**
   * Stores a response (normalized; throws what normalize throws) or an error for `key`, arrived at
   * `date` (default: now) for a request started at `fetchedAt` (default: `date`), settling `layer`.
   */
  #write(
    endpoint: ControllerEndpoint,
    key: string,
    args: readonly unknown[],
    value: unknown,
    isError: boolean,
    fetchedAt?: number,
    settles?: number,
    date = this.#clock(),
  ): void {
    fetchedAt ??= date;
    if (!isError && fetchedAt > this.#newestWrite) this.#newestWrite = fetchedAt;
    this.#store.dispatch(
      isError
        ? {
            type: 'error',
            key,
            error: value as Error,
            fetchedAt,
            date,
            expiresAt: date + endpoint.errorExpiryLength,
            settles,
          }
        : {
            type: 'response',
            key,
            schema: endpoint.schema,
            args,
            response: value,
            fetchedAt,
            date,
            expiresAt: date + endpoint.dataExpiryLength,
            settles,
          },
    );
  }

  /** A synchronous snapshot of one request in the store. */
  getResponse<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): ResponseSnapshot<EndpointData<E>> {
    const read = this.#read(endpoint, args, endpoint.key(...args));
    const invalid = read.invalid || read.invalidated;
    return {
      data: invalid ? undefined : (read.data as EndpointData<E>),
      expiresAt: read.expiresAt,
      stale: read.invalidated || this.#clock() >= read.expiresAt,
      invalid,
    };
  }

  /** Empties the store. Requests in flight settle without writing and stop retrying; observers refetch. */
  resetEntireStore(): void {
    this.#generation++;
    this.#inFlight.clear();
    this.#resetSignal.abort();
    this.#resetSignal = new AbortController();
    this.#store.dispatch({ type: 'reset', date: this.#clock() });
  }

  /** The request key of these arguments, remembered as one of the endpoint's (for `invalidateAll`, `expireAll`). */
  #key(endpoint: ControllerEndpoint, args: readonly unknown[]): string {
    const key = endpoint.key(...args);
    let keys = this.#keysByEndpoint.get(endpoint);
    if (!keys) this.#keysByEndpoint.set(endpoint, (keys = new Set()));
    keys.add(key);
    return key;
  }

  #entities(): EntityTables {
    this.#effective = applyLayers(this.#store.getState(), this.#effective);
    return this.#effective.entities;
  }

  /** Reads a key from the current state; `tracked`: a stream's read, that needs the records it read (`paths`). */
  #read(endpoint: ControllerEndpoint, args: readonly unknown[], key: string, tracked = false): QueryRead {
    const state = this.#store.getState();
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
      const result = this.#memo.denormalize(schema, input, this.#entities(), args);
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
      missing: stored === undefined,
      invalidated: meta?.invalidated === true,
      expiresAt: meta?.expiresAt ?? 0,
    };
  }

  /**
   * The value of one response as its own request sees it, when a later request has written since it
   * started: its own records over the store's (merged as a newer write would be), the records it only
   * refers to as the store holds them. Read with a memo of its own, so the observers' reads stay as they are.
   */
  #readOwn(endpoint: ControllerEndpoint, args: readonly unknown[], response: unknown, date: number): unknown {
    const schema = endpoint.schema;
    if (schema === undefined) return response;
    const state = this.#store.getState();
    const own = normalize(schema, response, args, state, { fetchedAt: Number.MAX_VALUE, date, expiresAt: date });
    return new MemoCache().denormalize(schema, own.result, own.entities, args).data;
  }

  /**
   * `#read` after a change to entity records only: the key's result and meta are those of `previous`
   * (not looked up again), the data is read anew.
   */
  #reread(stream: QueryStream, previous: QueryRead): QueryRead {
    const schema = stream.endpoint.schema;
    if (schema === undefined) return previous;
    const result = this.#memo.denormalize(schema, previous.input, this.#entities(), stream.args);
    return {
      input: previous.input,
      data: result.data,
      invalid: result.invalid,
      paths: result.paths,
      error: previous.error,
      missing: previous.missing,
      invalidated: previous.invalidated,
      expiresAt: previous.expiresAt,
    };
  }

  #reindex(stream: QueryStream, previous: ReadonlySet<string>, paths: ReadonlySet<string>): void {
    if (previous === paths) return;
    for (const path of previous) {
      if (paths.has(path)) continue;
      const set = this.#byPath.get(path);
      if (set && set.delete(stream) && set.size === 0) this.#byPath.delete(path);
    }
    for (const path of paths) {
      if (previous.has(path)) continue;
      let set = this.#byPath.get(path);
      if (!set) this.#byPath.set(path, (set = new Set()));
      set.add(stream);
    }
  }

  /** Recomputes exactly the streams that read something the transition changed. */
  #onTransition({ state, changes }: Transition): void {
    const before = this.#effective;
    this.#effective = applyLayers(state, before);
    if (changes.entities === 'all' || changes.endpoints === 'all') {
      for (const stream of [...this.#streams.values()]) stream.update();
      return;
    }
    // each stream once, marked with this transition's number (cheaper than a Set). The streams of the
    // changed keys come first: their own result or meta changed, so they read everything anew; the
    // others only read records that changed (optimistic layers change records only), so they keep their
    // key's result and meta and read just the data anew.
    const mark = ++this.#transitions;
    const affected: QueryStream[] = [];
    const add = (stream: QueryStream | undefined) => {
      if (stream !== undefined && stream.mark !== mark) {
        stream.mark = mark;
        affected.push(stream);
      }
    };
    for (const key of changes.endpoints) add(this.#streams.get(key));
    const fullReads = affected.length;
    const addPath = (key: string, pk: string) => {
      const streams = this.#byPath.get(`${key}\u0000${pk}`);
      if (streams) for (const stream of streams) add(stream);
    };
    for (const [key, pk] of changes.entities) addPath(key, pk);
    if (this.#effective !== before) {
      for (const [key, pk] of before?.touched ?? []) addPath(key, pk);
      for (const [key, pk] of this.#effective.touched) addPath(key, pk);
    }
    for (let i = 0; i < affected.length; i++) (affected[i] as QueryStream).update(false, i >= fullReads);
  }
}
