/**
 * Running requests: identical GETs in flight share one request, failures are retried, an abandoned
 * or aborted request stores nothing, writes are ordered by the start time of their request (`Stamps`),
 * and a store reset starts a new generation whose writes the older requests can no longer make. Every
 * `fetch` resolves with its own response.
 */
import { AbortError, NetworkError, NormalizeError, ValidationError, toError } from '../errors.js';
import type { OptimisticLayer, Store, Transition } from '../store/index.js';
import { schemaTables, type EntityTables } from '../schema/index.js';
import type { ActionLog } from './ActionLog.js';
import { describe, readOwn, tryOnce } from './attempt.js';
import type { Environment } from './Environment.js';
import { NO_LAYER, expectedResponse } from './optimistic.js';
import { Pins } from './Pins.js';
import type { QueryReader } from './QueryReader.js';
import { retryCount, withRetries } from './retry.js';
import type { RequestListener, RequestOptions, WriteOptions } from './requestOptions.js';
import { Stamps, justBefore } from './Stamps.js';
import type { RequestStatus } from './QueryStream.js';
import type { ControllerEndpoint } from './types.js';

export type { RequestListener, RequestOptions, WriteOptions } from './requestOptions.js';

/** A request in flight for one key (GETs only: mutations are never shared). */
interface InFlight {
  promise: Promise<unknown>;
  /** The stamp of its current attempt (see `Stamps.next`). */
  startedAt: number;
  /** The stamp of its first attempt (its optimistic layer's). */
  readonly firstAt: number;
  /** Aborts it (its retries too). */
  readonly abort: AbortController;
  /** A `fetch` caller awaits it: it runs to the end even when its last observer leaves. */
  awaited: boolean;
  /** The endpoint that started it: its `signal` and `timeout` end it for every caller that shares it. */
  readonly endpoint: ControllerEndpoint;
  readonly key: string;
}

/** The requests of one controller. */
export class Requests implements RequestStatus {
  /** @internal GETs in flight by key. */
  readonly inFlight = new Map<string, InFlight>();
  /**
   * Every request running (mutations too), aborted by `dispose`: for a key, the shared GET and those beside it
   * (an endpoint's own `signal` or `timeout`) or that a later one replaced in `inFlight`.
   */
  readonly #running = new Set<InFlight>();
  /** What running requests pin for the garbage collector (their starts); a request that lost its pin writes nothing. */
  readonly pins = new Pins();
  /** Announces every committed change. */
  declare readonly log: ActionLog;
  /** Keys whose request waits for the network. */
  readonly #paused = new Map<string, number>();
  readonly #store: Store;
  readonly #reader: QueryReader;
  readonly #environment: Environment;
  readonly #listener: RequestListener;
  readonly #options: RequestOptions;
  #generation = 0;
  #layerIds = 0;
  /** The ordering stamps of this controller's writes. */
  declare readonly stamps: Stamps;
  /** Aborted by `reset`: retries of requests started before it stop. */
  #resetSignal = new AbortController();

  constructor(
    store: Store,
    reader: QueryReader,
    environment: Environment,
    listener: RequestListener,
    options: RequestOptions,
    log: ActionLog,
  ) {
    this.log = log;
    this.#store = store;
    this.#reader = reader;
    this.#environment = environment;
    this.#listener = listener;
    this.#options = options;
    this.stamps = new Stamps(store.current, options.now);
  }

  /** Whether a request for this key is in flight. */
  isFetching(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Whether a request for this key waits for the network. */
  isPaused(key: string): boolean {
    return this.#paused.has(key);
  }

  /** The stamp of the attempt in flight for this key, if any (a write stamped later is newer than its answer). */
  startOf(key: string): number | undefined {
    return this.inFlight.get(key)?.startedAt;
  }

  /**
   * Before an attempt: while offline, a GET (or a mutation whose endpoint sets `retry`) waits for the
   * network, its observers showing `paused`; another mutation fails at once, as it would on the wire.
   */
  async #online(endpoint: ControllerEndpoint, key: string, signal: AbortSignal, stop: AbortSignal): Promise<boolean> {
    const environment = this.#environment;
    if (environment.online) return false;
    if (endpoint.sideEffect && endpoint.retry === undefined) {
      throw new NetworkError(describe(endpoint, key), {
        cause: new Error(process.env.NODE_ENV !== 'production' ? 'the app is offline' : 'offline'),
      });
    }
    this.#pause(key);
    this.#listener.onFetchingChange(key);
    const either = AbortSignal.any([signal, stop]);
    try {
      await environment.whenOnline(either);
    } finally {
      this.#unpause(key);
      this.#listener.onFetchingChange(key);
    }
    if (signal.aborted) throw signal.reason;
    // the store was reset while it waited: it settles without a request (the network may still be down)
    if (stop.aborted)
      throw new AbortError(
        describe(endpoint, key),
        process.env.NODE_ENV !== 'production' ? 'the store was reset while it waited for the network' : undefined,
      );
    return true;
  }

  #pause(key: string): void {
    this.#paused.set(key, (this.#paused.get(key) ?? 0) + 1);
  }

  #unpause(key: string): void {
    const count = (this.#paused.get(key) ?? 1) - 1;
    if (count > 0) this.#paused.set(key, count);
    else this.#paused.delete(key);
  }

  /**
   * Runs a request for `key` and resolves its own response, denormalized (see `fetch`). `awaited`: a
   * caller waits for the value (an observer's refetch does not, and resolves `undefined`).
   */
  request(endpoint: ControllerEndpoint, args: readonly unknown[], key: string, awaited: boolean): Promise<unknown> {
    /** Another request of this key is in flight that nothing but the controller ends: this one runs beside it. */
    let beside = false;
    if (!endpoint.sideEffect) {
      const running = this.inFlight.get(key);
      if (running) {
        const other = running.endpoint;
        // shared only when the same `signal` and `timeout` end both: another endpoint's are not this caller's
        if (other.signal === endpoint.signal && timeoutOf(other) === timeoutOf(endpoint)) {
          running.awaited ||= awaited;
          return running.promise;
        }
        beside = other.signal === undefined && timeoutOf(other) === undefined;
      }
    }
    const fetchedAt = this.stamps.next();
    const generation = this.#generation;
    const layer = this.#addLayer(endpoint, args, key, fetchedAt);
    const abort = new AbortController();
    const entry = { abort, awaited, startedAt: fetchedAt, firstAt: fetchedAt, endpoint, key } as InFlight;
    this.#running.add(entry);
    this.pins.add(abort, fetchedAt);
    const stop = this.#resetSignal.signal;
    // offline, a request that will wait is paused from the start: the first (synchronous) emission says
    // so, before its first attempt (a microtask later) marks it itself
    let pausedEarly = !this.#environment.online && !(endpoint.sideEffect && endpoint.retry === undefined);
    if (pausedEarly) this.#pause(key);
    const unpauseEarly = () => {
      if (!pausedEarly) return;
      pausedEarly = false;
      this.#unpause(key);
    };
    /** Whether a tombstone it may need was collected after it lost its pin (see `Pins`): its answer is not written. */
    let unpinned = false;
    // the request is over: it is no longer in flight (unless a reset or an abort already replaced it)
    const settle = () => {
      unpauseEarly();
      this.#running.delete(entry);
      unpinned = this.pins.end(abort);
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    };
    // the endpoint's own signal ends its waits (for the network, before a retry) too
    const own = endpoint.signal;
    const aborts = own ? AbortSignal.any([abort.signal, own]) : abort.signal;
    const run = async (): Promise<unknown> => {
      await undefined; // the request is registered in flight before anything can settle it
      let startedAt = fetchedAt;
      let entitiesAt = fetchedAt;
      let response: unknown;
      try {
        response = await withRetries(
          async (attempt) => {
            const online = this.#online(endpoint, key, aborts, stop);
            unpauseEarly(); // marked by the attempt itself from now on, if it waits
            const waited = await online;
            if (attempt > 0 || waited) entry.startedAt = startedAt = this.stamps.next(); // a response is as new as its attempt
            if (!endpoint.sideEffect) {
              entitiesAt = this.#readBefore(startedAt, endpoint.schema);
              // the tombstones of a delete in flight stay while this runs
              if (entitiesAt < fetchedAt) this.pins.add(abort, entitiesAt);
            }
            return tryOnce(endpoint, args, abort.signal, this.#options.fetch);
          },
          // the endpoint's retry options, else the controller's (mutations: none)
          retryCount(endpoint.retry !== undefined ? endpoint.retry : endpoint.sideEffect ? 0 : this.#options.retry),
          endpoint.retryDelay ?? this.#options.retryDelay,
          this.#options.scheduler,
          aborts,
          stop,
        );
        // aborted after its answer arrived (its last observer left meanwhile): the answer is not written
        if (abort.signal.aborted) throw abort.signal.reason;
      } catch (caught) {
        settle();
        // the endpoint's signal aborted a wait: an `AbortError` naming the request, as its attempts give
        const error = own && caught === own.reason ? new AbortError(describe(endpoint, key), caught) : caught;
        if (error instanceof Error && error.name === 'AbortError') {
          // an aborted request stores nothing: only its optimistic layer goes, and its observers stop showing it as fetching
          this.#layerGone(layer, endpoint, key, args, toError(error));
          this.#listener.onFetchingChange(key);
        } else if (generation === this.#generation) {
          this.write(endpoint, key, args, toError(error), {
            isError: true,
            fetchedAt: startedAt,
            settles: layer,
            fetched: true,
          });
          this.#listener.onFetchingChange(key); // a newer write may have kept its error out: the stream still says it ended
        }
        throw error;
      }
      settle();
      if (generation !== this.#generation) return readOwn(endpoint, args, response);
      if (unpinned) {
        // deleted records it may hold were collected meanwhile: written, it could bring them back
        this.#layerGone(layer, endpoint, key, args);
        this.mark('expire', [key], endpoint, args);
        this.#listener.onFetchingChange(key);
        return entry.awaited ? readOwn(endpoint, args, response) : undefined;
      }
      const date = this.#options.now();
      // no response of a later request has been written: this one wins every record it writes, so the
      // store's records are exactly its own (and the data read is the object observers show)
      const newest = this.stamps.isNewest(entitiesAt);
      try {
        this.write(endpoint, key, args, response, {
          isError: false,
          fetchedAt: startedAt,
          entitiesAt,
          settles: layer,
          date,
          fetched: true,
        });
      } catch (thrown) {
        const error =
          thrown instanceof NormalizeError || thrown instanceof ValidationError
            ? thrown.inResponseTo(describe(endpoint, key))
            : toError(thrown);
        this.write(endpoint, key, args, error, {
          isError: true,
          fetchedAt: startedAt,
          settles: layer,
          date,
          fetched: true,
        });
        this.#listener.onFetchingChange(key);
        throw error;
      }
      // a newer write (`setResponse`, an invalidation) may have kept this answer from changing the key:
      // its stream still has to hear that the request ended (and refetch what was invalidated meanwhile)
      this.#listener.onFetchingChange(key);
      if (!entry.awaited) return undefined; // an observer's refetch: nobody reads the value
      // the key's result is this response's only if its meta is (an invalidation or the error of a later
      // request may have claimed the key first); other mutations' optimistic layers are not part of it either
      const state = this.#store.current;
      return newest && state.meta[key]?.fetchedAt === startedAt && state.optimistic.length === 0
        ? this.#reader.readKey(endpoint, args, key).data
        : readOwn(endpoint, args, response, state);
    };
    entry.promise = run();
    if (!endpoint.sideEffect && !beside) {
      this.inFlight.set(key, entry);
      this.#listener.onFetchingChange(key);
    }
    return entry.promise;
  }

  /**
   * The stamp of the entities a GET of `schema` sent at `start` answers: before the oldest mutation still in flight
   * that can write them (its schema holds one of their tables, at any depth, or it has none), if any. The server may
   * read them before it applies that mutation, so the mutation's answer stays newer (its optimistic layer shows over
   * them meanwhile), and a GET sent after that answer arrived is newer than it. A mutation of other tables leaves
   * the GET as new as its request (a `set` made before it was sent does not win over its answer).
   */
  #readBefore(start: number, schema: unknown): number {
    let stamp = start;
    for (const entry of this.#running) {
      const other = entry.endpoint.schema;
      if (entry.endpoint.sideEffect && entry.startedAt <= stamp && (other == null || meets(other, schema)))
        stamp = justBefore(entry.startedAt);
    }
    return stamp;
  }

  /**
   * The first stamp of the oldest mutation in flight, if any: a write meanwhile keeps field stamps (`SetEntityAction.since`).
   * With `schema` (a local write: `controller.set`, `setResponse`), GETs in flight whose schema meets it count too: their
   * answers were read before the write, so the fields it leaves take theirs, and the fields it wrote keep its own.
   */
  mutationsSince(schema?: unknown): number | undefined {
    let since: number | undefined;
    for (const { endpoint, firstAt } of this.#running)
      if ((endpoint.sideEffect || (schema && meets(endpoint.schema, schema))) && !((since as number) <= firstAt))
        since = firstAt;
    return since;
  }

  /** A request ends without writing: its optimistic layer, if any, is dropped. */
  #layerGone(
    layer: number | undefined,
    endpoint: ControllerEndpoint,
    key: string,
    args: readonly unknown[],
    error?: Error,
  ): void {
    if (layer === undefined) return;
    const { changes } = this.#store.dispatch({ type: 'dropLayer', layer });
    if (this.log.observed) this.log.emit({ type: 'rollback', key, endpoint, args, error, changes });
  }

  /** The optimistic layer of a mutation that has an expected response, if any. */
  #addLayer(
    endpoint: ControllerEndpoint,
    args: readonly unknown[],
    key: string,
    fetchedAt: number,
  ): number | undefined {
    let expected: unknown;
    const now = this.#options.now();
    const own = endpoint.getOptimisticResponse;
    const snapshot = (entities: EntityTables) => ({ now, getEntity: (key: string, pk: string) => entities[key]?.[pk] });
    try {
      expected = expectedResponse(endpoint, args, snapshot(this.#reader.entities()));
    } catch {
      return undefined;
    }
    if (expected === NO_LAYER || endpoint.schema === undefined || endpoint.signal?.aborted) return undefined;
    const layer = ++this.#layerIds;
    const { changes } = this.#store.dispatch({
      type: 'optimistic',
      // not enumerable: a getState() taken while the layer lives survives JSON.stringify (a schema has cycles).
      // `again`: an endpoint's own getOptimisticResponse runs again whenever the layers apply, over the layers
      // below it (Data Client's snapshot), so a layer below that goes leaves only its own change out
      layer: Object.defineProperties(
        { id: layer, key, args, response: expected, fetchedAt },
        {
          schema: { value: endpoint.schema },
          again: { value: own && ((entities: EntityTables) => own.call(endpoint, snapshot(entities), ...args)) },
        },
      ) as OptimisticLayer,
    });
    if (this.log.observed) this.log.emit({ type: 'optimistic', key, endpoint, args, changes });
    return layer;
  }

  /**
   * The last observer of a GET left: abort its requests that no `fetch` caller awaits (the shared one, and
   * those beside it or replaced by a later one, which only its observers wanted).
   */
  abandon(key: string): void {
    for (const entry of this.#running) {
      if (entry.key !== key || entry.awaited) continue;
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
      entry.abort.abort(
        new AbortError(
          describe(entry.endpoint, key),
          process.env.NODE_ENV !== 'production'
            ? 'its last observer unsubscribed and no fetch awaits it'
            : 'unsubscribed',
        ),
      );
    }
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
    const { changes } = this.#store.dispatch({
      type,
      keys: list,
      date: this.#options.now(),
      stamp: this.stamps.next(),
    });
    if (this.log.observed)
      this.log.emit({ type, key: args ? list[0] : undefined, keys: list, endpoint, args, changes });
  }

  /** A new generation: requests in flight settle without writing and stop retrying. */
  reset(): void {
    this.#generation++;
    this.inFlight.clear();
    this.#resetSignal.abort();
    this.#resetSignal = new AbortController();
  }

  /** Aborts every request (mutations too) and its retries; nothing they answer is written. */
  dispose(): void {
    this.reset();
    // an abort settles its request later (a microtask at least): the set does not change meanwhile
    for (const { abort, endpoint, key } of this.#running)
      abort.abort(
        new AbortError(
          describe(endpoint, key),
          process.env.NODE_ENV !== 'production' ? 'the controller was disposed' : 'disposed',
        ),
      );
    this.#running.clear();
    this.pins.clear();
  }

  /** Stores a response (normalized; throws what normalize throws) or an error for `key`; the transition made. */
  write(
    endpoint: ControllerEndpoint,
    key: string,
    args: readonly unknown[],
    value: unknown,
    options: WriteOptions,
  ): Transition {
    const date = options.date ?? this.#options.now();
    const fetchedAt = options.fetchedAt ?? this.stamps.next();
    if (!options.isError) this.stamps.wrote(fetchedAt);
    const transition = this.#store.dispatch(
      options.isError
        ? {
            type: 'error',
            key,
            error: value as Error,
            fetchedAt,
            date,
            expiresAt: expiry(date, endpoint.errorExpiryLength),
            settles: options.settles,
          }
        : {
            type: 'response',
            key,
            schema: endpoint.schema,
            args,
            response: value,
            fetchedAt,
            entitiesAt: options.entitiesAt,
            date,
            expiresAt: expiry(date, endpoint.dataExpiryLength),
            settles: options.settles,
            since: this.mutationsSince(options.fetched ? undefined : endpoint.schema),
          },
    );
    this.#listener.onWritten(key);
    if (this.log.observed) {
      const error = options.isError ? (value as Error) : undefined;
      const type = options.isError
        ? options.settles !== undefined
          ? 'rollback'
          : 'setError'
        : options.fetched
          ? 'fetch'
          : 'set';
      this.log.emit({ type, key, endpoint, args, error, changes: transition.changes });
    }
    return transition;
  }
}

/** Whether the schemas `a` and `b` hold an entity table in common (see `schemaTables`). */
function meets(a: unknown, b: unknown): boolean {
  const theirs = schemaTables(b);
  for (const table of schemaTables(a)) if (theirs.has(table)) return true;
  return false;
}

/** The `timeout` of a `RestEndpoint` (other endpoints have none). */
const timeoutOf = (endpoint: ControllerEndpoint): unknown => (endpoint as { timeout?: unknown }).timeout;

/**
 * When a write made at `date` expires after `lifetime` ms: at most the last time a `Date` holds, so that a
 * lifetime of `Infinity` (never stale) stays a finite time that `JSON.stringify` keeps and a restore accepts.
 */
const expiry = (date: number, lifetime: number): number => Math.min(date + lifetime, 8.64e15);
