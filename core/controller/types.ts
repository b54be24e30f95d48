import type { FetchOptions, JsonOf, ResultOf } from '../endpoint/index.js';
import type { ArraySchema, Denormalize, EntityClass, Invalidate, Schema, SchemaNode, Union } from '../schema/index.js';
import type { Changes } from '../store/index.js';

/**
 * What the controller needs of an endpoint: callable with its arguments, a request key, a schema and
 * the expiry options. Every `RestEndpoint` is one. Without `A`, any endpoint fits and may be called with
 * the arguments stored beside it (`action.endpoint.key(...action.args)`): the default stays `any[]`, since
 * `unknown[]` would refuse every endpoint with typed arguments and `never` would refuse those calls.
 */
export interface ControllerEndpoint<A extends readonly unknown[] = any[], R = unknown, S = Schema | undefined> {
  (...args: A): Promise<R>;
  key(...args: A): string;
  readonly schema: S;
  readonly method: string;
  readonly sideEffect: boolean;
  readonly dataExpiryLength: number;
  readonly errorExpiryLength: number;
  readonly pollFrequency?: number | undefined;
  readonly optimistic?: boolean | undefined;
  readonly name?: string;
  /** Retries of a failed request (network error or 5xx); default: the controller's, 0 for mutations. */
  readonly retry?: number | false | undefined;
  /** The wait (ms) before retry number `attempt` (0-based); default: the controller's. */
  readonly retryDelay?: number | ((attempt: number, error: Error) => number) | undefined;
  /** Aborts this endpoint's requests. A GET observed with an aborted signal does not fetch again. */
  readonly signal?: AbortSignal | undefined;
  /** Optional: the request with a per-call abort signal and `fetch` (`RestEndpoint.fetchWith`); without it the controller calls the endpoint and only stops waiting on abort. */
  fetchWith?(options: FetchOptions, ...args: A): Promise<R>;
  process?(value: unknown, ...args: A): unknown;
  /**
   * Optional: the expected response of an optimistic mutation, given a snapshot of the store with the layers of
   * earlier mutations applied. It runs again whenever the layers apply (as in Data Client), so a layer below that
   * goes (a failed request) or gets its answer is reflected: `count + 1` stays one more than what is below.
   */
  getOptimisticResponse?(snapshot: StoreSnapshot, ...args: A): unknown;
}

/**
 * An endpoint without side effects, as `observe` takes it: its method is GET, HEAD or OPTIONS, or its
 * type says `sideEffect: false`. A mutation goes through `controller.fetch`.
 */
export type ReadEndpoint = ControllerEndpoint &
  ({ readonly method: 'GET' | 'HEAD' | 'OPTIONS' } | { readonly sideEffect: false });

/**
 * Throws a `TypeError` naming `endpoint` when it has side effects: observing it would send the request
 * once per subscriber and again on every refetch. `verb` names the caller (`controller.observe`,
 * `createQuery`, ...).
 */
export function assertReadEndpoint(endpoint: ControllerEndpoint, verb: string): void {
  if (endpoint.sideEffect) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${verb}(${endpoint.name || endpoint.method}) refused an endpoint with side effects (${endpoint.method}): ` +
            'it reads data. Send a mutation with controller.fetch(endpoint, ...args) (createMutation in the adapters).'
        : `${verb}(${endpoint.name || endpoint.method})`,
    );
  }
}

/** The arguments of an endpoint. */
export type EndpointArgs<E> = E extends (...args: infer A) => unknown ? A : never;

/** The value `controller.fetch(endpoint, ...)` resolves and `observe` emits: denormalized from the schema, or the endpoint's own result without one. */
export type EndpointData<E> = E extends { readonly schema: infer S }
  ? [S] extends [undefined]
    ? E extends (...args: never[]) => Promise<infer R>
      ? R
      : unknown
    : Denormalize<S>
  : unknown;

/**
 * The response `controller.setResponse(endpoint, ...args, response)` stores: the JSON the endpoint's
 * server sends. With a schema, the JSON form of what it reads back as (`JsonOf<Todo>` for `Todo`,
 * arrays of it for a list), every object in it partial, since a record merges into the stored one
 * (a field it lacks reads as stored, or as the class default); an Invalidate schema takes the pk alone
 * too. Without a schema, what a call of the endpoint resolves. `unknown` for an endpoint whose schema
 * type is not known (`ControllerEndpoint`).
 */
export type EndpointResponse<E> = E extends { readonly schema: infer S }
  ? [S] extends [undefined]
    ? E extends (...args: never[]) => Promise<infer R>
      ? R
      : unknown
    : Schema extends S
      ? unknown
      : SchemaResponse<S>
  : unknown;

/** The JSON that normalizes with schema `S`, partial (see `EndpointResponse`). */
type SchemaResponse<S> =
  S extends Invalidate<infer E>
    ? string | number | PartialJson<JsonOf<Denormalize<E>>>
    : S extends readonly [infer I]
      ? readonly SchemaResponse<I>[]
      : PartialJson<ResultOf<S>>;

/**
 * A list of entities that `controller.set(list, rows)` writes in one batch: `[Todo]`,
 * `new schema.Array(Todo)`, or a list of a `schema.Union` (`[FeedItem]`, `new schema.Array({ link: Link, post: Post }, 'type')`).
 */
export type EntityList = readonly [EntityClass | Union] | ArraySchema<any, any>;

/**
 * The rows of a batch `controller.set(list, rows)`: the JSON of each record, every field optional
 * (a row merges into the stored record; its pk fields are required at runtime).
 */
export type SetRows<S> = SchemaResponse<S>;

/** A JSON value with every object in it partial (arrays stay arrays, of partial items). */
type PartialJson<T> = T extends readonly (infer I)[]
  ? readonly PartialJson<I>[]
  : T extends object
    ? { [K in keyof T]?: PartialJson<T[K]> }
    : T;

/** The argument object of a query as the adapters take it (`undefined` for an endpoint without arguments). */
export type QueryArgs<E> = EndpointArgs<E> extends readonly [] ? undefined : EndpointArgs<E>[0];

/** A read-only view of the store given to `getOptimisticResponse`. */
export interface StoreSnapshot {
  /** The stored record (raw JSON) of an entity, with optimistic layers applied. */
  getEntity(key: string, pk: string): unknown;
  /** The controller's clock. */
  readonly now: number;
}

/** One request's state as `controller.observe` emits it. */
export interface QueryState<T> {
  /** Denormalized; the same object (===) while nothing it contains changed. */
  readonly data: T | undefined;
  /** The last error for this request, until a later success. */
  readonly error: Error | undefined;
  /** No usable data yet and a request is on the way. */
  readonly loading: boolean;
  /** A request for this key is in flight (first load or refresh). */
  readonly fetching: boolean;
  /** The data shown is past its expiry (false when no data is shown). */
  readonly stale: boolean;
  /** The request waits for the network to come back (the app is offline). */
  readonly paused: boolean;
}

/** What `controller.getResponse` returns: a synchronous snapshot of one request in the store. */
export interface ResponseSnapshot<T> {
  readonly data: T | undefined;
  readonly expiresAt: number;
  readonly stale: boolean;
  readonly invalid: boolean;
}

/** The state of a query that does not run (its arguments are `null`). */
export const IDLE: QueryState<never> = /* @__PURE__ */ Object.freeze({
  data: undefined,
  error: undefined,
  loading: false,
  fetching: false,
  stale: false,
  paused: false,
});

/** A schema that `controller.get` and `controller.observe` can answer from the store alone. */
export type Queryable = EntityClass | SchemaNode;

/** How one subscriber observes a stream. */
export interface ObserveOptions {
  /** The subscriber keeps the polling timer running (`pollFrequency`); the adapters' `useSuspense` does not. */
  readonly poll: boolean;
  /**
   * The subscriber renders once per task (the adapters): while every subscriber of the key says so, the
   * writes of one task re-read the store once, at its end (a microtask), instead of once per write. The
   * first state still comes synchronously on subscribe; `flushQueries()` re-reads at once.
   */
  readonly batch?: boolean;
}

/** What a committed change was. */
export type ControllerActionType =
  | 'fetch'
  | 'set'
  | 'setError'
  | 'invalidate'
  | 'expire'
  | 'optimistic'
  | 'rollback'
  | 'reset'
  | 'gc'
  | 'restore'
  | 'pushError';

/**
 * What a change touched in the state: entity records as `[entity key, pk]` and request keys (`'all'` after
 * a reset or a replacing restore), and whether the optimistic layers changed. `takeSnapshot(controller, { changes })`
 * turns it into the plain data another tab or a log needs.
 */
export type StateChanges = Changes;

/** One committed change, as `controller.actions$` emits it. */
export interface ControllerAction {
  readonly type: ControllerActionType;
  /** The request key it concerns, when it concerns one. */
  readonly key?: string | undefined;
  /** Every request key it concerns (`invalidateAll`, `expireAll`, a collection). */
  readonly keys?: readonly string[] | undefined;
  /** The endpoint, when the change came through one. */
  readonly endpoint?: ControllerEndpoint | undefined;
  /** The endpoint's arguments, when known. */
  readonly args?: readonly unknown[] | undefined;
  /** The error stored (`setError`), that rolled a mutation back (`rollback`), or of a pushed message that could not be applied (`pushError`). */
  readonly error?: Error | undefined;
  /** The pushed message that could not be applied (`pushError`). */
  readonly message?: unknown;
  /** What the change touched in the state (every action but `pushError`). */
  readonly changes?: StateChanges | undefined;
}
