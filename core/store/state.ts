import { SnapshotError, describeKind, restoreError } from '../errors.js';
import {
  emptyTable,
  expectUnkeyedTables,
  type EntityMeta,
  type EntityMetaTables,
  type EntityTables,
} from '../schema/index.js';

/** What the store knows about one request key: when it was answered, when it expires, and its error. */
export interface RequestMeta {
  /** When the response (or error) arrived (ms since the epoch). */
  readonly date: number;
  /** When its request started: writes of older requests never overwrite newer ones. */
  readonly fetchedAt: number;
  /** After this the data is stale: still shown, refetched in the background. */
  readonly expiresAt: number;
  /** The last error for this key, until a later success. */
  readonly error?: Error | undefined;
  /** Set by `invalidate`: the result must be refetched before it is used again. */
  readonly invalidated?: boolean | undefined;
  /**
   * The ordering stamp of the last `invalidate` or expiry: the answer of a request started before it
   * is written but leaves the key invalid or stale.
   */
  readonly markedAt?: number | undefined;
}

/**
 * An optimistic mutation in flight: its expected response, applied as a layer over the base state
 * until the real response replaces it or its failure removes it.
 */
export interface OptimisticLayer {
  /** Unique per layer. */
  readonly id: number;
  /** The request key of the mutation. */
  readonly key: string;
  /** The schema its expected response is normalized with (not enumerable: JSON leaves it out). */
  readonly schema: unknown;
  /** The arguments of the mutation (URL args, body). */
  readonly args: readonly unknown[];
  /** The expected response (plain JSON-like value). */
  readonly response: unknown;
  /** When the mutation started. */
  readonly fetchedAt: number;
  /**
   * The endpoint's own `getOptimisticResponse` run again over the tables of the layers below, whenever the layers
   * apply (not enumerable; a layer read back from JSON has none, and its `response` stands).
   */
  readonly again?: ((entities: EntityTables) => unknown) | undefined;
}

/** The whole normalized state (Data Client's shape). Changed only by `reducer`. */
export interface State {
  /** Entity tables: `entities[key][pk]` is a stored record (raw JSON with nested pks) or INVALID. */
  readonly entities: EntityTables;
  /** Normalized results by request key (`'GET https://api/todos?userId=1'`). */
  readonly endpoints: { readonly [requestKey: string]: unknown };
  /** Per request key: dates, expiry, error, invalidation. */
  readonly meta: { readonly [requestKey: string]: RequestMeta | undefined };
  /** Per entity: when it was written (ordering of writes). */
  readonly entitiesMeta: EntityMetaTables;
  /** Optimistic layers in flight, oldest first. */
  readonly optimistic: readonly OptimisticLayer[];
  /** When the store was last reset: requests started before it settle without writing. */
  readonly lastReset: number;
}

/** A new empty state. */
export function initialState(lastReset = 0): State {
  return {
    entities: emptyTable(),
    endpoints: emptyTable(),
    meta: emptyTable(),
    entitiesMeta: emptyTable(),
    optimistic: [],
    lastReset,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tableOf<T>(value: unknown, item: (v: unknown, key: string) => T | undefined): { [key: string]: T } {
  const table = emptyTable<T>();
  if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      const converted = item(value[key], key);
      if (converted !== undefined) table[key] = converted;
    }
  }
  return table;
}

/** How deeply a restored snapshot may nest its values: deeper ones would overflow the merge's and the reads' stack. */
export const MAX_SNAPSHOT_DEPTH = 4_096;

/** The latest time a `Date` can hold (ms since the epoch). */
const MAX_TIME = 8.64e15;

/**
 * Rebuilds a state from a `JSON.parse(JSON.stringify(controller.getState()))` value or a snapshot
 * (server rendering, persistence, other tabs): tables become prototype-free again, optimistic layers
 * are dropped (their requests are gone), and malformed parts (a record or a meta that is not an object)
 * are dropped rather than trusted. Checked first, for a restore that is all or nothing: values nested
 * more than `MAX_SNAPSHOT_DEPTH` levels (or a cycle), and times that are not finite numbers of ms since
 * the epoch within what a `Date` holds (`date` and `fetchedAt` not negative; an expiry may be, it only
 * means stale) throw a `SnapshotError` naming `source` and the field, as does a value that is no object
 * (a JSON text not parsed: `null` and `undefined` are an empty state). A `NaN` would lose every
 * comparison (the record could never be written again), `Infinity` win them all.
 *
 * Times are kept as they are (every controller compares the same numbers, so tabs that exchange
 * snapshots agree), except `lastReset`, which is not taken: it ordered the requests of the controller
 * that reset, and its state holds nothing from before it (a server's clock ahead would otherwise drop
 * every request of this one as older); and a `date` (when a result or record arrived, what a key's
 * freshness counts from) later than `now`, which is `now`: a forged snapshot or a server clock ahead
 * then keeps a key fresh for its endpoint's lifetime from now at most (see QueryReader's `expiryOf`),
 * while a server a few seconds ahead still hydrates fresh keys; a key marked since its last answer
 * (`markedAt`: `expireAll`, `invalidate`) is stale by now at least, as the clock that marked it meant.
 * The controller orders its own writes after the newest time it holds (see `Requests`; ordering reads
 * `fetchedAt`, kept).
 */
export function restoreState(json: unknown, now: number, source = 'restoreSnapshot'): State {
  const fail = (path: string, detail: string): never => {
    throw new SnapshotError(
      path,
      process.env.NODE_ENV !== 'production' ? `${detail}; nothing of the snapshot was written` : detail,
      source,
    );
  };
  if (json == null) return initialState();
  // a JSON text not parsed, a list: no state to start from (`null` and `undefined` are none)
  if (!isRecord(json))
    return fail(
      '',
      process.env.NODE_ENV !== 'production'
        ? `expected a state (getState() or takeSnapshot(controller), parsed from JSON), got ${describeKind(json)}`
        : 'state',
    );
  // the depth, without using the stack (the path: the first three keys)
  const stack: [unknown, number, string][] = [[json, 0, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth, path] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_SNAPSHOT_DEPTH)
      fail(
        path.slice(1),
        process.env.NODE_ENV !== 'production'
          ? 'the value is nested more than 4,096 levels deep (or holds a cycle)'
          : 'depth',
      );
    for (const key in value)
      stack.push([(value as Record<string, unknown>)[key], depth + 1, depth < 3 ? `${path}.${key}` : path]);
  }
  const timesOf = (m: Record<string, unknown>, path: string): EntityMeta => {
    const times = { date: m.date, fetchedAt: m.fetchedAt, expiresAt: m.expiresAt };
    for (const [field, value] of Object.entries(times)) {
      // false for NaN and ±Infinity
      if (!(typeof value === 'number' && Math.abs(value) <= MAX_TIME && (value >= 0 || field === 'expiresAt')))
        fail(
          `${path}.${field}`,
          process.env.NODE_ENV !== 'production'
            ? `${describeKind(value)} is not a time (a finite number of ms since the epoch)`
            : 'time',
        );
    }
    times.date = Math.min(times.date as number, now);
    // marked since its last answer (`expireAll`, perhaps on a clock ahead of this one): stale here too
    if (m.markedAt) times.expiresAt = Math.min(times.expiresAt as number, now);
    return times as EntityMeta;
  };
  expectUnkeyedTables(json.unkeyed); // a snapshot's tables named after classes that another build may name otherwise
  const entities = tableOf(json.entities, (table) =>
    isRecord(table)
      ? tableOf(table, (record) => (isRecord(record) || Array.isArray(record) ? record : undefined))
      : undefined,
  );
  const entitiesMeta = tableOf(json.entitiesMeta, (table, key) =>
    isRecord(table)
      ? tableOf(table, (m, pk) => (isRecord(m) ? timesOf(m, `entitiesMeta.${key}.${pk}`) : undefined))
      : undefined,
  );
  const meta = tableOf(json.meta, (m, key): RequestMeta | undefined => {
    if (!isRecord(m)) return undefined;
    return {
      ...timesOf(m, `meta.${key}`),
      error: restoreError(m.error),
      invalidated: m.invalidated === true || undefined,
      markedAt: typeof m.markedAt === 'number' && Number.isFinite(m.markedAt) ? m.markedAt : undefined,
    };
  });
  const endpoints = tableOf(json.endpoints, (v) => v);
  return { entities, endpoints, meta, entitiesMeta, optimistic: [], lastReset: 0 };
}
