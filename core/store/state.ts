import { emptyTable, expectUnkeyedTables, type EntityMetaTables, type EntityTables } from '../schema/index.js';

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
  /** The schema its expected response is normalized with. */
  readonly schema: unknown;
  /** The arguments of the mutation (URL args, body). */
  readonly args: readonly unknown[];
  /** The expected response (plain JSON-like value). */
  readonly response: unknown;
  /** When the mutation started. */
  readonly fetchedAt: number;
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

function tableOf<T>(value: unknown, item: (v: unknown) => T | undefined): { [key: string]: T } {
  const table = emptyTable<T>();
  if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      const converted = item(value[key]);
      if (converted !== undefined) table[key] = converted;
    }
  }
  return table;
}

function restoreError(value: unknown): Error | undefined {
  if (value instanceof Error) return value;
  if (!isRecord(value)) return undefined;
  const error = new Error(typeof value.message === 'string' ? value.message : 'Restored error');
  if (typeof value.name === 'string') error.name = value.name;
  if (typeof value.status === 'number') Object.assign(error, { status: value.status });
  return error;
}

/**
 * Rebuilds a state from a `JSON.parse(JSON.stringify(controller.getState()))` value (server rendering,
 * persistence): tables become prototype-free again, optimistic layers are dropped (their requests
 * are gone), and malformed parts are ignored rather than trusted.
 */
export function restoreState(json: unknown): State {
  if (!isRecord(json)) return initialState();
  expectUnkeyedTables(json.unkeyed); // a snapshot's tables named after classes that another build may name otherwise
  const entities = tableOf(json.entities, (table) =>
    isRecord(table)
      ? tableOf(table, (record) => (isRecord(record) || Array.isArray(record) ? record : undefined))
      : undefined,
  );
  const entitiesMeta = tableOf(json.entitiesMeta, (table) =>
    isRecord(table)
      ? tableOf(table, (m) =>
          isRecord(m) &&
          typeof m.date === 'number' &&
          typeof m.fetchedAt === 'number' &&
          typeof m.expiresAt === 'number'
            ? { date: m.date, fetchedAt: m.fetchedAt, expiresAt: m.expiresAt }
            : undefined,
        )
      : undefined,
  );
  const meta = tableOf(json.meta, (m): RequestMeta | undefined => {
    if (!isRecord(m)) return undefined;
    const num = (v: unknown) => (typeof v === 'number' ? v : 0);
    return {
      date: num(m.date),
      fetchedAt: num(m.fetchedAt),
      expiresAt: num(m.expiresAt),
      error: restoreError(m.error),
      invalidated: m.invalidated === true || undefined,
    };
  });
  const endpoints = tableOf(json.endpoints, (v) => v);
  return {
    entities,
    endpoints,
    meta,
    entitiesMeta,
    optimistic: [],
    lastReset: typeof json.lastReset === 'number' ? json.lastReset : 0,
  };
}
