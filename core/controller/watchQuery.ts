/**
 * The two reads of one request that framework adapters need besides `controller.observe`: `watchQuery`
 * (observe with polling on or off) and `peekQuery` (the first state without subscribing). Functions beside
 * the `Controller`, not its methods, so that only apps that import them (through an adapter) bundle them.
 */
import type { Observable } from 'rxjs';
import { controllerInternals, type Controller } from './Controller.js';
import { disposedError } from './disposal.js';
import { needsFetch, stateOf } from './QueryStream.js';
import { waitForEndOfTask } from './endOfTask.js';
import { toError } from '../errors.js';
import {
  IDLE,
  assertReadEndpoint,
  type ControllerEndpoint,
  type EndpointArgs,
  type EndpointData,
  type ObserveOptions,
  type QueryState,
} from './types.js';

/** The query cache of a controller that is not disposed (`call` names the function in the error). */
function cacheOf(controller: Controller, call: string) {
  const { cache, disposed } = controllerInternals(controller);
  if (disposed) throw disposedError(call);
  return cache;
}

/**
 * `controller.observe(endpoint, ...args)` with the argument list as one array and polling on or off
 * (`{ poll: false }`: the adapters' `useSuspense` reads without polling). `[null]` gives an idle stream.
 * Throws, as `observe` does, on a disposed controller and on an endpoint with side effects.
 *
 * @example
 * watchQuery(controller, TodoResource.get, [{ id: 1 }], { poll: false }).subscribe(render);
 */
export function watchQuery<E extends ControllerEndpoint>(
  controller: Controller,
  endpoint: E,
  args: Readonly<EndpointArgs<E>> | readonly [null],
  options: ObserveOptions,
): Observable<QueryState<EndpointData<E>>> {
  const cache = cacheOf(controller, 'watchQuery');
  assertReadEndpoint(endpoint, 'watchQuery');
  const wait = options.batch ? { ...options, wait: waitForEndOfTask } : options;
  return cache.observe(endpoint, args, wait) as Observable<QueryState<EndpointData<E>>>;
}

/**
 * The state `controller.observe` would emit first, without subscribing: no request, no timer. For server
 * rendering (a per-request controller) and for reading a query once. `loading`/`fetching` say that a
 * subscriber would start a request (`loading` alone: it would wait for a mutation in flight, an optimistic delete
 * of its entity). `null` arguments give the idle state, arguments the endpoint makes no URL of an error state.
 *
 * @example
 * const { data, loading } = peekQuery(controller, TodoResource.getList, { userId: 1 });
 */
export function peekQuery<E extends ControllerEndpoint>(
  controller: Controller,
  endpoint: E,
  ...args: EndpointArgs<E> | [null]
): QueryState<EndpointData<E>> {
  const cache = cacheOf(controller, 'peekQuery');
  if (args[0] === null) return IDLE;
  let key: string;
  try {
    key = endpoint.key(...args);
  } catch (error) {
    // bad URL arguments: the error state `observe` gives them
    return { ...IDLE, error: toError(error) };
  }
  const read = cache.reader.readKey(endpoint, args, key);
  const now = cache.now();
  const requests = cache.requests;
  const waiting = cache.reader.byLayerOnly({ endpoint, args }, read);
  const fetching =
    requests.isFetching(key) || (!waiting && needsFetch(read, false, now, cache.streams.get(key)?.active !== true));
  return stateOf(requests, key, read, fetching, now, waiting) as QueryState<EndpointData<E>>;
}
