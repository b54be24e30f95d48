/**
 * Server rendering of `createQuery`: on the server its resource fetches (or reads what a route
 * preload fetched) and resolves with a snapshot of its request (`takeSnapshot(controller, { keys })`),
 * which Solid serializes into the page with the resource; in the browser, while hydrating, that snapshot
 * is restored into the controller before the query subscribes, so the query starts fresh and makes no
 * request, and the hydrated HTML matches. Also `controllerPerRequest`: one controller per server
 * request, one per browser tab.
 */
import {
  createResource,
  createSignal,
  getOwner,
  onMount,
  sharedConfig,
  untrack,
  type Accessor,
  type Resource,
} from 'solid-js';
import { getRequestEvent, isServer } from 'solid-js/web';
import type { Controller, EndpointArgs, EndpointData, ReadEndpoint, StateSnapshot } from '../../core/index.js';
import { ValidationError, holdHydration, peekQuery, restoreSnapshot, takeSnapshot } from '../../core/index.js';
import { checkVerbTarget } from '../../core/internal.js';

/** The arguments of one request and its key (`null`: idle; `undefined`: args the endpoint makes no URL of). */
export interface Request<E extends ReadEndpoint> {
  readonly list: EndpointArgs<E>;
  readonly key: string | null | undefined;
}

/** What a server-rendered query sends to the browser: its request key and the snapshot of its data. */
interface Sent {
  readonly 'rx-rest': string;
  readonly snapshot: StateSnapshot;
}

const isSent = (value: unknown, key: string | null): value is Sent =>
  typeof value === 'object' && value !== null && (value as Partial<Sent>)['rx-rest'] === key;

/** A promise as Solid's hydration gives it: `s` (1: resolved) and `v` once it settled. */
type Streamed = PromiseLike<unknown> & { s?: number; v?: unknown };

const isThenable = (value: unknown): value is Streamed =>
  typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';

/** `createQuery`'s result: a `Resource` of the data, and `placeholder` (previous args' data shown). */
export type QueryResource<T> = Resource<T> & { readonly placeholder: boolean };

/**
 * A resource that reads `value` (the data) wherever `resource` holds what the server sent instead of
 * it (`sent`; never, for a query that hydrates nothing); its `loading`, `error`, `state` and `latest` are the
 * resource's, and `placeholder` is the query's.
 */
export function readingData<T>(
  resource: Resource<unknown>,
  value: () => T | undefined,
  sent: (held: unknown) => boolean,
  placeholder: () => boolean,
): QueryResource<T> {
  const read = () => {
    const held = resource();
    return (sent(held) ? value() : held) as T;
  };
  return Object.defineProperties(read, {
    state: { get: () => resource.state },
    error: { get: () => resource.error },
    loading: { get: () => resource.loading },
    latest: { get: () => (sent(resource.latest) ? value() : resource.latest) },
    placeholder: { get: placeholder },
  }) as unknown as QueryResource<T>;
}

/** Whether the server render waits for resources (`renderToStringAsync`, `renderToStream`), not `renderToString`. */
const waits = () => !!(sharedConfig.context as { async?: boolean } | undefined)?.async;

/**
 * On the server, the resource of a query (`serverQuery`, `serverState`): it loads when `source` gives a key,
 * resolving once `controller` holds fresh data for the request (from a route preload, or fetched now) with the
 * snapshot of that request (`Sent`), which Solid writes into the page; a failure gives `failed` the snapshot and
 * the error. Under `renderToString`, which loads no resource, what the query rendered from the controller (`data`)
 * is written into the page under the resource's id all the same, so the browser restores it while hydrating (no
 * request, the same HTML) without a state handed by hand.
 */
function serverResource<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  request: Accessor<Request<E>>,
  data: () => unknown,
  source: () => string | null | undefined | false,
  failed: (sent: Sent, error: unknown) => Sent,
  deferStream?: boolean,
): Resource<Sent | undefined> {
  const sentOf = (key: string): Sent => ({ 'rx-rest': key, snapshot: takeSnapshot(controller, { keys: [key] }) });
  const context = sharedConfig.context as { serialize?: (id: string, value: unknown) => void } | undefined;
  const id = context && sharedConfig.getContextId(); // the resource's, made next
  const [resource] = createResource(
    source,
    (key): Sent | Promise<Sent> => {
      const { list } = request();
      const sent = () => sentOf(key);
      const stored = controller.getResponse(endpoint, ...list);
      if (stored.data !== undefined && !stored.stale && !stored.invalid) return sent();
      return controller.fetch(endpoint, ...list).then(sent, (error: unknown) => failed(sent(), error));
    },
    { deferStream },
  );
  const key = untrack(request).key;
  if (!waits() && key != null && untrack(data) !== undefined) context?.serialize?.(id!, sentOf(key));
  return resource;
}

/**
 * On the server: a resource that resolves once `controller` holds fresh data for the request (from a
 * route preload, or fetched now; a failure is its error, for `<ErrorBoundary>`, unless the data stays beside it,
 * as after a 5xx refresh of stale data), with the snapshot of that request as its value, which Solid writes into
 * the page (held back from the stream's first flush with `deferStream`). It reads the data from the controller.
 */
export function serverQuery<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  request: Accessor<Request<E>>,
  deferStream: boolean,
): QueryResource<EndpointData<E>> {
  const data = heldData(controller, endpoint, request);
  const resource = serverResource(
    controller,
    endpoint,
    request,
    data,
    // renderToString loads no resource (one with a source shows the boundary's fallback): not where data is held
    () => (waits() || data() === undefined) && request().key, // null: idle
    (sent, error) => {
      // a failure that keeps the data (a 5xx refresh of stale data): the data, as the browser shows it
      if (data() !== undefined) return sent;
      throw forThePage(sent.snapshot.meta[sent['rx-rest']]?.error ?? { message: String(error) });
    },
    deferStream,
  );
  // the controller's data in any case: a synchronous renderToString never loads the resource
  return readingData(
    resource,
    data,
    () => true,
    () => false,
  );
}

/** The data the controller holds for the request (undefined when idle). */
const heldData =
  <E extends ReadEndpoint>(controller: Controller, endpoint: E, request: Accessor<Request<E>>) =>
  () => {
    const { list, key } = request();
    return key === null ? undefined : peekQuery(controller, endpoint, ...list).data;
  };

/**
 * On the server, the state of a query that does not suspend (`createQueryState`, `createInfiniteQuery`):
 * like `serverQuery`, a resource that resolves once `controller` holds the request's first data (from a
 * preload, or fetched now) with the request's snapshot, so that an enclosing `<Suspense>` waits for it
 * under `renderToStringAsync`/`renderToStream` and Solid writes the snapshot into the page. A failure
 * resolves it too: the state shows the error, and the snapshot carries it (the request's meta).
 * Reading the state reads the resource (the boundary waits), then `state` (what the controller holds).
 */
export function serverState<E extends ReadEndpoint, S>(
  controller: Controller,
  endpoint: E,
  request: Accessor<Request<E>>,
  state: Accessor<S>,
): Accessor<S> {
  const resource = serverResource(
    controller,
    endpoint,
    request,
    heldData(controller, endpoint, request),
    // renderToString loads no resource: it renders the state (as the browser's first render does), not the fallback
    () => waits() && request().key, // null: idle
    // a failure is in the snapshot too (the request's meta holds it): the browser shows the same state
    (sent) => sent,
  );
  return () => {
    resource();
    return state();
  };
}

/**
 * In the browser, while hydrating, for a query that does not suspend: restores what the server sent
 * for its request (its data, or its failure) before the state is read, and takes the resource's place in the hydration (the server's `serverState` made one). Gives
 * `ready` (false while what was sent is still streaming), or undefined when not hydrating.
 */
export function hydratedState<E extends ReadEndpoint>(
  controller: Controller,
  request: Accessor<Request<E>>,
): Accessor<boolean> | undefined {
  if (!sharedConfig.context) return undefined;
  const hydrating = fromServer(controller, untrack(request).key);
  createResource(
    () => false,
    () => undefined,
  ); // the server's resource's hydration id
  return hydrating?.ready;
}

/**
 * The error a server render sends to the browser (Solid serializes it into the page): the request's error
 * as its snapshot holds it (its name, message and status, and a `ValidationError`'s issues in their JSON-safe
 * form, entity and pk); never its stack (the server's file paths) or its response.
 */
function forThePage(plain: { readonly message: string }): Error {
  const sent = Object.assign(new Error(), plain);
  delete sent.stack; // (the browser's Error gets its own)
  return sent;
}

/**
 * In the browser, while hydrating: a `ValidationError` the server sent with the page, which Solid gives as an
 * `Error` with its fields, made a `ValidationError` again as the page's values are loaded (`sharedConfig.load`):
 * in place, so that the promise of the resource that failed holds it too. `<ControllerProvider>` calls it, before
 * an `<ErrorBoundary>` below it loads the error it caught on the server (its children, the query, do not run in
 * the browser then).
 */
export function restoreSentErrors(): void {
  const load = sharedConfig.context && sharedConfig.load;
  if (load)
    sharedConfig.load = (id: string) => {
      const value: unknown = load(id);
      if (value instanceof Error && value.name === 'ValidationError')
        Object.setPrototypeOf(value, ValidationError.prototype);
      return value;
    };
}

/**
 * In the browser, while hydrating: restores into `controller` what the server sent for `key` with the
 * resource that `createQuery` is about to create (the next hydration id), so that the query subscribes
 * to fresh data and fetches nothing. Gives `ready`, false until what was sent arrived (a stream still on
 * its way), and whether a value is what was sent. Nothing (undefined) when not hydrating or nothing was sent.
 */
export function fromServer(
  controller: Controller,
  key: string | null | undefined,
): { ready: Accessor<boolean>; sent: (value: unknown) => boolean } | undefined {
  const { context, has, load } = sharedConfig;
  if (!context || !has || !load || key == null) return undefined;
  const id = sharedConfig.getContextId();
  if (!has(id)) return undefined;
  const value: unknown = load(id);
  const sent = (held: unknown) => isSent(held, key);
  const restore = (held: unknown) => {
    if (isSent(held, key)) restoreSnapshot(controller, held.snapshot);
  };
  if (!isThenable(value)) {
    restore(value);
    return { ready: () => true, sent };
  }
  if ('v' in value) {
    if (value.s === 1) restore(value.v);
    return { ready: () => true, sent };
  }
  const [ready, setReady] = createSignal(false);
  value.then(
    (held) => (restore(held), setReady(true)),
    () => setReady(true),
  );
  return { ready, sent };
}

/**
 * For a route's `preload` (SolidStart, `@solidjs/router`): starts the request the page's `createQuery`
 * will read, so that it is on its way before the page renders (on the server) or as soon as a link is
 * hovered or followed (in the browser); the query then joins that request, and fresh data is not fetched
 * again. While the browser hydrates the server's page it does nothing: the data came with the page. A
 * failure is left to the query, which shows it.
 *
 * @example
 * export const route = {
 *   preload: ({ params }) => preloadQuery(appController(), TodoResource.get, { id: Number(params.id) }),
 * } satisfies RouteDefinition;
 */
export function preloadQuery<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  ...args: EndpointArgs<E>
): void {
  // development: a wrong endpoint named here (the request's own rejection is not reported)
  if (process.env.NODE_ENV !== 'production') checkVerbTarget('rx-rest/solid: preloadQuery', endpoint);
  if (!isServer && sharedConfig.context) return; // hydrating: restored from the page by the query itself
  controller.fetchIfStale(endpoint, ...args).catch(() => {});
}

/**
 * The tab's controller from `create`. Made while the browser hydrates a server-rendered page, it is
 * made under a hold on the hydration (`holdHydration`), released once the calling component mounted
 * (Solid runs `onMount` after every resource being hydrated arrived): the add-ons among its managers
 * (`persist`'s restore, `syncTabs`) write into the store after that, so the page hydrates the server's data.
 */
function created(create: () => Controller): Controller {
  if (!sharedConfig.context) return create();
  const release = holdHydration();
  try {
    return create();
  } finally {
    if (getOwner()) onMount(release);
    else queueMicrotask(release); // outside a component: nothing tells when the page is hydrated
  }
}

/** Which controller the browser tab uses, per factory. */
const tabControllers = new WeakMap<() => Controller, Controller>();
/** Which controller each server request uses, per request event and factory. */
const requestControllers = new WeakMap<object, Map<() => Controller, Controller>>();

/**
 * One controller per server request and one per browser tab, from one factory: call the function it
 * returns wherever the app needs its controller (`<ControllerProvider controller={appController()}>`,
 * a route's `preload`, an action). On the server each request (SolidStart's `getRequestEvent()`) gets
 * its own controller, so one user's data never reaches another's page; in the browser the first call
 * creates the tab's controller and every later call returns it. Outside a request on the server it
 * throws, rather than share one controller between requests. Created while the page hydrates, its
 * add-ons (`persist`'s restore, `syncTabs`) write into the store once the page is hydrated (no mismatch).
 *
 * @example
 * export const appController = controllerPerRequest(() => new Controller({ retry: 2 }));
 * <ControllerProvider controller={appController()}><Router>...</Router></ControllerProvider>
 * export const route = { preload: ({ params }) => void appController().fetchIfStale(TodoResource.get, { id: +params.id }) };
 */
export function controllerPerRequest(create: () => Controller): () => Controller {
  const perRequest = (): Controller => {
    if (!isServer) {
      let controller = tabControllers.get(create);
      if (!controller) tabControllers.set(create, (controller = created(create)));
      return controller;
    }
    const event = getRequestEvent();
    if (!event) {
      throw new Error(
        process.env.NODE_ENV !== 'production'
          ? 'rx-rest/solid: controllerPerRequest: no request on the server (getRequestEvent() is undefined). Call it while SolidStart renders or handles a request (not at module level), or create a controller per render yourself and pass it to <ControllerProvider>.'
          : 'rx-rest/solid: controllerPerRequest: no request',
      );
    }
    let controllers = requestControllers.get(event);
    if (!controllers) requestControllers.set(event, (controllers = new Map()));
    let controller = controllers.get(create);
    if (!controller) controllers.set(create, (controller = create()));
    return controller;
  };
  return perRequest;
}
