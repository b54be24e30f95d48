import { Subscription, type Observable as ObservableType } from 'rxjs';
import { connectSource } from './connect.js';
import { isQueryable, storeGet, storeObserve } from './StoreQueries.js';
import type { ArraySchema, Denormalize } from '../schema/index.js';
import { checkRows } from './setRows.js';
import { Store, restoreState, warnJsonLosses, type State } from '../store/index.js';
import { cacheOptions, type ControllerOptions, type ResolvedOptions } from './options.js';
import { QueryCache } from './QueryCache.js';
import { isFresh, responseSnapshot } from './QueryStream.js';
import type { Requests } from './Requests.js';
import {
  assertReadEndpoint,
  type ControllerAction,
  type ControllerEndpoint,
  type EntityList,
  type EndpointArgs,
  type EndpointData,
  type EndpointResponse,
  type ObserveOptions,
  type QueryState,
  type Queryable,
  type ReadEndpoint,
  type ResponseSnapshot,
  type SetRows,
} from './types.js';
import { disposedError, markDisposed } from './disposal.js';
import { checkVerbTarget } from './verbTarget.js';

/**
 * @internal The controller's query cache and store and whether it was disposed, for the core's own
 * functions beside the class (`takeSnapshot`, `observeInfinite`) and for tests (not exported by the package).
 */
export let controllerInternals: (controller: Controller) => {
  readonly cache: QueryCache;
  readonly store: Store;
  readonly disposed: boolean;
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
  /** Every change after the store committed it, as a typed action (`type`, `key`, `endpoint`, `args`). */
  declare readonly actions$: ObservableType<ControllerAction>;
  readonly #store: Store;
  readonly #cache: QueryCache;
  readonly #requests: Requests;
  /** What `dispose()` ends besides the query cache: the managers' teardowns and the live connections. */
  readonly #teardowns = new Subscription();
  /** The options with their defaults (`connect` reconnects after the retry delays). */
  readonly #settings: ResolvedOptions;
  #disposed = false;

  static {
    controllerInternals = (controller) => ({
      cache: controller.#cache,
      store: controller.#store,
      disposed: controller.#disposed,
    });
  }

  constructor(options: ControllerOptions = {}) {
    const settings = cacheOptions(options);
    this.#store = new Store(
      restoreState(
        options.initialState,
        settings.now(),
        process.env.NODE_ENV !== 'production' ? 'new Controller({ initialState })' : 'initialState',
      ),
    );
    this.state$ = this.#store.state$;
    this.#cache = new QueryCache(this.#store, settings);
    this.#requests = this.#cache.requests;
    this.#settings = settings;
    this.actions$ = this.#requests.log.actions$;
    for (const manager of options.managers ?? []) {
      const teardown = manager(this);
      if (typeof teardown === 'function') this.#teardowns.add(teardown);
    }
  }

  /**
   * Stops the controller: polling, retries, timers and managers stop, requests in flight are aborted
   * (nothing they answer is written), and every stream `observe` returned completes. Later calls of
   * its verbs throw (`fetch` rejects). The state stays readable (`getState()`).
   *
   * @example
   * onDestroy(() => controller.dispose());
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    markDisposed(this);
    this.#cache.dispose();
    try {
      this.#teardowns.unsubscribe(); // each teardown, in the order kept; one that throws does not stop the others
    } catch (error) {
      // rxjs gathers what they threw: one error is thrown as it is, several as an AggregateError
      const errors = (error as { errors: unknown[] }).errors;
      throw errors.length === 1
        ? errors[0]
        : new AggregateError(
            errors,
            process.env.NODE_ENV !== 'production' ? `${errors.length} teardowns of the controller threw` : 'teardowns',
          );
    }
  }

  /**
   * Applies a real-time source to the store: calls `apply(message, controller)` for each message of
   * `source$` (typically `controller.set(...)`, `setResponse(...)` or `invalidate(...)`) until the returned
   * subscription ends or the controller is disposed. A message `apply` throws on is skipped and reported
   * as a `pushError` action (`actions$`), never ending the connection; an error of `source$`
   * resubscribes after the controller's retry delays.
   *
   * @example
   * const todos$ = new Observable((s) => { const es = new EventSource('/events'); es.onmessage = (e) => s.next(JSON.parse(e.data)); es.onerror = () => s.error(new Error('lost')); return () => es.close(); });
   * controller.connect(todos$, (todo, c) => c.set(Todo, todo));
   */
  connect<T>(source$: ObservableType<T>, apply: (message: T, controller: Controller) => void): Subscription {
    this.#alive('connect');
    const connection = connectSource(source$, (message) => apply(message, this), this.#settings, this.#requests.log);
    this.#teardowns.add(connection); // it leaves the list when it ends first
    return connection;
  }

  /**
   * Runs a garbage collection now: the results and meta of keys whose `gcTime` has passed since their
   * last subscriber left go, then every entity that no kept result, live stream or optimistic layer
   * reaches. Data a live stream reads is never collected, except records marked INVALID (deleted) once no
   * request that started before the deletion runs: they read the same as missing ones, and their pks
   * leave the collections' lists.
   */
  gc(): void {
    this.#alive('gc');
    this.#cache.gc.collect();
  }

  /** Throws when the controller was disposed. */
  #alive(verb: string): void {
    if (this.#disposed) throw disposedError(`controller.${verb}`);
  }

  /**
   * The normalized state (entities, endpoints, meta, entitiesMeta, optimistic). It holds what was written: JSON
   * values survive `JSON.stringify` and `new Controller({ initialState })` restores them; a value JSON cannot write
   * (a `bigint`, which `JSON.stringify` throws on; a function, which it leaves out) is kept and read as written;
   * in development, `JSON.stringify` of a state holding a bigint throws a `SnapshotError` naming its entity, pk
   * and field (`entities.Todo.2.amount`), as the add-ons that write the state as JSON do.
   */
  getState(): State {
    return this.#store.getState();
  }

  /**
   * Performs the request, stores the normalized response and resolves its own response, denormalized,
   * once the store holds it (the records it holds as it answered them, the records it refers to as
   * stored). Identical GET requests in flight share one request (and its retries) and one result;
   * mutations never do. A GET that fails with a network error or a 5xx is retried (`retry`,
   * `retryDelay`) before it rejects and its error is stored. A failed mutation leaves the store as it
   * was (its optimistic layer, if any, is removed). An aborted request (`AbortError`) stores nothing.
   *
   * @example
   * const todo = await controller.fetch(TodoResource.getList.push, {}, { title: 'Write docs' });
   */
  fetch<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    try {
      this.#alive('fetch');
      if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.fetch', endpoint);
      const key = this.#cache.keyOf(endpoint, args);
      return this.#requests.request(endpoint, args, key, true) as Promise<EndpointData<E>>;
    } catch (error) {
      return Promise.reject(error); // bad URL arguments (endpoint.key threw): a rejection, as for any other failure
    }
  }

  /** Like `fetch`, but resolves from the store when the stored result is fresh and usable. */
  fetchIfStale<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
    let key: string;
    try {
      this.#alive('fetchIfStale');
      if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.fetchIfStale', endpoint);
      key = endpoint.key(...args);
    } catch (error) {
      return Promise.reject(error);
    }
    const read = this.#cache.reader.readKey(endpoint, args, key);
    if (isFresh(read, this.#cache.now())) return Promise.resolve(read.data as EndpointData<E>);
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
  observe<E extends ReadEndpoint>(
    endpoint: E,
    ...args: EndpointArgs<E> | [null]
  ): ObservableType<QueryState<EndpointData<E>>>;
  /**
   * The live answer of the store to a queryable (an Entity by pk or index, `schema.All`, `schema.Query`,
   * ...): emits on subscribe and whenever the answer changes; never fetches (`loading` is false).
   *
   * @example
   * controller.observe(new schema.Query(new schema.All(Todo), (todos) => todos.length)).subscribe(render);
   */
  observe<S extends Queryable>(queryable: S, ...args: readonly unknown[]): ObservableType<QueryState<Denormalize<S>>>;
  observe(target: ReadEndpoint | Queryable, ...args: readonly unknown[]): ObservableType<QueryState<unknown>> {
    this.#alive('observe');
    if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.observe', target, 'either');
    if (isQueryable(target))
      return storeObserve(this.#store, this.#cache.reader, target, args, this.#cache.liveQueries);
    assertReadEndpoint(target, 'controller.observe');
    return this.#cache.observe(target, args, POLL);
  }

  /**
   * What the store holds for a queryable, without a request: an Entity by pk (`get(Todo, { id: 1 })`,
   * `get(Todo, '1')`) or by one of its `indexes`, `schema.All`, `schema.Query`, a Collection stored under
   * arguments. `undefined` when the store cannot answer (missing, or INVALID).
   *
   * @example
   * const ann = controller.get(User, { username: 'ann' });
   */
  get<S extends Queryable>(queryable: S, ...args: readonly unknown[]): Denormalize<S> | undefined {
    this.#alive('get');
    if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.get', queryable, 'queryable');
    return storeGet(this.#cache.reader, queryable, args);
  }

  /**
   * Writes many records of one entity without a request, in one store write: `set([Todo], rows)` (or
   * `new schema.Array(Todo)`, or a list of a `schema.Union`). Each row holds its pk; a partial row
   * merges into the stored record, as `set(Todo, row)` does. `state$` and `actions$` emit once (one
   * `'set'` action), and every observer that reads any of the rows re-emits once. All or nothing: a
   * value that is not an array, a row that is not an object, lacks its pk or fails the entity's
   * validator throws (`NormalizeError`, `ValidationError`) and nothing is written; a list of anything
   * but entities throws a `SchemaDefinitionError`.
   *
   * @example
   * controller.set([Todo], [{ id: 1, completed: true }, { id: 2, completed: true }]);
   */
  set<S extends EntityList>(list: S, rows: SetRows<S>): void;
  /**
   * Writes an entity without a request, as if a response held it now: `set(Todo, { id: 1 }, value)`.
   * The value holds the pk; a partial value merges into the stored record. Every observer that reads it
   * re-emits. A value that is not a record or lacks its pk throws a `NormalizeError`, a schema that is not
   * one a `SchemaDefinitionError`, and the store is unchanged.
   *
   * @example
   * controller.set(Todo, { id: 1 }, { id: 1, completed: true });
   */
  set<S extends Queryable>(
    schema: S,
    ...argsAndValue: S extends ArraySchema<any, any>
      ? [rows: SetRows<S>]
      : readonly [...args: readonly unknown[], value: unknown]
  ): void;
  set(schema: Queryable | EntityList, ...argsAndValue: readonly unknown[]): void {
    this.#alive('set');
    const args = argsAndValue.slice(0, -1);
    const value = argsAndValue[args.length];
    checkRows(schema, value);
    const now = this.#cache.now();
    const stamp = this.#requests.stamps.next();
    // normalized with `schema` as if a response held it at `stamp` (partial values merge); throws what normalize
    // throws (a value without a pk, say), and the store is then unchanged
    const { state, changes } = this.#store.dispatch({
      type: 'setEntity',
      schema,
      args,
      value,
      date: stamp,
      expiresAt: now + 60_000,
      since: this.#requests.mutationsSince(schema),
    });
    this.#requests.stamps.wrote(stamp);
    // the app's own values: in development, say where one would not survive JSON (snapshots, persist, syncTabs)
    if (process.env.NODE_ENV !== 'production') warnJsonLosses(state, changes, 'controller.set');
    const log = this.#requests.log;
    if (log.observed && (changes.entities.length > 0 || changes.endpoints.length > 0))
      log.emit({ type: 'set', args, changes });
  }

  /** Marks the result of this request invalid: observers stop showing it and refetch. */
  invalidate<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): void {
    this.#alive('invalidate');
    if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.invalidate', endpoint);
    this.#requests.mark('invalidate', [endpoint.key(...args)], endpoint, args);
  }

  /**
   * Marks every stored result of this endpoint invalid: those this controller requested, and those restored (a server
   * render, persist, another tab) whose key the endpoint's `testKey` matches.
   */
  invalidateAll(endpoint: ControllerEndpoint): void {
    this.#markAll('invalidate', endpoint);
  }

  /** Marks every stored result of this endpoint stale: observers refetch in the background and keep their data. */
  expireAll(endpoint: ControllerEndpoint): void {
    this.#markAll('expire', endpoint);
  }

  /**
   * `invalidateAll` and `expireAll`. What is no endpoint throws in production too: it has no stored keys, so the
   * call would otherwise do nothing without a word.
   */
  #markAll(mark: 'invalidate' | 'expire', endpoint: ControllerEndpoint): void {
    const verb = `${mark}All`;
    this.#alive(verb);
    if (process.env.NODE_ENV !== 'production') checkVerbTarget(`controller.${verb}`, endpoint);
    else if (typeof endpoint?.key != 'function') throw new TypeError(`${verb}(endpoint)`);
    // the keys requested here, and those stored without a request of this controller (restored) that are its own
    const keys = new Set(this.#cache.keysOf(endpoint));
    for (const key in this.#store.getState().endpoints)
      if ((endpoint as { testKey?(key: string): boolean }).testKey?.(key)) keys.add(key);
    this.#requests.mark(mark, keys, endpoint);
  }

  /**
   * Stores `response` (the endpoint's raw JSON) for this request as if it had been fetched. Its type is
   * the JSON the server sends (`EndpointResponse`: with a schema every record partial, since it merges);
   * it is checked again when it is normalized: a server push or a restored value (cast from `unknown`) may
   * lack fields (they read as the class defaults) or hold values a deserializer rejects (the query's error).
   *
   * @example
   * controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'from the server push' });
   */
  setResponse<E extends ControllerEndpoint>(
    endpoint: E,
    ...argsAndResponse: [...EndpointArgs<E>, EndpointResponse<E>]
  ): void {
    this.#alive('setResponse');
    if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.setResponse', endpoint);
    this.#set(endpoint, argsAndResponse, false);
  }

  /** Stores an error for this request as if the request had failed: `setError(endpoint, ...args, error)`. */
  setError<E extends ControllerEndpoint>(endpoint: E, ...argsAndError: [...EndpointArgs<E>, Error]): void {
    this.#alive('setError');
    // production builds fail on such values too (a TypeError, nothing written), without the prose
    if (process.env.NODE_ENV !== 'production') {
      checkVerbTarget('controller.setError', endpoint);
      checkError(argsAndError[argsAndError.length - 1]);
    }
    this.#set(endpoint, argsAndError, true);
  }

  /** `setResponse` / `setError`: the last argument is the value. */
  #set(endpoint: ControllerEndpoint, argsAndValue: readonly unknown[], isError: boolean): void {
    const args = argsAndValue.slice(0, -1);
    const { state, changes } = this.#requests.write(
      endpoint,
      this.#cache.keyOf(endpoint, args),
      args,
      argsAndValue[args.length],
      {
        isError,
      },
    );
    if (process.env.NODE_ENV !== 'production' && !isError) warnJsonLosses(state, changes, 'controller.setResponse');
  }

  /** A synchronous snapshot of one request in the store. */
  getResponse<E extends ControllerEndpoint>(endpoint: E, ...args: EndpointArgs<E>): ResponseSnapshot<EndpointData<E>> {
    this.#alive('getResponse');
    if (process.env.NODE_ENV !== 'production') checkVerbTarget('controller.getResponse', endpoint);
    const read = this.#cache.reader.readKey(endpoint, args, endpoint.key(...args));
    return responseSnapshot(read, this.#cache.now()) as ResponseSnapshot<EndpointData<E>>;
  }

  /** Empties the store. Requests in flight settle without writing and stop retrying; observers refetch. */
  resetEntireStore(): void {
    this.#alive('resetEntireStore');
    this.#requests.reset();
    const { changes } = this.#store.dispatch({ type: 'reset', date: this.#requests.stamps.next() });
    this.#cache.reader.memo.forget(); // nothing of the old data stays reachable
    const log = this.#requests.log;
    if (log.observed) log.emit({ type: 'reset', changes });
  }
}

const POLL: ObserveOptions = { poll: true };

/** `setError`'s last argument is an error (or an object with a message): else a TypeError naming it. */
function checkError(error: unknown): void {
  if (typeof error !== 'object' || error === null)
    throw new TypeError(
      `controller.setError(endpoint, ...args, error): the last argument, error, must be an Error (or an object with a message), got ${typeof error === 'string' ? JSON.stringify(error) : String(error)}. Nothing was written.`,
    );
}
