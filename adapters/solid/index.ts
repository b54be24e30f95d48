/**
 * rx-rest/solid: `controller.observe` as a Solid resource. The controller fetches, caches and decides
 * staleness; this file only translates its stream into a signal and a `Resource<T>`.
 *
 * @example
 * import { ControllerProvider, createQuery } from 'rx-rest/solid';
 */
import {
  batch,
  createComponent,
  createComputed,
  createContext,
  createMemo,
  createResource,
  createSignal,
  from,
  getListener,
  onCleanup,
  startTransition,
  untrack,
  useContext,
  useTransition,
  type Accessor,
  type JSX,
  type Resource,
} from 'solid-js';
import { isServer } from 'solid-js/web';
import {
  fromServer,
  hydratedState,
  readingData,
  restoreSentErrors,
  serverQuery,
  serverState,
  type QueryResource,
  type Request,
} from './ssr.js';
import { reconcileRows } from './rows.js';
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
  refuseEnabled,
  unsubscribeQuery,
} from '../../core/internal.js';
import type { InfiniteState, Mutation, MutationState, QueryState, ReadEndpoint } from '../../core/index.js';

const ControllerContext = createContext<Controller>();

/** The argument object of a read endpoint (`undefined` for one that takes none). */
export type { QueryArgs };

export type { QueryOptions, QueryResult } from '../../core/index.js';
export { controllerPerRequest, preloadQuery } from './ssr.js';
export type { QueryResource };

/** The options of `createQueryState`: the core's, and whether entities become long-lived rows. */
export interface SolidStateOptions extends QueryOptions {
  /**
   * Each entity of the data as a row that lives as long as the query, keyed by its table and pk (the
   * top-level entity, those of a top-level array, and those of an object's array or entity members): a
   * read-only view of the entity's latest record whose fields are tracked. A changed record updates its
   * row in place, so `<For>` keeps the row's DOM (focus, an input's value) and re-renders only what read
   * the row (once a field has changed, its later changes re-run only what read that field); an array
   * whose entities are the same rows as before stays the same array. Rows are instances of the entity class (`pk()` and methods
   * work) but not the cache's objects: write with `controller.set` or a mutation (assigning a field
   * throws). A first render costs a proxy per row. Default false: entities are the core's objects (a
   * changed record is a new object, and `<For>` makes its row again).
   */
  readonly reconcile?: boolean | undefined;
}

/** `createQuery`'s options: the core's, whether entities become long-lived rows, and how a server render streams. */
export interface SolidQueryOptions extends SolidStateOptions {
  /**
   * On the server, hold the stream's first flush until this query resolved (Solid's `deferStream`),
   * so that a failure can still set the response's status and headers. Default false: the page's
   * shell streams at once and this query's HTML and data follow in the same response.
   */
  readonly deferStream?: boolean | undefined;
}

/** What `createQuery` takes as args: an accessor (reactive), or a plain value; `null` keeps it idle. */
export type QueryArgsInput<E> = QueryArgs<E> | null | Accessor<QueryArgs<E> | null>;

/**
 * The parameters after the endpoint of `createQuery`, `useSuspense`, (with its options `O`) `createQueryState`
 * and `createInfiniteQuery`: `args`, left out where the endpoint's may be (Data Client's `useSuspense(endpoint)`:
 * a list whose search parameters are optional), then `options`.
 */
type ArgsThenOptions<E, O = Controller | SolidQueryOptions> =
  undefined extends QueryArgs<E> ? [args?: QueryArgsInput<E>, options?: O] : [args: QueryArgsInput<E>, options?: O];

/**
 * Makes `controller` the one `useController` and `createQuery` find below it.
 *
 * @example
 * <ControllerProvider controller={new Controller()}><App /></ControllerProvider>
 */
export function ControllerProvider(props: { controller: Controller; children?: JSX.Element }): JSX.Element {
  // read once: `controller={new Controller()}` compiles to a getter that makes a controller on every read
  const controller = props.controller;
  // a development check (a production build leaves it out: useController then says that none is in context)
  const given: unknown = controller;
  if (process.env.NODE_ENV !== 'production' && typeof (given as Partial<Controller> | null)?.observe !== 'function') {
    throw new TypeError(
      `rx-rest/solid: <ControllerProvider controller={...}> expects a Controller, got ${given === null ? 'null' : typeof given === 'object' ? 'an object that is not one' : typeof given}. ` +
        'Pass new Controller() (on a server, one per request: controllerPerRequest).',
    );
  }
  restoreSentErrors(); // while hydrating: before an <ErrorBoundary> below loads what the server sent
  return createComponent(ControllerContext.Provider, {
    value: controller,
    get children() {
      return props.children;
    },
  });
}

/** The controller of the nearest `<ControllerProvider>` (for `controller.fetch`, ...); throws a TypeError when there is none. */
export function useController(): Controller {
  const controller = useContext(ControllerContext);
  if (!controller) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? 'rx-rest/solid: no Controller in context. Wrap your app in <ControllerProvider controller={new Controller()}>, or pass the controller explicitly: createQuery(endpoint, () => args, { controller }).'
        : 'rx-rest/solid: no Controller in context',
    );
  }
  return controller;
}

/**
 * The full live state of one request as an accessor (`state().data`, `state().loading`, ...), for UI
 * that shows loading, refresh and background errors itself instead of suspending. Polls when the
 * endpoint has `pollFrequency`. Subscribed in the calling scope; unsubscribed on its cleanup. Inside a
 * `<Suspense>` on the server (`renderToStringAsync`, `renderToStream`) the boundary waits for its data,
 * which is sent with the page and restored while hydrating (no request), as with `createQuery`.
 *
 * @example
 * const todos = createQueryState(TodoResource.getList, () => ({ userId: userId() }));
 * <Show when={!todos().loading} fallback="Loading…">{todos().data?.length} todos</Show>
 */
export function createQueryState<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E, Controller | SolidStateOptions>
): Accessor<QueryResult<EndpointData<E>>>;
export function createQueryState<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SolidStateOptions,
): Accessor<QueryResult<EndpointData<E>>> {
  const call = 'createQueryState';
  if (process.env.NODE_ENV !== 'production') checkArgs(endpoint, options, call);
  const controller = controllerOf(options);
  const request = requestOf(endpoint, args, call);
  // on the server no hydration (whose resource would take an id the browser's render does not have)
  const state = observeIn(
    endpoint,
    request,
    controller,
    call,
    options,
    true,
    isServer ? undefined : hydratedState(controller, request),
  );
  return isServer ? serverState(controller, endpoint, request, state) : state;
}

/**
 * The data of one request as a Solid `Resource`: suspends in `<Suspense>` until the first data,
 * throws a surfaced error to `<ErrorBoundary>`, then updates in place on every later emission (data invalidated
 * or deleted stays until its refetch answers: the new data, or the error for `<ErrorBoundary>`).
 * A changed accessor value switches requests (also inside `startTransition`); `() => null` keeps it
 * idle. With `keepPreviousData` a switch never suspends: the old data stays, `todos.placeholder` true.
 *
 * @example
 * const todos = createQuery(TodoResource.getList, () => ({ userId: props.userId }), { keepPreviousData: true });
 * <Suspense fallback="Loading…"><ul classList={{ dim: todos.placeholder }}><For each={todos()}>{(todo) => <li>{todo.title}</li>}</For></ul></Suspense>
 */
export function createQuery<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E>
): QueryResource<EndpointData<E>>;
export function createQuery<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SolidQueryOptions,
): QueryResource<EndpointData<E>> {
  return queryResource(endpoint, args, options, true, 'createQuery');
}

/** The seed's name for `createQuery` (suspending, polls when the endpoint has `pollFrequency`). */
export const useLive: typeof createQuery = createQuery;

/** Like `createQuery` (a suspending `Resource`), but never polls. */
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E>
): QueryResource<EndpointData<E>>;
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options?: Controller | SolidQueryOptions,
): QueryResource<EndpointData<E>> {
  return queryResource(endpoint, args, options, false, 'useSuspense');
}

/**
 * The suspending resource of `createQuery` and `useSuspense` (`name`). On the server it resolves (see
 * ssr.ts); in the browser, while hydrating, what the server sent for it is restored first (no request).
 */
function queryResource<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options: Controller | SolidQueryOptions | undefined,
  poll: boolean,
  call: string,
): QueryResource<EndpointData<E>> {
  if (process.env.NODE_ENV !== 'production') checkArgs(endpoint, options, call);
  const controller = controllerOf(options);
  assertAlive(controller, call); // before hydration or the server read the controller
  const request = requestOf(endpoint, args, call);
  if (isServer) {
    const defer = !!options && 'deferStream' in options && !!options.deferStream;
    return serverQuery(controller, endpoint, request, defer);
  }
  const hydrating = fromServer(controller, untrack(request).key);
  const state = observeIn(endpoint, request, controller, call, options, poll, hydrating?.ready);
  return suspending(state, request, hydrating?.sent);
}

/** `createMutation`'s result: its state as accessors, `mutate` and `reset`. */
export type MutationAccessors<E extends ControllerEndpoint> = {
  readonly [K in keyof MutationState<EndpointData<E>>]: Accessor<MutationState<EndpointData<E>>[K]>;
} & Pick<Mutation<E>, 'mutate' | 'reset'>;

/**
 * A mutation with `pending()`, `error()` and `data()`. `mutate(...args)` returns the `controller.fetch`
 * promise; each call resolves its own result and the state follows the latest. Optimistic endpoints
 * show at once.
 *
 * @example
 * const rename = createMutation(TodoResource.partialUpdate);
 * <button disabled={rename.pending()} onClick={() => rename.mutate({ id }, { title })}>Save</button>
 */
export function createMutation<E extends ControllerEndpoint>(
  endpoint: E,
  options?: Controller | Pick<QueryOptions, 'controller'>,
): MutationAccessors<E> {
  if (process.env.NODE_ENV !== 'production') checkArgs(endpoint, options, 'createMutation');
  // development: on a disposed controller, an error that names `mutate`, not the `controller.fetch` it calls
  const { state$, mutate, reset } = observeMutation(
    process.env.NODE_ENV !== 'production'
      ? fetchNamed(controllerOf(options), 'createMutation(...).mutate')
      : controllerOf(options),
    endpoint,
  );
  const state = from(state$) as Accessor<MutationState<EndpointData<E>>>; // a BehaviorSubject: set on subscribe
  return { pending: () => state().pending, error: () => state().error, data: () => state().data, mutate, reset };
}

/** `createInfiniteQuery`'s result: an accessor of the list's state with `hasNext` and `fetchingNext`, and `loadNext`. */
export type InfiniteAccessor<T> = Accessor<InfiniteState<T> & Pick<QueryResult<T>, 'placeholder'>> & {
  /** Fetches the next page into the list; never rejects (a failure shows as `error`). */
  loadNext(): Promise<void>;
};

/**
 * An infinite list (pages by number, or by a cursor read from `{ results, next }` responses) as one
 * normalized list, without suspense. A changed accessor value starts a new list (`keepPreviousData`:
 * the old list stays, `placeholder` true, until the new first page arrives). Inside a `<Suspense>` on
 * the server its first page resolves, is sent with the page and restored while hydrating.
 *
 * @example
 * const feed = createInfiniteQuery(TodoResource.getList, () => ({ userId: userId() }), { pageSize: 20 });
 * <For each={feed().data}>{(todo) => <li>{todo.title}</li>}</For>
 * <Show when={feed().hasNext}><button disabled={feed().fetchingNext} onClick={feed.loadNext}>Load more</button></Show>
 */
export function createInfiniteQuery<E extends ReadEndpoint>(
  endpoint: E,
  ...args: ArgsThenOptions<E, InfiniteOptions & QueryOptions>
): InfiniteAccessor<EndpointData<E>>;
export function createInfiniteQuery<E extends ReadEndpoint>(
  endpoint: E,
  args?: QueryArgsInput<E>,
  options: InfiniteOptions & QueryOptions = {},
): InfiniteAccessor<EndpointData<E>> {
  if (process.env.NODE_ENV !== 'production') checkArgs(endpoint, options, 'createInfiniteQuery');
  const controller = controllerOf(options);
  const source = infiniteSource(controller, endpoint, options);
  const request = requestOf(endpoint, args, 'createInfiniteQuery');
  const alive = () => assertAlive(controller, 'createInfiniteQuery');
  const peek = (list: EndpointArgs<E>) => (alive(), source.peek(list));
  const open = (list: EndpointArgs<E>) => (alive(), source.open(list));
  const state = follow(request, peek, open, isServer ? undefined : hydratedState(controller, request));
  return Object.assign(isServer ? serverState(controller, endpoint, request, state) : state, {
    loadNext: source.loadNext,
  });
}

function controllerOf(options: Controller | Pick<QueryOptions, 'controller'> | undefined): Controller {
  const given = options && 'fetch' in options ? options : options?.controller; // a Controller, or options holding one
  return given ?? useController();
}

/**
 * Development (each call site runs it under `process.env.NODE_ENV !== 'production'`): a TypeError naming
 * `call`, the function the app called, for an endpoint or options (or their `controller`) that are not one.
 */
function checkArgs(endpoint: unknown, options: unknown, call: string): void {
  checkVerbTarget(`rx-rest/solid: ${call}`, endpoint);
  refuseEnabled(`rx-rest/solid: ${call}`, options);
  if (options == null) return;
  if (typeof options !== 'object') badOptions(options);
  const given = 'fetch' in options ? options : (options as { controller?: unknown }).controller;
  if (given != null && typeof (given as Partial<Controller>).observe !== 'function') badOptions(given, '.controller');
}

/** Development: the TypeError of options (or their `controller`: `member`) that are not what they should be. */
function badOptions(given: unknown, member = ''): never {
  throw new TypeError(
    `rx-rest/solid: the options (the last argument) of createQuery, createQueryState, useSuspense, createInfiniteQuery or createMutation must be { controller?, ... } or a Controller; got ${typeof given} as options${member}. Pass { controller } with the app's Controller, or leave it out to use the one <ControllerProvider> gives.`,
  );
}

/**
 * The request the args ask for, as a memo that changes only with the request key. `name`, the function
 * the app called, is the one the error that refuses a mutation endpoint names.
 */
function requestOf<E extends ReadEndpoint>(endpoint: E, args: QueryArgsInput<E>, name: string): Accessor<Request<E>> {
  assertReadEndpoint(endpoint, name);
  const read = typeof args === 'function' ? (args as Accessor<QueryArgs<E> | null>) : () => args as QueryArgs<E> | null;
  return createMemo(
    () => {
      const value = read();
      const list = (value === null ? [null] : value === undefined ? [] : [value]) as EndpointArgs<E>;
      try {
        return { list, key: value === null ? null : endpoint.key(...list) };
      } catch (error) {
        // bad URL args: in the browser `open` gives their error state (as `observe` does); a server render throws
        // the error to the <ErrorBoundary>, as it does a failed query's
        if (isServer) throw error;
        return { list, key: undefined };
      }
    },
    undefined,
    { equals: (a, b) => a?.key === b?.key },
  );
}

/** The emissions waiting for the end of the task (the latest of each subscription). */
const queued = new Map<object, () => void>();
let scheduled = false;

/** Commits the waiting emissions together, in one `batch`, at the end of the task. */
function endOfTask() {
  scheduled = false;
  const commits = [...queued.values()];
  queued.clear();
  batch(() => commits.forEach((commit) => commit()));
}

/** Brings the task's writes to every query now: the waiting re-reads, then their commits (a row read in an event handler). */
function commitNow() {
  flushQueries();
  if (queued.size) endOfTask();
}

/**
 * Follows `open(args)` in the calling scope (a new request key resubscribes; not before `ready`); on
 * the server, `peek(args)` only. A subscription left (a new key, the scope's cleanup) while its request is in
 * flight ends at the end of the task, unheard, so that a query made again in the task joins the request
 * instead of aborting it. A subscription's first emission (synchronous, on subscribe) is set at
 * once; later emissions wait for the end of the task (a microtask) and render once, the latest of each
 * query, in one `batch` with every other query's: a burst of writes costs one render, not one per write.
 * Read outside a tracking scope (an event handler, a test), the accessor gives the latest emission at
 * once. `present` maps what is set (once per render, not per emission).
 */
function follow<E extends ReadEndpoint, S>(
  request: Accessor<Request<E>>,
  peek: (list: EndpointArgs<E>) => S,
  open: (list: EndpointArgs<E>) => { subscribe(next: (state: S) => void): { unsubscribe(): void } },
  ready?: Accessor<boolean>,
  present: (state: S) => S = (state) => state,
): Accessor<S> {
  if (isServer) return () => peek(request().list);
  const [state, setState] = createSignal<S>(untrack(() => present(peek(request().list))));
  const [waiting] = useTransition();
  // an update while a transition waits joins it: what it renders commits with the transition's values
  const commit = (next: S) =>
    untrack(waiting) ? void startTransition(() => setState(() => present(next))) : setState(() => present(next));
  let token: object | undefined;
  createComputed(() => {
    if (ready && !ready()) return; // hydrating: what the server sent is still on its way
    const own = (token = {});
    let first = true;
    let left = false;
    let last: S | undefined;
    const subscription = open(request().list).subscribe((next) => {
      if (left) return;
      last = next;
      if (first) return commit(next);
      if (!scheduled) afterQueries(endOfTask);
      scheduled = true;
      queued.set(own, () => commit(next));
    });
    first = false;
    onCleanup(() => {
      left = true;
      queued.delete(own);
      unsubscribeQuery(subscription, last); // in flight, at the end of the task: a query made again joins the request
    });
  });
  return () => {
    if (!getListener() && token) flushQueries(); // a write of this task re-reads the store at once
    const waitingCommit = !getListener() && token && queued.get(token);
    if (waitingCommit) {
      queued.delete(token!);
      waitingCommit();
    }
    return state();
  };
}

/** The query state in the calling scope; with `keepPreviousData` the data on screen stays while new args load. */
function observeIn<E extends ReadEndpoint>(
  endpoint: E,
  request: Accessor<Request<E>>,
  controller: Controller,
  call: string,
  options: Controller | SolidStateOptions | undefined,
  poll: boolean,
  ready?: Accessor<boolean>,
): Accessor<QueryResult<EndpointData<E>>> {
  const given = !!options && !('fetch' in options) ? options : undefined;
  const kept = keepPrevious<QueryState<EndpointData<E>>>(!!given?.keepPreviousData, { controller, endpoint });
  // a disposed controller's error names the function the user called, not peekQuery or watchQuery
  const alive = () => assertAlive(controller, call);
  const peek = (list: EndpointArgs<E>) => (alive(), kept(peekQuery(controller, endpoint, ...list)));
  const open = (list: EndpointArgs<E>) => (
    alive(),
    kept.open(list, watchQuery(controller, endpoint, list, { poll, batch: true }))
  );
  return follow(request, peek, open, ready, given?.reconcile ? reconciled() : undefined);
}

/**
 * The state with the data's entities as long-lived rows (`reconcile`); a state whose data and fields are all as
 * before is the state before (no update).
 */
function reconciled<S extends QueryResult<unknown>>(): (state: S) => S {
  const rows = reconcileRows(commitNow);
  let last: S | undefined;
  return (viewed) => {
    const data = rows(viewed.data);
    const same =
      !!last &&
      (Object.keys(viewed) as (keyof S)[]).every((key) => (key === 'data' ? data : viewed[key]) === last![key]);
    return (last = same ? last! : data === viewed.data ? viewed : { ...viewed, data });
  };
}

/**
 * A `Resource` whose source is the query state: every emission is a new load, answered synchronously
 * (data, or a thrown error), so it updates in place; only a loading state leaves a pending promise, unless
 * the request showed data: invalidated or deleted data is kept (TanStack's refetch) until the refetch answers.
 * While hydrating, its first value is what the server sent (`sent`): it reads the state's data instead.
 * (One form, `readingData`'s, with or without `sent`: a view of the resource with its fields and `placeholder`.)
 */
function suspending<T>(
  state: Accessor<QueryResult<T>>,
  request: Accessor<{ key: unknown }>,
  sent?: (held: unknown) => boolean,
): QueryResource<T> {
  // the last data of the request shown (a switch of request forgets it: a request with no data suspends)
  let key = untrack(request).key;
  let last = untrack(state).data;
  const [resource] = createResource<T | undefined, QueryResult<T>>(state, (current) => {
    if (key !== (key = untrack(request).key)) last = undefined;
    if (current.loading) return last ?? new Promise<T>(() => {}); // replaced by the load of the next emission
    if (current.error && current.data === undefined) {
      last = undefined; // the refetch answered: nothing is kept after its error
      throw current.error;
    }
    return (last = current.data); // undefined when idle
  });
  return readingData(
    resource as Resource<unknown>,
    () => state().data,
    sent ?? (() => false),
    () => state().placeholder,
  );
}
