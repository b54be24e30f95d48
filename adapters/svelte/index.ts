/**
 * rx-rest/svelte: `controller.observe` as a Svelte store. The controller fetches, caches and decides
 * staleness; this file only translates its stream into `Readable<QueryState<T>>`.
 *
 * @example
 * import { createQuery, setController } from 'rx-rest/svelte';
 */
import { getContext, setContext } from 'svelte';
import { fromStore, readable, toStore, type Readable } from 'svelte/store';
import {
  IDLE,
  type Controller,
  type ControllerEndpoint,
  type EndpointArgs,
  type EndpointData,
  type QueryArgs,
  type QueryState,
} from '../../core/index.js';

const KEY = Symbol.for('rx-rest/svelte controller'); // Symbol.for: two copies of the package share it

/** The argument object of a read endpoint (`undefined` for one that takes none). */
export type { QueryArgs };

/** What `createQuery` takes as args: a value, `null` (idle), a store of them, or a getter read in runes code. */
export type QueryArgsInput<E> = QueryArgs<E> | null | Readable<QueryArgs<E> | null> | (() => QueryArgs<E> | null);

/**
 * Puts a controller in Svelte context for `createQuery` in this component and its children. Call it
 * during component initialisation, once per app (or once per server request).
 *
 * @example
 * <script>setController(new Controller({ initialState: data.rxRestState }));</script>
 */
export function setController(controller: Controller): Controller {
  return setContext(KEY, controller);
}

/**
 * The controller of the nearest `setController`; throws when there is none.
 *
 * @example
 * const controller = getController();
 * const save = () => controller.fetch(TodoResource.partialUpdate, { id }, { completed: true });
 */
export function getController(): Controller {
  const controller = getContext<Controller | undefined>(KEY);
  if (!controller) {
    throw new Error(
      'rx-rest/svelte: no Controller in context. Call setController(new Controller()) in a parent component (during its initialisation), or pass the controller explicitly: createQuery(endpoint, args, controller).',
    );
  }
  return controller;
}

/**
 * The live state of one request as a Svelte store (`$todos.data`, `$todos.loading`, ...). Polls when
 * the endpoint has `pollFrequency`. A change of args (store or runes getter) switches to the new request.
 *
 * @example
 * const todos = createQuery(TodoResource.getList, () => ({ userId }));   // runes: a getter
 * const todo = createQuery(TodoResource.get, { id: 1 });                 // a value
 * {#each $todos.data ?? [] as todo (todo.id)}<li>{todo.title}</li>{/each}
 */
export function createQuery<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): Readable<QueryState<EndpointData<E>>> {
  return query(endpoint, args, controller ?? getController(), true);
}

/**
 * The seed's name for `createQuery` (live, polls when the endpoint has `pollFrequency`).
 *
 * @example
 * const prices = useLive(PriceResource.getList, { market: 'eu' });
 */
export const useLive: typeof createQuery = createQuery;

/**
 * Like `createQuery`, but never polls: the same read without a polling timer.
 *
 * @example
 * const todo = useSuspense(TodoResource.get, { id: 1 });
 */
export function useSuspense<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): Readable<QueryState<EndpointData<E>>> {
  return query(endpoint, args, controller ?? getController(), false);
}

/**
 * Runes form of `createQuery`: an object whose getters (`data`, `error`, `loading`, `fetching`,
 * `stale`) are reactive in runes code and `.svelte.ts` modules; subscribed while an effect reads it.
 *
 * @example
 * const todos = createQueryState(TodoResource.getList, () => ({ userId }));
 * {#if todos.loading}Loading…{:else}{todos.data?.length} todos{/if}
 */
export function createQueryState<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller?: Controller,
): QueryState<EndpointData<E>> {
  const box = fromStore(createQuery(endpoint, args, controller));
  return {
    get data() {
      return box.current.data;
    },
    get error() {
      return box.current.error;
    },
    get loading() {
      return box.current.loading;
    },
    get fetching() {
      return box.current.fetching;
    },
    get stale() {
      return box.current.stale;
    },
    get paused() {
      return box.current.paused;
    },
  };
}

function isReadable(value: unknown): value is Readable<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { subscribe?: unknown }).subscribe === 'function'
  );
}

function toReadable<A>(args: A | null | Readable<A | null> | (() => A | null)): Readable<A | null> {
  if (typeof args === 'function') return toStore(args as () => A | null);
  return isReadable(args) ? (args as Readable<A | null>) : readable(args as A | null);
}

const argList = (args: unknown): unknown[] => (args === undefined ? [] : [args]);

function query<E extends ControllerEndpoint>(
  endpoint: E,
  args: QueryArgsInput<E>,
  controller: Controller,
  poll: boolean,
): Readable<QueryState<EndpointData<E>>> {
  type State = QueryState<EndpointData<E>>;
  const args$ = toReadable<QueryArgs<E>>(args);
  // On the server a store is read once (subscribe, unsubscribe): read the snapshot, start nothing.
  if (typeof window === 'undefined') {
    return {
      subscribe: (run) =>
        args$.subscribe((a) => run(a === null ? IDLE : controller.peek(endpoint, ...(argList(a) as EndpointArgs<E>)))),
    };
  }
  return readable<State>(IDLE, (set) => {
    let key: string | null | undefined;
    let current: { unsubscribe(): void } | undefined;
    const stopArgs = args$.subscribe((a) => {
      const list = a === null ? [null] : argList(a);
      const next = a === null ? null : endpoint.key(...(list as EndpointArgs<E>));
      if (current && next === key) return; // same request: keep the subscription (and its data)
      current?.unsubscribe();
      key = next;
      current = controller.watch(endpoint, list as EndpointArgs<E>, { poll }).subscribe(set);
    });
    return () => {
      stopArgs();
      current?.unsubscribe();
    };
  });
}
