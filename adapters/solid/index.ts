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
  onCleanup,
  useContext,
  type Accessor,
  type JSX,
  type Resource,
} from 'solid-js';
import { isServer } from 'solid-js/web';
import {
  IDLE,
  type Controller,
  type ControllerEndpoint,
  type EndpointArgs,
  type EndpointData,
  type QueryArgs,
  type QueryState,
} from '../../core/index.js';

const ControllerContext = createContext<Controller>();

/** The argument object of a read endpoint (`undefined` for one that takes none). */
export type { QueryArgs };

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

/**
 * The controller of the nearest `<ControllerProvider>`; throws when there is none.
 *
 * @example
 * const controller = useController();
 * const toggle = (todo: Todo) => controller.fetch(TodoResource.partialUpdate, { id: todo.id }, { completed: !todo.completed });
 */
export function useController(): Controller {
  const controller = useContext(ControllerContext);
  if (!controller) {
    throw new Error(
      'rx-rest/solid: no Controller in context. Wrap your app in <ControllerProvider controller={new Controller()}>, or pass the controller explicitly: createQuery(endpoint, () => args, controller).',
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
export function createQueryState<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): Accessor<QueryState<EndpointData<E>>> {
  return observeIn(endpoint, args, controller ?? useController(), true);
}

/**
 * The data of one request as a Solid `Resource`: suspends in `<Suspense>` until the first data,
 * throws a surfaced error to `<ErrorBoundary>`, then updates in place on every later emission.
 * A changed accessor value switches requests; `() => null` keeps it idle. Polls with `pollFrequency`.
 *
 * @example
 * const todos = createQuery(TodoResource.getList, () => ({ userId: props.userId }));
 * <Suspense fallback="Loading…"><For each={todos()}>{(todo) => <li>{todo.title}</li>}</For></Suspense>
 */
export function createQuery<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): Resource<EndpointData<E>> {
  return suspending(observeIn(endpoint, args, controller ?? useController(), true));
}

/**
 * The seed's name for `createQuery` (suspending, polls when the endpoint has `pollFrequency`).
 *
 * @example
 * const prices = useLive(PriceResource.getList, () => ({ market: 'eu' }));
 */
export const useLive: typeof createQuery = createQuery;

/**
 * Like `createQuery` (a suspending `Resource`), but never polls.
 *
 * @example
 * const todo = useSuspense(TodoResource.get, () => ({ id: params.id }));
 */
export function useSuspense<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): Resource<EndpointData<E>> {
  return suspending(observeIn(endpoint, args, controller ?? useController(), false));
}

/** Subscribes to the current request in the calling scope; a new request key resubscribes, cleanup unsubscribes. */
function observeIn<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller: Controller,
  poll: boolean,
): Accessor<QueryState<EndpointData<E>>> {
  const read = typeof args === 'function' ? (args as Accessor<QueryArgs<E> | null>) : () => args as QueryArgs<E> | null;
  const request = createMemo(
    () => {
      const value = read();
      const list = value === undefined ? [] : [value];
      return value === null ? null : { list, key: endpoint.key(...(list as EndpointArgs<E>)) };
    },
    undefined,
    { equals: (a, b) => a?.key === b?.key },
  );
  if (isServer) {
    // Server rendering: read what the per-request controller already holds; no fetch, no timer.
    return () => (request() ? controller.peek(endpoint, ...(request()!.list as EndpointArgs<E>)) : IDLE);
  }
  const [state, setState] = createSignal<QueryState<EndpointData<E>>>(IDLE);
  createComputed(() => {
    const current = request();
    const subscription = controller
      .watch(endpoint, current ? (current.list as EndpointArgs<E>) : [null], { poll })
      .subscribe(setState);
    onCleanup(() => subscription.unsubscribe());
  });
  return state;
}

/**
 * A `Resource` whose source is the query state: every emission is a new load, answered synchronously
 * (the data, or a thrown error for `<ErrorBoundary>`), so it updates in place. Only a loading state
 * leaves a pending promise, which is what `<Suspense>` waits for.
 */
function suspending<T>(state: Accessor<QueryState<T>>): Resource<T> {
  if (isServer) {
    return createResource(
      () => false,
      () => undefined as T,
      { initialValue: state().data as T, ssrLoadFrom: 'initial' },
    )[0] as Resource<T>;
  }
  const [resource] = createResource<T | undefined, QueryState<T>>(state, (current) => {
    if (current.loading) return new Promise<T>(() => {}); // replaced by the load of the next emission
    if (current.error && current.data === undefined) throw current.error;
    return current.data; // undefined when idle
  });
  return resource as Resource<T>;
}
