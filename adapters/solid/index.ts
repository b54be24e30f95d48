/**
 * rx-rest/solid: `controller.observe` as a Solid resource. The controller fetches, caches and decides
 * staleness; this file only translates its stream into a signal and a `Resource<T>`.
 *
 * @example
 * import { ControllerProvider, createQuery } from 'rx-rest/solid';
 */
import {
  createComponent,
  createComputed,
  createContext,
  createMemo,
  createResource,
  createSignal,
  from,
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
import { fromServer, readingData, serverQuery, type QueryResource, type Request } from './ssr.js';
import { map } from 'rxjs';
import type {
  Controller,
  ControllerEndpoint,
  EndpointArgs,
  EndpointData,
  QueryArgs,
  QueryOptions,
  QueryResult,
} from '../../core/index.js';
import { keepPrevious, infiniteSource, observeMutation, type InfiniteOptions } from '../../core/index.js';
import { assertReadEndpoint } from '../../core/internal.js';
import type { InfiniteState, Mutation, MutationState, QueryState, ReadEndpoint } from '../../core/index.js';

const ControllerContext = createContext<Controller>();

/** The argument object of a read endpoint (`undefined` for one that takes none). */
export type { QueryArgs };

export type { QueryOptions, QueryResult } from '../../core/index.js';
export { controllerPerRequest, preloadQuery } from './ssr.js';
export type { QueryResource };

/** `createQuery`'s options: the core's, and how a server render streams. */
export interface SolidQueryOptions extends QueryOptions {
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
 * Makes `controller` the one `useController` and `createQuery` find below it.
 *
 * @example
 * <ControllerProvider controller={new Controller()}><App /></ControllerProvider>
 */
export function ControllerProvider(props: { controller: Controller; children?: JSX.Element }): JSX.Element {
  return createComponent(ControllerContext.Provider, {
    get value() {
      return props.controller;
    },
    get children() {
      return props.children;
    },
  });
}

/** The controller of the nearest `<ControllerProvider>` (for `controller.fetch`, ...); throws when there is none. */
export function useController(): Controller {
  const controller = useContext(ControllerContext);
  if (!controller) {
    throw new Error(
      'rx-rest/solid: no Controller in context. Wrap your app in <ControllerProvider controller={new Controller()}>, or pass the controller explicitly: createQuery(endpoint, () => args, { controller }).',
    );
  }
  return controller;
}

/**
 * The full live state of one request as an accessor (`state().data`, `state().loading`, ...), for UI
 * that shows loading, refresh and background errors itself instead of suspending. Polls when the
 * endpoint has `pollFrequency`. Subscribed in the calling scope; unsubscribed on its cleanup.
 *
 * @example
 * const todos = createQueryState(TodoResource.getList, () => ({ userId: userId() }));
 * <Show when={!todos().loading} fallback="Loading…">{todos().data?.length} todos</Show>
 */
export function createQueryState<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options?: Controller | QueryOptions,
): Accessor<QueryResult<EndpointData<E>>> {
  return observeIn(endpoint, requestOf(endpoint, args), controllerOf(options), options, true);
}

/**
 * The data of one request as a Solid `Resource`: suspends in `<Suspense>` until the first data,
 * throws a surfaced error to `<ErrorBoundary>`, then updates in place on every later emission.
 * A changed accessor value switches requests (also inside `startTransition`); `() => null` keeps it
 * idle. With `keepPreviousData` a switch never suspends: the old data stays, `todos.placeholder` true.
 *
 * @example
 * const todos = createQuery(TodoResource.getList, () => ({ userId: props.userId }), { keepPreviousData: true });
 * <Suspense fallback="Loading…"><ul classList={{ dim: todos.placeholder }}><For each={todos()}>{(todo) => <li>{todo.title}</li>}</For></ul></Suspense>
 */
export function createQuery<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options?: Controller | SolidQueryOptions,
): QueryResource<EndpointData<E>> {
  return queryResource(endpoint, args, options, true);
}

/** The seed's name for `createQuery` (suspending, polls when the endpoint has `pollFrequency`). */
export const useLive: typeof createQuery = createQuery;

/** Like `createQuery` (a suspending `Resource`), but never polls. */
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options?: Controller | SolidQueryOptions,
): QueryResource<EndpointData<E>> {
  return queryResource(endpoint, args, options, false);
}

/**
 * The suspending resource of `createQuery` and `useSuspense`. On the server it resolves (see ssr.ts);
 * in the browser, while hydrating, what the server sent for it is restored first (no request).
 */
function queryResource<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options: Controller | SolidQueryOptions | undefined,
  poll: boolean,
): QueryResource<EndpointData<E>> {
  const controller = controllerOf(options);
  const request = requestOf(endpoint, args);
  if (isServer) {
    const defer = !!options && 'deferStream' in options && !!options.deferStream;
    return serverQuery(controller, endpoint, request, defer);
  }
  const hydrating = fromServer(controller, untrack(request).key);
  const state = observeIn(endpoint, request, controller, options, poll, hydrating?.ready);
  return suspending(state, hydrating?.sent);
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
  const { state$, mutate, reset } = observeMutation(controllerOf(options), endpoint);
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
 * the old list stays, `placeholder` true, until the new first page arrives).
 *
 * @example
 * const feed = createInfiniteQuery(TodoResource.getList, () => ({ userId: userId() }), { pageSize: 20 });
 * <For each={feed().data}>{(todo) => <li>{todo.title}</li>}</For>
 * <Show when={feed().hasNext}><button disabled={feed().fetchingNext} onClick={feed.loadNext}>Load more</button></Show>
 */
export function createInfiniteQuery<E extends ReadEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  options: InfiniteOptions & QueryOptions = {},
): InfiniteAccessor<EndpointData<E>> {
  const source = infiniteSource(controllerOf(options), endpoint, options);
  return Object.assign(follow(requestOf(endpoint, args), source.peek, source.open), { loadNext: source.loadNext });
}

function controllerOf(options: Controller | Pick<QueryOptions, 'controller'> | undefined): Controller {
  const given = options && 'fetch' in options ? options : options?.controller; // a Controller, or options holding one
  return given ?? useController();
}

/** Follows `open(args)` in the calling scope (a new request key resubscribes); on the server, `peek(args)` only. */
/** The request the args ask for, as a memo that changes only with the request key. */
function requestOf<E extends ReadEndpoint>(endpoint: E, args: QueryArgsInput<E>): Accessor<Request<E>> {
  assertReadEndpoint(endpoint, 'createQuery');
  const read = typeof args === 'function' ? (args as Accessor<QueryArgs<E> | null>) : () => args as QueryArgs<E> | null;
  return createMemo(
    () => {
      const value = read();
      const list = (value === null ? [null] : value === undefined ? [] : [value]) as EndpointArgs<E>;
      return { list, key: value === null ? null : endpoint.key(...list) };
    },
    undefined,
    { equals: (a, b) => a?.key === b?.key },
  );
}

/**
 * Follows `open(args)` in the calling scope (a new request key resubscribes; not before `ready`); on
 * the server, `peek(args)` only.
 */
function follow<E extends ReadEndpoint, S>(
  request: Accessor<Request<E>>,
  peek: (list: EndpointArgs<E>) => S,
  open: (list: EndpointArgs<E>) => { subscribe(next: (state: S) => void): { unsubscribe(): void } },
  ready?: Accessor<boolean>,
): Accessor<S> {
  if (isServer) return () => peek(request().list);
  const [state, setState] = createSignal<S>(untrack(() => peek(request().list)));
  const [waiting] = useTransition();
  createComputed(() => {
    if (ready && !ready()) return; // hydrating: what the server sent is still on its way
    const subscription = open(request().list).subscribe((next) =>
      // an update while a transition waits joins it: what it renders commits with the transition's values
      untrack(waiting) ? void startTransition(() => setState(() => next)) : setState(() => next),
    );
    onCleanup(() => subscription.unsubscribe());
  });
  return state;
}

/** The query state in the calling scope; with `keepPreviousData` the data on screen stays while new args load. */
function observeIn<E extends ReadEndpoint>(
  endpoint: E,
  request: Accessor<Request<E>>,
  controller: Controller,
  options: Controller | QueryOptions | undefined,
  poll: boolean,
  ready?: Accessor<boolean>,
): Accessor<QueryResult<EndpointData<E>>> {
  const view = keepPrevious<QueryState<EndpointData<E>>>(
    !!options && 'keepPreviousData' in options && !!options.keepPreviousData,
  );
  const peek = (list: EndpointArgs<E>) => view(controller.peek(endpoint, ...list));
  const open = (list: EndpointArgs<E>) => controller.watch(endpoint, list, { poll }).pipe(map(view));
  return follow(request, peek, open, ready);
}

/**
 * A `Resource` whose source is the query state: every emission is a new load, answered synchronously
 * (data, or a thrown error), so it updates in place; only a loading state leaves a pending promise.
 * While hydrating, its first value is what the server sent (`sent`): it reads the state's data instead.
 */
function suspending<T>(state: Accessor<QueryResult<T>>, sent?: (held: unknown) => boolean): QueryResource<T> {
  const [resource] = createResource<T | undefined, QueryResult<T>>(state, (current) => {
    if (current.loading) return new Promise<T>(() => {}); // replaced by the load of the next emission
    if (current.error && current.data === undefined) throw current.error;
    return current.data; // undefined when idle
  });
  const placeholder = () => state().placeholder;
  if (!sent) return Object.defineProperty(resource, 'placeholder', { get: placeholder }) as QueryResource<T>;
  return readingData(resource as Resource<unknown>, () => state().data, sent, placeholder);
}
