/**
 * A look into one controller for in-page devtools: the request keys it knows, each key's subscribers and
 * request, the entity records a key's data reads and the keys that read a record, and removing a key.
 * A function beside the `Controller` (not a method), so that only apps that import it bundle it.
 */
import { Controller, controllerInternals } from './Controller.js';
import { disposedError } from './disposal.js';
import { asSet } from './QueryCache.js';
import type { State } from '../store/index.js';
import type { ControllerEndpoint } from './types.js';

/** What the controller knows of one request key besides the state (`getState()`). */
export interface QueryInspection {
  readonly key: string;
  /** The endpoint the key was made from, `undefined` for a key this controller never requested (a restored state). */
  readonly endpoint: ControllerEndpoint | undefined;
  /** Its arguments, with `endpoint`. */
  readonly args: readonly unknown[] | undefined;
  /** How many subscribers of `observe` (the adapters' queries) the key has now. */
  readonly observers: number;
  /** A request for the key is in flight. */
  readonly fetching: boolean;
  /** That request waits for the network. */
  readonly paused: boolean;
}

/** A record of the store: its entity key (`'Todo'`) and pk. */
export type RecordRef = readonly [entityKey: string, pk: string];

/** What `inspectController` returns: reads of the controller's query cache, and `remove`. */
export interface ControllerInspector {
  /** The controller's clock (ms since the epoch). */
  now(): number;
  /**
   * The current state, to read at once: unlike `getState()`, taking it does not make the next write copy
   * the tables it changes, so its tables may change in place later (keep nothing of it).
   */
  state(): State;
  /** Every request key the controller knows: stored results, stored meta and live streams, sorted. */
  keys(): string[];
  /** What the controller knows of `key` (a key it does not know: no endpoint, no observers). */
  query(key: string): QueryInspection;
  /** The records the data of `key` reads, or `undefined` when that cannot be told (an unknown endpoint). */
  reads(key: string): RecordRef[] | undefined;
  /** The request keys whose data reads the record `entityKey`/`pk`, sorted. */
  readers(entityKey: string, pk: string): string[];
  /**
   * Drops the stored result and meta of `key` (reported as a `gc` action; nothing for a key with
   * neither). Its records stay until a collection finds nothing else reads them. A key with subscribers
   * has no data then and fetches again, as on a first load.
   */
  remove(key: string): void;
}

const PATH_SEPARATOR = '\u0000';

function toRecord(path: string): RecordRef {
  const at = path.indexOf(PATH_SEPARATOR);
  return [path.slice(0, at), path.slice(at + 1)];
}

/**
 * The devtools' view of a controller's query cache. Reading never subscribes, fetches or changes
 * anything (observer counts are the app's subscribers); only `remove` writes.
 *
 * @example
 * const inspector = inspectController(controller);
 * for (const key of inspector.keys()) console.log(key, inspector.query(key).observers);
 */
export function inspectController(controller: Controller): ControllerInspector {
  if (!(controller instanceof Controller)) throw new TypeError('inspectController expects a Controller');
  const internals = () => controllerInternals(controller);
  const { cache, store } = internals();
  const pathsOf = (key: string) => cache.streams.get(key)?.paths ?? cache.pathsOf(key);
  return {
    now: () => cache.now(),
    state: () => store.current,
    keys() {
      const { endpoints, meta } = store.current;
      const keys = new Set([...Object.keys(endpoints), ...Object.keys(meta), ...cache.streams.keys()]);
      return [...keys].sort();
    },
    query(key) {
      const request = cache.requestOf.get(key);
      return {
        key,
        endpoint: request?.endpoint,
        args: request?.args,
        observers: cache.streams.get(key)?.observers ?? 0,
        fetching: cache.requests.isFetching(key),
        paused: cache.requests.isPaused(key),
      };
    },
    reads(key) {
      const paths = pathsOf(key);
      return paths === undefined ? undefined : [...paths].map(toRecord);
    },
    readers(entityKey, pk) {
      const path = `${entityKey}${PATH_SEPARATOR}${pk}`;
      const keys = new Set<string>();
      for (const stream of asSet(cache.byPath.get(path))) keys.add(stream.key);
      // a long list's stream is indexed by its table: whether it reads this record, its paths tell
      for (const stream of asSet(cache.byPath.get(entityKey))) if (stream.paths.has(path)) keys.add(stream.key);
      for (const key of Object.keys(store.current.endpoints))
        if (!keys.has(key) && pathsOf(key)?.has(path)) keys.add(key);
      return [...keys].sort();
    },
    remove(key) {
      if (internals().disposed) throw disposedError('inspectController(...).remove');
      const { endpoints, meta } = store.current;
      if (!(key in endpoints) && !(key in meta)) return;
      const { changes } = store.dispatch({ type: 'gc', keys: [key], entities: [] });
      if (!cache.streams.has(key)) cache.forget(key); // a live stream keeps its endpoint (invalidateAll reaches it)
      const log = cache.requests.log;
      if (log.observed && changes.endpoints.length > 0) log.emit({ type: 'gc', key, keys: [key], changes });
    },
  };
}
