import { SnapshotError, describeKind } from '../errors.js';
import { emptyTable, type EntityMeta, type EntityMetaTables, type EntityTables } from '../schema/index.js';

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

function restoreError(value: unknown): Error | undefined {
  if (value instanceof Error) return value;
  if (!isRecord(value)) return undefined;
  const error = new Error(typeof value.message === 'string' ? value.message : 'Restored error');
  if (typeof value.name === 'string') error.name = value.name;
  if (typeof value.status === 'number') Object.assign(error, { status: value.status });
  return error;
}

/** How deeply a restored snapshot may nest its values: deeper ones would overflow the merge's and the reads' stack. */
export const MAX_SNAPSHOT_DEPTH = 4_096;

/** `key` as a path segment: `Todo`, or quoted (`["1"]`) when it is not a plain name. */
const segment = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

const REJECTED = 'nothing of the snapshot was written';

/**
 * Throws a `SnapshotError` for the first value of `json` nested more than `MAX_SNAPSHOT_DEPTH` levels
 * deep (a cycle counts as that). Iterative: any depth is measured without using the stack.
 */
function assertShallow(json: object): void {
  const stack: [unknown, number, string][] = [[json, 0, '']];
  while (stack.length > 0) {
    const [value, depth, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_SNAPSHOT_DEPTH) {
      const where = path
        .split(/(?=[.[])/)
        .slice(0, 4)
        .join('');
      throw new SnapshotError(
        where.replace(/^\./, ''),
        `the value is nested more than ${MAX_SNAPSHOT_DEPTH.toLocaleString('en')} levels deep (or holds a cycle); ` +
          `the merge and the reads could not walk it. The snapshot was rejected whole: ${REJECTED}.`,
      );
    }
    for (const key of Object.keys(value)) {
      stack.push([(value as Record<string, unknown>)[key], depth + 1, depth < 4 ? path + segment(key) : path]);
    }
  }
}

/** The latest time a `Date` can hold (ms since the epoch). */
const MAX_TIME = 8.64e15;

/**
 * A time of a snapshot: a finite number of ms since the epoch, within what a `Date` holds (`date` and
 * `fetchedAt` not negative; an expiry may be, it only means stale). Anything else would order writes
 * wrongly: a `NaN` loses every comparison (the record could never be written again), `Infinity` wins
 * them all.
 */
function timeOf(value: unknown, path: string, field: 'date' | 'fetchedAt' | 'expiresAt'): number {
  if (
    typeof value === 'number' &&
    Math.abs(value) <= MAX_TIME && // false for NaN and ±Infinity
    (field === 'expiresAt' || value >= 0)
  )
    return value;
  throw new SnapshotError(
    `${path}.${field}`,
    `${describeKind(value)} is not a time: ${field} must be a finite number of ms since the epoch` +
      `${field === 'expiresAt' ? '' : ', not negative'} (at most ${MAX_TIME}). The snapshot was rejected whole: ${REJECTED}.`,
  );
}

/** The three times of a meta of a snapshot, checked. */
function timesOf(value: Record<string, unknown>, path: string): EntityMeta {
  return {
    date: timeOf(value.date, path, 'date'),
    fetchedAt: timeOf(value.fetchedAt, path, 'fetchedAt'),
    expiresAt: timeOf(value.expiresAt, path, 'expiresAt'),
  };
}

/**
 * Rebuilds a state from a `JSON.parse(JSON.stringify(controller.getState()))` value or a snapshot
 * (server rendering, persistence, other tabs): tables become prototype-free again, optimistic layers
 * are dropped (their requests are gone), and malformed parts (a record or a meta that is not an object)
 * are dropped rather than trusted. Times and depth are checked first: a time that is not a finite number
 * or values nested too deeply throw a `SnapshotError` (a restore is all or nothing).
 *
 * Times are kept as they are (every controller compares the same numbers, so tabs that exchange
 * snapshots agree), except `lastReset`, which is not taken: it ordered the requests of the controller
 * that reset, and its state holds nothing from before it (a server's clock ahead would otherwise drop
 * every request of this one as older). The controller orders its own writes after the newest time it
 * holds (see `Requests`).
 */
export function restoreState(json: unknown, source = 'restoreSnapshot'): State {
  if (!isRecord(json)) return initialState();
  try {
    return restoreChecked(json);
  } catch (error) {
    if (error instanceof SnapshotError) throw new SnapshotError(error.path, error.detail, source);
    throw error;
  }
}

function restoreChecked(json: Record<string, unknown>): State {
  assertShallow(json);
  const entities = tableOf(json.entities, (table) =>
    isRecord(table)
      ? tableOf(table, (record) => (isRecord(record) || Array.isArray(record) ? record : undefined))
      : undefined,
  );
  const entitiesMeta = tableOf(json.entitiesMeta, (table, key) =>
    isRecord(table)
      ? tableOf(table, (m, pk) => (isRecord(m) ? timesOf(m, `entitiesMeta${segment(key)}${segment(pk)}`) : undefined))
      : undefined,
  );
  const meta = tableOf(json.meta, (m, key): RequestMeta | undefined => {
    if (!isRecord(m)) return undefined;
    return {
      ...timesOf(m, `meta${segment(key)}`),
      error: restoreError(m.error),
      invalidated: m.invalidated === true || undefined,
    };
  });
  const endpoints = tableOf(json.endpoints, (v) => v);
  return { entities, endpoints, meta, entitiesMeta, optimistic: [], lastReset: 0 };
}
