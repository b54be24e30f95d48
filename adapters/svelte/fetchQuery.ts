/**
 * `fetchQuery`: the data of one request as a promise, for components that `await` it (Svelte's
 * `{#await}` block, and with `experimental.async` an `await` in the script or the markup, which a
 * server render with `svelte/server` waits for).
 */
import { getContext } from 'svelte';
import type { Controller, EndpointArgs, EndpointData, ReadEndpoint } from '../../core/index.js';
import { assertAlive, assertReadEndpoint, checkVerbTarget } from '../../core/internal.js';

/** The context key `setController` writes (`Symbol.for`: two copies of the package share it). */
export const KEY = Symbol.for('rx-rest/svelte controller');

/**
 * The data of one request, as a promise, from the controller of the nearest `setController`: it
 * resolves at once from the store when the data there is fresh (prefetched by a load, or shown by
 * another query: no request), else it fetches (identical requests in flight share one). It rejects
 * with the request's error. Call it while the component initialises or in its markup (it reads the
 * context); to read with another controller, `controller.fetchIfStale(endpoint, ...args)` is the same.
 * The promise gives the data once; `createQuery` follows later changes.
 *
 * @example
 * <script lang="ts">
 *   let { id }: { id: number } = $props();
 *   const todo = fetchQuery(TodoResource.get, { id });
 * </script>
 * {#await todo}Loading…{:then todo}<h1>{todo.title}</h1>{:catch error}<p role="alert">{error.message}</p>{/await}
 *
 * <!-- experimental.async: the server render waits for it -->
 * <h1>{(await fetchQuery(TodoResource.get, { id })).title}</h1>
 */
export function fetchQuery<E extends ReadEndpoint>(endpoint: E, ...args: EndpointArgs<E>): Promise<EndpointData<E>> {
  if (process.env.NODE_ENV !== 'production') checkVerbTarget('rx-rest/svelte: fetchQuery', endpoint);
  assertReadEndpoint(endpoint, 'fetchQuery');
  const controller = getController();
  // development: a disposed controller's error names fetchQuery, not the controller.fetchIfStale it calls
  if (process.env.NODE_ENV !== 'production') {
    try {
      assertAlive(controller, 'fetchQuery');
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return controller.fetchIfStale(endpoint, ...args);
}

/**
 * The controller of the nearest `setController`; throws a TypeError when there is none.
 *
 * @example
 * const controller = getController();
 * const save = () => controller.fetch(TodoResource.partialUpdate, { id }, { completed: true });
 */
export function getController(): Controller {
  const controller = getContext<Controller | undefined>(KEY);
  if (!controller) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? 'rx-rest/svelte: no Controller in context. Call setController(new Controller()) in a parent component (during its initialisation), or pass the controller explicitly: createQuery(endpoint, args, { controller }) (fetchQuery: controller.fetchIfStale(endpoint, ...args)).'
        : 'rx-rest/svelte: no Controller in context',
    );
  }
  return controller;
}
