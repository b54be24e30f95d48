/**
 * What the adapters and add-ons of this repository use from the core besides its public entry
 * (`core/index.ts`). Not a package export: nothing here is part of the public API or its types.
 */
import { afterQueries, type QueryState } from './controller/index.js';

export { assertReadEndpoint } from './controller/index.js';
export { afterQueries, flushQueries, onQueriesWait } from './controller/index.js';
/** @internal Deletion marks kept from the collector while an older copy may come in (sync, persist). */
export { holdTombstones } from './controller/index.js';
/** @internal The error of a disposed controller naming the adapter's function the user called. */
export { assertAlive } from './controller/index.js';
/** @internal Development: a mutation's `fetch` whose disposed-controller error names the adapter's `mutate`. */
export { fetchNamed } from './controller/index.js';
/** @internal Development: the TypeError of an endpoint argument that is none, naming the adapter's function. */
export { checkVerbTarget } from './controller/index.js';
export { assertJsonSafe } from './store/index.js';

/**
 * @internal An adapter's unsubscribe from a query stream whose last state was `last`. While its request is in
 * flight (`last.fetching`), it waits for the end of the task: a subscriber that comes back in the task (a
 * component mounted again, `get(store)` then `$store`, a `<Show>` toggled off and on) joins the request instead
 * of aborting it (the last unsubscribe aborts what no one else wants) and sending it again. Otherwise it is at
 * once: one that comes back is a first subscriber (a retry after an error).
 */
export function unsubscribeQuery(subscription: { unsubscribe(): void }, last: unknown): void {
  if ((last as Partial<QueryState<unknown>>).fetching) afterQueries(() => subscription.unsubscribe());
  else subscription.unsubscribe();
}

/**
 * @internal Development: TanStack Query's `enabled` among the options of `call` (`rx-rest/svelte: createQuery`),
 * which rx-rest's queries have not (null args hold a query back): a TypeError naming it, not an option ignored
 * while the query fetches.
 */
export function refuseEnabled(call: string, options: unknown): void {
  if (typeof options === 'object' && options !== null && 'enabled' in options)
    throw new TypeError(
      `${call}(endpoint, args, options): \`enabled\` is no option of rx-rest's queries (it is TanStack Query's way to hold a query back). Give null args instead: they keep the query idle, without a request (() => (id === undefined ? null : { id })).`,
    );
}
