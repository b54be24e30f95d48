/**
 * What the adapters and add-ons of this repository use from the core besides its public entry
 * (`core/index.ts`). Not a package export: nothing here is part of the public API or its types.
 */
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
