/**
 * The read path of one controller: a request key's stored result and meta, read from the current state
 * with the optimistic layers applied and denormalized through the one memo every read of the controller
 * shares (query streams, `getResponse`, `get`, a `fetch`'s answer), so that they hand out one instance per
 * record. A tracked read (a stream's) also reports the records its data depends on (`paths`).
 */
import { toError } from '../errors.js';
import { MemoCache, isEntityClass, type Collection, type Entity, type EntityTables } from '../schema/index.js';
import type { RequestMeta, State, Store } from '../store/index.js';
import { applyLayers, type EffectiveEntities } from './optimistic.js';
import type { ControllerEndpoint } from './types.js';

/** One read of a key from the store. */
export interface QueryRead {
  /** The normalized result read (or the pk the arguments name), `undefined` when there was none. */
  readonly input: unknown;
  readonly data: unknown;
  /** A required entity is missing or INVALID. */
  readonly invalid: boolean;
  /** What the data depends on (a tracked read's; else none). */
  readonly deps: ReadDeps;
  readonly error: Error | undefined;
  /** `error` is not a request's but this read's: the stored value could not be read (it stays while loading). */
  readonly unreadable: boolean;
  /** The key's own result has never been stored. */
  readonly missing: boolean;
  readonly invalidated: boolean;
  readonly expiresAt: number;
  /** The ordering stamp of the key's meta (its last write), `-Infinity` when none. */
  readonly fetchedAt: number;
}

/**
 * What a read's data depends on: every record (`paths`, computed on first use), and what a live read is indexed
 * under (`index`: the same records, but a long list's rows as their entity key alone; see `QueryCache.byPath`).
 */
export interface ReadDeps {
  readonly paths: ReadonlySet<string>;
  readonly index: ReadonlySet<string>;
  /** Whether `index` (once computed) lists a table whole. */
  readonly wide?: boolean;
}

/** What a tracked read is of: a request key, its endpoint and arguments, and what its last read depended on. */
export interface ReadTarget {
  readonly endpoint: ControllerEndpoint;
  readonly args: readonly unknown[];
  readonly key: string;
  readonly deps: ReadDeps;
}

/** The paths of a read that depends on no record. */
export const NO_PATHS: ReadonlySet<string> = new Set();

/** The dependencies of a read that depends on no record. */
export const NO_READ_DEPS: ReadDeps = { paths: NO_PATHS, index: NO_PATHS };

/** A stream's read before its first one. */
export const NOT_READ: QueryRead = {
  input: undefined,
  data: undefined,
  invalid: false,
  deps: NO_READ_DEPS,
  error: undefined,
  unreadable: false,
  missing: true,
  invalidated: false,
  expiresAt: 0,
  fetchedAt: Number.NEGATIVE_INFINITY,
};

/** For an entity endpoint with no stored result of its own: the pk its arguments name (data from other requests). */
function pkFromArgs(schema: typeof Entity, args: readonly unknown[]): string | undefined {
  const params = args[0];
  if (typeof params !== 'object' || params === null) return undefined;
  try {
    const pk = schema.pk({ ...params });
    return typeof pk === 'string' && pk !== '' && pk !== 'undefined' ? pk : undefined;
  } catch {
    return undefined;
  }
}

/** Reads request keys from one store, through one memo and one view of the optimistic layers. */
export class QueryReader {
  /** The memo every read of this controller shares (streams, `getResponse`, `get`): one instance per record. */
  readonly memo = new MemoCache();
  readonly #store: Store;
  #effective: EffectiveEntities | undefined;

  constructor(store: Store) {
    this.#store = store;
  }

  /** The entity tables reads see: the store's with every optimistic layer applied. */
  entities(): EntityTables {
    this.#effective = applyLayers(this.#store.current, this.#effective);
    return this.#effective.entities;
  }

  /**
   * The store moved to `state`: the view of the optimistic layers follows it. Returns the view before;
   * `layers` is the view now (a new one when the layers changed).
   */
  follow(state: State): EffectiveEntities | undefined {
    const before = this.#effective;
    this.#effective = applyLayers(state, before);
    return before;
  }

  /** The current view of the optimistic layers (see `follow`). */
  get layers(): EffectiveEntities | undefined {
    return this.#effective;
  }

  /** When the key's current result or error was written (`undefined`: never). */
  dateOf(key: string): number | undefined {
    return this.#store.current.meta[key]?.date;
  }

  /**
   * Whether the key's result or error was stale as it was written (a lifetime of 0) and nothing marked it since
   * (`expireAll`, `invalidate`, an invalidation restored from another tab): its age is no reason to refetch it
   * again at once.
   */
  bornStale(key: string): boolean {
    const meta = this.#store.current.meta[key];
    return meta !== undefined && !meta.invalidated && meta.markedAt === undefined && meta.expiresAt <= meta.date;
  }

  /**
   * A stream's read of its key. `previous`: its last read, when since then only entity records changed
   * (the key's result and meta are the same). A stored value that cannot be read (a deserializer that
   * throws, a graph too deep) is the query's error, and it keeps watching what it read.
   */
  read(target: ReadTarget, previous: QueryRead | undefined): QueryRead {
    try {
      return previous !== undefined && previous.input !== undefined
        ? this.#reread(target, previous)
        : this.readKey(target.endpoint, target.args, target.key, true);
    } catch (error) {
      return { ...NOT_READ, deps: target.deps, error: toError(error), unreadable: true, missing: false };
    }
  }

  /** Reads a key from the current state; `tracked`: a stream's read, that needs what it depends on (`deps`). */
  readKey(endpoint: ControllerEndpoint, args: readonly unknown[], key: string, tracked = false): QueryRead {
    const state = this.#store.current;
    const meta = state.meta[key];
    const stored = state.endpoints[key];
    const schema = endpoint.schema;
    let input = stored;
    // data from other requests: the entity the arguments name, or the list another response stored under them
    // (a collection nested in an entity), as data-client's queryKey reads it
    if (input === undefined)
      input = isEntityClass(schema)
        ? pkFromArgs(schema, args)
        : (schema as Partial<Collection> | undefined)?.addToLists &&
          (schema as Collection).queryKey(args, this.entities());
    // one object literal, always of one shape (the read is on every affected stream's path)
    let data = input;
    let invalid = false;
    let deps = NO_READ_DEPS;
    if (schema !== undefined && input !== undefined) {
      const result = this.memo.denormalize(schema, input, this.entities(), args);
      data = result.data;
      invalid = result.invalid;
      if (tracked) deps = result; // its paths and index computed on first use: a one-off read never pays for them
    }
    return {
      input,
      data,
      invalid,
      deps,
      error: meta?.error,
      unreadable: false,
      missing: stored === undefined,
      invalidated: meta?.invalidated === true,
      expiresAt: meta === undefined ? 0 : expiryOf(meta, endpoint),
      fetchedAt: meta?.fetchedAt ?? Number.NEGATIVE_INFINITY,
    };
  }

  /**
   * Whether only an optimistic layer makes a read unusable (a delete in flight): it is usable from the
   * committed records. A memo of its own (the shared one keeps
   * the objects observers hold).
   */
  byLayerOnly(target: Pick<ReadTarget, 'endpoint' | 'args'>, read: QueryRead): boolean {
    const committed = this.#store.current.entities;
    try {
      // `invalid`: a read with a schema and an input
      return (
        read.invalid &&
        committed !== this.entities() &&
        !new MemoCache().denormalize(target.endpoint.schema!, read.input, committed, target.args).invalid
      );
    } catch {
      return false;
    }
  }

  /** `readKey` after a change to entity records only: the result and meta of `previous`, the data read anew. */
  #reread(target: ReadTarget, previous: QueryRead): QueryRead {
    const schema = target.endpoint.schema;
    if (schema === undefined) return previous;
    const result = this.memo.denormalize(schema, previous.input, this.entities(), target.args);
    return { ...previous, data: result.data, invalid: result.invalid, deps: result };
  }
}

/**
 * A key's expiry, never later than its endpoint's lifetime (`dataExpiryLength`, or `errorExpiryLength` for an error)
 * from its date: what the store's own writes give; a restored save (a forged one, a clock that was wrong) may say
 * years ahead.
 */
function expiryOf(meta: RequestMeta, endpoint: ControllerEndpoint): number {
  const latest = meta.date + (meta.error ? endpoint.errorExpiryLength : endpoint.dataExpiryLength);
  return latest < meta.expiresAt ? latest : meta.expiresAt;
}
