/**
 * rx-rest/svelte: `controller.observe` as a Svelte store. The controller fetches, caches and decides
 * staleness; this file only translates its stream into `Readable<QueryState<T>>`.
 *
 * @example
 * import { createQuery, setController } from 'rx-rest/svelte';
 */
import { setContext, untrack } from 'svelte';
import { createSubscriber } from 'svelte/reactivity';
import { get, readable, toStore, type Readable } from 'svelte/store';
import type {
  Controller,
  ControllerEndpoint,
  EndpointArgs,
  EndpointData,
  QueryArgs,
  QueryOptions,
  QueryResult,
} from '../../core/index.js';
import {
  keepPrevious,
  infiniteSource,
  observeMutation,
  peekQuery,
  watchQuery,
  type InfiniteOptions,
} from '../../core/index.js';
import {
  afterQueries,
  assertAlive,
  assertReadEndpoint,
  checkVerbTarget,
  fetchNamed,
  flushQueries,
  onQueriesWait,
  refuseEnabled,
  unsubscribeQuery,
} from '../../core/internal.js';
import type { InfiniteState, Mutation, MutationState, QueryState, ReadEndpoint } from '../../core/index.js';
import { reconcileRows } from './rows.js';
import { hydratedOnMount } from './sveltekit.js';
import { KEY, getController } from './fetchQuery.js'; // the context key (Symbol.for: two copies of the package share it)

/** The argument object of a read endpoint (`undefined` for one that takes none). */
export type { QueryArgs };

export type { QueryOptions, QueryResult } from '../../core/index.js';

/** The options of `createQuery`, `useSuspense` and `createQueryState`: the core's, and whether entities become rows. */
export interface SvelteQueryOptions extends QueryOptions {
  /**
   * Each entity of the data as a row that lives as long as the query, keyed by its class and pk (the
   * top-level entity, those of a top-level array, and those of an object's array or entity members),
   * with one signal. A changed record re-runs only the effects that read its row (none for a write to fields
   * no row was read for); a list whose rows are the same as before stays the same array (and the query does
   * not emit), so a keyed `{#each}` does no work for the rows that did not change. Rows keep the entity's
   * prototype (methods, getters, `instanceof`) and are read-only: write with `controller.set` or a
   * mutation. Default false: entities are the core's objects (a changed record is a new object).
   */
  readonly reconcile?: boolean | undefined;
}

/** What `createQuery` takes as args: a value, `null` (idle), a store of them, or a getter read in runes code. */
export type QueryArgsInput<E> = QueryArgs<E> | null | Readable<QueryArgs<E> | null> | (() => QueryArgs<E> | null);

/**
 * The parameters after the endpoint of `createQuery`, `useSuspense`, `createQueryState` and (with its
 * options `O`) `createInfiniteQuery`: `args`, left out where the endpoint's may be (Data Client's
 * `useSuspense(endpoint)`: a list whose search parameters are optional), then `options`.
 */
type ArgsThenOptions<E, O = Controller | SvelteQueryOptions> =
  undefined extends QueryArgs<E> ? [args?: QueryArgsInput<E>, options?: O] : [args: QueryArgsInput<E>, options?: O];

export { loadController, type LoadEventLike } from './sveltekit.js';
export { fetchQuery, getController } from './fetchQuery.js';

/**
 * Puts a controller in Svelte context for `createQuery` in this component and its children. Call it
 * during component initialisation, once per app (or once per server request). A getter reads a prop
 * once, without Svelte's `state_referenced_locally` warning. When its component mounted, a
 * server-rendered page is hydrated: the add-ons that waited for it (see `loadController`) start.
 *
 * @example
 * <script>setController(new Controller());</script>
 * <script>let { data, children } = $props(); setController(() => data.controller);</script>
 */
export function setController(controller: Controller | (() => Controller)): Controller {
  hydratedOnMount(); // a server-rendered page is hydrated once this component mounted: the add-ons may start
  // a getter is called; in development not the Controller class itself (which throws that it needs `new`): the check below names it
  if (typeof controller === 'function' && !(process.env.NODE_ENV !== 'production' && controller.prototype?.observe))
    controller = controller();
  // a development check (a production build leaves it out: getController then says that none is in context)
  if (
    process.env.NODE_ENV !== 'production' &&
    typeof (controller as Partial<Controller> | null)?.observe !== 'function'
  ) {
    throw new TypeError(
      `rx-rest/svelte: setController(controller) expects a Controller (or a getter of one), got ${controller === null ? 'null' : typeof controller === 'object' ? 'an object that is not one' : typeof controller === 'function' ? 'the Controller class, not an instance' : typeof controller}. ` +
        'Pass new Controller(), or in SvelteKit the controller your root +layout.ts load returned: setController(() => data.controller).',
    );
  }
  return setContext(KEY, controller as Controller);
}

/**
 * The live state of one request as a Svelte store (`$todos.data`, `$todos.loading`, ...). Polls when
 * the endpoint has `pollFrequency`. A change of args (store or runes getter) switches to the new request;
 * with `keepPreviousData` the old data stays (`placeholder: true`) until the new data arrives. For a
 * long `{#each}`, read the list from `createQueryState` or `$derived($todos.data)`: Svelte compiles an
 * each over a `$store` expression as mutable items and re-runs every row on each emission.
 *
 * @example
 * const todos = createQuery(TodoResource.getList, () => ({ userId }), { keepPreviousData: true });
 * const todo = createQuery(TodoResource.get, { id: 1 });                 // a value
 * {#each $todos.data ?? [] as todo (todo.id)}<li class:dim={$todos.placeholder}>{todo.title}</li>{/each}
 */
export function createQuery<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E>
): Readable<QueryResult<EndpointData<E>>>;
export function createQuery<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SvelteQueryOptions,
): Readable<QueryResult<EndpointData<E>>> {
  return query(endpoint, args, options, 'createQuery');
}

/** The seed's name for `createQuery` (live, polls when the endpoint has `pollFrequency`). */
export const useLive: typeof createQuery = createQuery;

/** Like `createQuery`, but never polls: the same read without a polling timer. */
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E>
): Readable<QueryResult<EndpointData<E>>>;
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SvelteQueryOptions,
): Readable<QueryResult<EndpointData<E>>> {
  return query(endpoint, args, options, 'useSuspense');
}

/**
 * Runes form of `createQuery`: an object whose getters (`data`, `error`, `loading`, `fetching`,
 * `stale`, `placeholder`) are reactive in runes code and `.svelte.ts` modules: an effect that reads one
 * subscribes while it lives. Read outside an effect (an event handler), a getter gives the current state
 * and subscribes to nothing.
 *
 * @example
 * const todos = createQueryState(TodoResource.getList, () => ({ userId }));
 * {#if todos.loading}Loading…{:else}{todos.data?.length} todos{/if}
 */
export function createQueryState<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E>
): QueryResult<EndpointData<E>>;
export function createQueryState<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SvelteQueryOptions,
): QueryResult<EndpointData<E>> {
  const store = query(endpoint, args, options, 'createQueryState') as Following<QueryResult<EndpointData<E>>>;
  // rows: a task's writes reach the markup through the rows' own signals, at its end (see `getters`)
  const rows = (options as SvelteQueryOptions | undefined)?.reconcile; // a Controller has no `reconcile`
  return getters(store, store.idle, store.now, !rows);
}

/** `createMutation`'s result: a store of its state (`$save.pending`), the same state as runes getters (`save.pending`), `mutate` and `reset`. */
export type MutationStore<E extends ControllerEndpoint> = Readable<MutationState<EndpointData<E>>> &
  MutationState<EndpointData<E>> &
  Pick<Mutation<E>, 'mutate' | 'reset'>;

/**
 * A mutation with pending/error/data state. `mutate(...args)` returns the `controller.fetch` promise;
 * each call resolves its own result and the state follows the latest. Optimistic endpoints show at once.
 *
 * @example
 * const rename = createMutation(TodoResource.partialUpdate);
 * <button disabled={rename.pending} onclick={() => rename.mutate({ id }, { title })}>Save</button>
 * {#if rename.error}<p role="alert">{rename.error.message}</p>{/if}
 */
export function createMutation<E extends ControllerEndpoint>(
  endpoint: E,
  options?: Controller | Pick<QueryOptions, 'controller'>,
): MutationStore<E> {
  if (process.env.NODE_ENV !== 'production') checkVerbTarget('rx-rest/svelte: createMutation', endpoint);
  // development: on a disposed controller, an error that names `mutate`, not the `controller.fetch` it calls
  const { state$, getState, mutate, reset } = observeMutation(
    process.env.NODE_ENV !== 'production'
      ? fetchNamed(controllerOf(options), 'createMutation(...).mutate')
      : controllerOf(options),
    endpoint,
  );
  const store = { subscribe: toSubscribe(state$), mutate, reset };
  return getters(store, getState(), getState) as MutationStore<E>;
}

/** `createInfiniteQuery`'s result: a store of the list's state with `hasNext` and `fetchingNext`, and `loadNext`. */
export interface InfiniteQueryStore<T> extends Readable<InfiniteState<T> & Pick<QueryResult<T>, 'placeholder'>> {
  /** Fetches the next page into the list; never rejects (a failure shows as `error`). */
  loadNext(): Promise<void>;
}

/**
 * An infinite list (pages by number, or by a cursor read from `{ results, next }` responses) as one
 * normalized list. Args work as in `createQuery`; a change of args starts a new list (`keepPreviousData`:
 * the old list stays, `placeholder` true, until the new first page arrives).
 *
 * @example
 * const feed = createInfiniteQuery(TodoResource.getList, () => ({ userId }), { pageSize: 20 });
 * {#each $feed.data ?? [] as todo (todo.id)}<li>{todo.title}</li>{/each}
 * {#if $feed.hasNext}<button disabled={$feed.fetchingNext} onclick={feed.loadNext}>Load more</button>{/if}
 */
export function createInfiniteQuery<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E, InfiniteOptions & QueryOptions>
): InfiniteQueryStore<EndpointData<E>>;
export function createInfiniteQuery<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options: InfiniteOptions & QueryOptions = {},
): InfiniteQueryStore<EndpointData<E>> {
  if (process.env.NODE_ENV !== 'production') {
    checkVerbTarget('rx-rest/svelte: createInfiniteQuery', endpoint);
    refuseEnabled('rx-rest/svelte: createInfiniteQuery', options);
  }
  const controller = controllerOf(options);
  const source = infiniteSource(controller, endpoint, options);
  const alive = () => assertAlive(controller, 'createInfiniteQuery');
  const store = follow(
    endpoint,
    args,
    (list) => (alive(), source.peek(list)),
    (list) => (alive(), source.open(list)),
    'createInfiniteQuery',
  );
  return { subscribe: store.subscribe, loadNext: source.loadNext };
}

function controllerOf(options: Controller | Pick<QueryOptions, 'controller'> | undefined): Controller {
  // development: options that are not options fail here, by name, not inside the core
  if (process.env.NODE_ENV !== 'production' && options != null && typeof options !== 'object') badOptions(options);
  const given = options && 'fetch' in options ? options : options?.controller; // a Controller, or options holding one
  if (process.env.NODE_ENV !== 'production' && given != null && typeof given.observe !== 'function')
    badOptions(given, '.controller');
  if (!given) return getController();
  hydratedOnMount(); // an app without setController: the page is hydrated once this component mounted
  return given;
}

/** Development: the TypeError of options (or their `controller`: `member`) that are not what they should be. */
function badOptions(given: unknown, member = ''): never {
  throw new TypeError(
    `rx-rest/svelte: the options (the last argument) of createQuery, createQueryState, useSuspense, createInfiniteQuery or createMutation must be { controller?, ... } or a Controller; got ${typeof given} as options${member}. Pass { controller } with the app's Controller, or leave it out to use the one setController put in context.`,
  );
}

/** An Observable's `subscribe` as a Svelte store's (which returns the unsubscribe function). */
const toSubscribe =
  <S>(source: { subscribe(run: (value: S) => void): { unsubscribe(): void } }) =>
  (run: (value: S) => void) => {
    const subscription = source.subscribe(run);
    return () => subscription.unsubscribe();
  };

/** `follow`'s store, `now()`: its current state read without subscribing, and `idle`: the state of `null` args (its fields are every state's). */
type Following<S> = Readable<S> & { now(): S; readonly idle: S };

/** The effects that read a batched query run again when a write makes queries wait (their read then re-reads). */
const written = createSubscriber(onQueriesWait);

/**
 * Adds runes-friendly getters of the store's fields (those of `fields`, a state) to `target`. An effect
 * (or `$derived`, or the markup) that reads one subscribes to the store while it lives, and re-runs on
 * its changes; a read outside one subscribes to nothing and reads `now()`, the current state. `now`
 * brings the task's writes in first (a batched query), untracked: in an effect too, whose effects a
 * write marks stale when `stale` (`written`). Not with rows: a keyed `{#each}` whose list a write marks
 * stale walks every row again (Svelte's each compares no array), and rows bring a one-record write to
 * the markup through their own signals, at the end of the task.
 */
function getters<S extends object, T extends Readable<S>>(target: T, fields: S, now: () => S, stale?: boolean): T & S {
  const subscribe = createSubscriber((update) => {
    let runs = 0;
    return target.subscribe(() => runs++ && update()); // the first run, on subscribe, is the state read now
  });
  const read = () => (subscribe(), stale && written(), untrack(now));
  for (const key of Object.keys(fields) as (keyof S)[])
    Object.defineProperty(target, key, { get: () => read()[key], enumerable: true, configurable: true });
  return target as unknown as T & S;
}

/**
 * The args as a store. A getter's value is read whole (`JSON.stringify`) where it is called, so that a `$state`
 * object it returns, edited in place (`filters.userId = 2`), is tracked: the query switches, as for `() => ({ userId })`.
 * A bigint (a search parameter the core sends as its digits) is read as a number there: JSON.stringify throws on it.
 */
function toReadable<A>(args: A | null | Readable<A | null> | (() => A | null)): Readable<A | null> {
  if (typeof args === 'function')
    return toStore(() => {
      const value = (args as () => A | null)();
      JSON.stringify(value, (_, field: unknown) => (typeof field === 'bigint' ? 0 : field));
      return value;
    });
  const store = typeof (args as Partial<Readable<A>> | null)?.subscribe === 'function';
  return store ? (args as Readable<A | null>) : readable(args as A | null);
}

/**
 * A store that follows `open(args)` and switches when the args' request key changes. On the server a
 * store is read once (subscribe, unsubscribe): it reads `peek(args)` and starts nothing. `name` is the
 * function the app called, for the error that refuses a mutation endpoint.
 *
 * `batch` (`open` re-reads once per task): a subscription's first state is set at once, later ones at the
 * end of the task, the latest only (`afterQueries`); a read before then (`subscribe`, so `get(store)`, and
 * `now`) re-reads the task's writes and sets their state first. `now()` reads without subscribing: the
 * state set last while the store has subscribers, else `peek` of the current args. While a request is in
 * flight, the last subscriber's leaving, or args that switch to another request, end its subscription at the
 * end of the task (what it emits until then is set nowhere): a subscriber that comes in the task, or args back
 * to that request, join it instead of aborting it and sending it again.
 */
function follow<E extends ReadEndpoint, S>(
  endpoint: E,
  args: QueryArgsInput<E>,
  peek: (list: EndpointArgs<E>) => S,
  open: (list: EndpointArgs<E>) => { subscribe(next: (state: S) => void): { unsubscribe(): void } },
  name: string,
  batch = false,
): Following<S> {
  assertReadEndpoint(endpoint, name);
  const args$ = toReadable<QueryArgs<E>>(args);
  const list = (a: QueryArgs<E> | null) => (a === null ? [null] : a === undefined ? [] : [a]) as EndpointArgs<E>;
  let commit: (() => void) | undefined; // sets the latest state, if it waits for the end of the task
  let last: S | undefined; // the state set last
  const later = () => commit?.(); // what a subscription's emission asks to run at the end of the task
  const flush = () => (flushQueries(), later());
  const now = () => (flush(), commit ? last! : peek(list(get(args$)))); // `commit` is set while subscribed
  const idle = peek([null] as EndpointArgs<E>); // the first value, before a subscriber
  if (typeof window === 'undefined')
    return { subscribe: (run) => args$.subscribe((a) => run(peek(list(a)))), now, idle };
  const store = readable<S>(idle, (set) => {
    let key: unknown;
    let current: { unsubscribe(): void } | undefined;
    let latest: S;
    // whether the latest state's fields differ from those set last: a state whose fields are those (a switch of args
    // while the same placeholder stands in, from one loading request to another, a write that only updated rows) has
    // nothing to update (a `$todos.data` in an {#each} re-renders every row) (a store's states all have the same
    // fields). A loop, not `Object.keys(...).some(...)`: no array or closure per state on every write's path
    const differs = () => {
      for (const key in latest) if (latest[key] !== last?.[key]) return true;
      return false;
    };
    const next = () => differs() && set((last = latest));
    const stopArgs = args$.subscribe((a) => {
      let request: unknown;
      try {
        request = a === null ? null : endpoint.key(...list(a));
      } catch {
        request = {}; // bad URL args (no key): `open` gives their error state; a new object is no request twice
      }
      if (current && request === key) return; // same request: keep the subscription (and its data)
      // in flight, left at the end of the task: args back to it in the task (set twice) join the request
      if (current) unsubscribeQuery(current, latest);
      current = undefined; // a new subscription's first state is set at once
      key = request;
      current = open(list(a)).subscribe((state) => {
        if (request !== key) return; // a request left: what it emits until the end of the task is no one's
        latest = state;
        // a state like the one set last waits for nothing: the task's end would set nothing (if another of its states
        // differs, that one asks, and the end of the task sets the latest)
        if (!batch || !current) next();
        else if (differs()) afterQueries(later);
      });
    });
    commit = next;
    return () => {
      stopArgs();
      commit = undefined;
      // in flight, at the end of the task: `get(store)` then `$store` joins the request (`current` is set: the
      // args' store gave a value on subscribe)
      unsubscribeQuery(current!, latest);
    };
  });
  return { subscribe: (run, invalidate) => (flush(), store.subscribe(run, invalidate)), now, idle };
}

/** The store of `createQuery`, `useSuspense` and `createQueryState`, the one called (`name`): `useSuspense` never polls. */
function query<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options: Controller | SvelteQueryOptions | undefined,
  name: 'createQuery' | 'useSuspense' | 'createQueryState',
): Readable<QueryResult<EndpointData<E>>> {
  if (process.env.NODE_ENV !== 'production') {
    checkVerbTarget(`rx-rest/svelte: ${name}`, endpoint);
    refuseEnabled(`rx-rest/svelte: ${name}`, options);
  }
  const controller = controllerOf(options);
  // a disposed controller's error names the function the user called, not peekQuery or watchQuery
  const alive = () => assertAlive(controller, name);
  const given = !!options && !('fetch' in options) ? options : undefined;
  // rows only in the browser: a server render reads each query once
  const present =
    given?.reconcile && typeof window !== 'undefined' ? reconciled<QueryResult<EndpointData<E>>>() : undefined;
  const kept = keepPrevious<QueryState<EndpointData<E>>>(!!given?.keepPreviousData, { controller, endpoint, present });
  const peek = (list: EndpointArgs<E>) => (alive(), kept(peekQuery(controller, endpoint, ...list)));
  // a task's writes re-read once (a row's field read before then brings them in itself: see rows.ts)
  const open = (list: EndpointArgs<E>) => (
    alive(),
    kept.open(list, watchQuery(controller, endpoint, list, { poll: name !== 'useSuspense', batch: true }))
  );
  return follow(endpoint, args, peek, open, name, true);
}

/**
 * The state with the data's entities as rows (`reconcile`); a state whose data (the same rows, the same array)
 * and fields are all as before is not emitted (`follow` compares the fields).
 */
function reconciled<S extends QueryResult<unknown>>(): (viewed: S) => S {
  const rows = reconcileRows();
  return (viewed) => {
    // untracked: a store may emit while a derived or the template reads it, and the rows' signals are written then
    const data = untrack(() => rows(viewed.data));
    return data === viewed.data ? viewed : { ...viewed, data };
  };
}
