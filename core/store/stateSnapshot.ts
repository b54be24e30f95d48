/**
 * Snapshots: the state as plain data (JSON and structured-clone safe) for what lives outside one
 * controller (storage, other tabs, devtools), and the merge that brings such a snapshot back in, with
 * the same rule as the store's own writes: the newest by request start wins. The merge is reduced
 * here, not in `reducer`, so that only apps that restore snapshots bundle it.
 */
import { SnapshotError, describeKind, plainError, type PlainError } from '../errors.js';
import {
  INVALID,
  copyTable,
  emptyTable,
  forgetDerived,
  jsonEqual,
  unkeyedTablesOf,
  type EntityMeta,
} from '../schema/index.js';
import type { Changes, Transition } from './reducer.js';
import { restoreState, type RequestMeta, type State } from './state.js';
import { jsonChecked } from './jsonSafe.js';
import { checkRecords } from './snapshotRecords.js';

/**
 * One request's meta in a snapshot: its error, when it has one, as plain fields (a `ValidationError` also
 * its issues, entity and pk, restored as a `ValidationError`).
 */
export interface SnapshotMeta extends Omit<RequestMeta, 'error'> {
  readonly error?: PlainError | undefined;
}

/**
 * The state, or the part of it a change touched, as plain data: `JSON.stringify`, `postMessage` and
 * `restoreSnapshot` accept it. Optimistic layers are never part of it (they belong to requests in
 * flight in one controller).
 */
export interface StateSnapshot {
  /** Entity records by entity key and pk (records marked INVALID are listed in `invalid` instead). */
  readonly entities: { readonly [key: string]: { readonly [pk: string]: unknown } };
  /** When each record was written: merging keeps the newer record. */
  readonly entitiesMeta: { readonly [key: string]: { readonly [pk: string]: EntityMeta } };
  /** Normalized results by request key. */
  readonly endpoints: { readonly [requestKey: string]: unknown };
  /** Dates, expiry, error and invalidation by request key. */
  readonly meta: { readonly [requestKey: string]: SnapshotMeta };
  /** Records marked INVALID (deleted or invalidated), as `[entity key, pk]`; left out unless asked for. */
  readonly invalid?: readonly (readonly [string, string])[] | undefined;
  /**
   * The tables (of a whole snapshot) named after their class because it has no `static key`, with the
   * class's field names: a build that restores the snapshot and names such a class otherwise (a
   * minifier) reports it instead of silently fetching those records again.
   */
  readonly unkeyed?: { readonly [key: string]: string } | undefined;
}

/** What a snapshot covers: the whole state, or the records and request keys of one change. */
export interface SnapshotOptions {
  /** Only these records and request keys (an action's `changes`); everything when absent or `'all'`. */
  readonly changes?: Pick<Changes, 'entities' | 'endpoints'> | undefined;
  /** Whether records marked INVALID are listed (`invalid`): yes for other tabs, no for storage. Default false. */
  readonly invalid?: boolean | undefined;
}

function plainMeta(meta: RequestMeta): SnapshotMeta {
  return meta.error === undefined ? (meta as SnapshotMeta) : { ...meta, error: plainError(meta.error) };
}

/** The state (or the part `options.changes` names) as a snapshot. */
export function snapshotOf(state: State, options: SnapshotOptions = {}): StateSnapshot {
  const entities = emptyTable<{ [pk: string]: unknown }>();
  const entitiesMeta = emptyTable<{ [pk: string]: EntityMeta }>();
  const endpoints = emptyTable<unknown>();
  const meta = emptyTable<SnapshotMeta>();
  const invalid: [string, string][] = [];
  const addRecord = (key: string, pk: string) => {
    const record = state.entities[key]?.[pk];
    if (record === undefined) return;
    if (record === INVALID) {
      if (!options.invalid) return;
      invalid.push([key, pk]);
    } else (entities[key] ??= emptyTable())[pk] = record;
    const recordMeta = state.entitiesMeta[key]?.[pk];
    if (recordMeta !== undefined) (entitiesMeta[key] ??= emptyTable())[pk] = recordMeta;
  };
  const addKey = (key: string) => {
    const requestMeta = state.meta[key];
    if (requestMeta !== undefined) meta[key] = plainMeta(requestMeta);
    if (key in state.endpoints) endpoints[key] = state.endpoints[key];
  };
  const changes = options.changes;
  if (changes === undefined || changes.entities === 'all') {
    for (const key in state.entities) for (const pk in state.entities[key]) addRecord(key, pk);
  } else for (const [key, pk] of changes.entities) addRecord(key, pk);
  if (changes === undefined || changes.endpoints === 'all') {
    for (const key in state.meta) addKey(key);
    for (const key in state.endpoints) if (!(key in meta)) addKey(key);
  } else for (const key of changes.endpoints) addKey(key);
  const snapshot: StateSnapshot = invalid.length
    ? { entities, entitiesMeta, endpoints, meta, invalid }
    : { entities, entitiesMeta, endpoints, meta };
  const unkeyed = changes === undefined ? unkeyedTablesOf(Object.keys(entities)) : undefined;
  return jsonChecked(unkeyed === undefined ? snapshot : { ...snapshot, unkeyed }, true);
}

/** The `[key, pk]` pairs of a snapshot's `invalid` list that are well formed. */
export function invalidOf(snapshot: unknown): [string, string][] {
  const list = (snapshot as { invalid?: unknown } | null)?.invalid;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (pair): pair is [string, string] =>
      Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string',
  );
}

/**
 * A snapshot to bring in (storage, another tab, devtools), for `Store.dispatch` with `mergeState`:
 * `state` is it restored (malformed parts dropped), `invalid` its records marked INVALID; `replace`
 * takes it as the whole state.
 */
export interface MergeAction {
  /** With `replace`, its `lastReset` is the snapshot's (0 when it has none). */
  readonly state: State;
  readonly invalid: readonly (readonly [string, string])[];
  readonly replace: boolean;
}

const NO_META: EntityMeta = { date: 0, fetchedAt: 0, expiresAt: 0 };

/** Whether a record written at `incoming` replaces one written at `current`; `undefined` on a tie. */
function newer(incoming: EntityMeta, current: EntityMeta | undefined): boolean | undefined {
  if (current === undefined || incoming.fetchedAt > current.fetchedAt) return true;
  if (incoming.fetchedAt < current.fetchedAt) return false;
  return incoming.date > current.date ? true : incoming.date < current.date ? false : undefined;
}

/**
 * Two different values written with the same stamp and arrival (two tabs writing in the same
 * millisecond): which one every controller keeps, decided by the values alone so that each side
 * picks the same one. A deletion (INVALID) wins, else the greater JSON text.
 */
function tieWinner(incoming: unknown, current: unknown): boolean {
  if (incoming === INVALID || current === INVALID) return incoming === INVALID && current !== INVALID;
  return (JSON.stringify(incoming) ?? '') > (JSON.stringify(current) ?? '');
}

/**
 * Two metas of one request key written by requests that started at the same time (one response seen
 * by two controllers): an invalidation or expiry of either holds, and the later error.
 */
function joinMeta(current: RequestMeta, incoming: RequestMeta): RequestMeta {
  const invalidated = current.invalidated || incoming.invalidated || undefined;
  const expiresAt = Math.min(current.expiresAt, incoming.expiresAt);
  const later = incoming.date > current.date;
  if (invalidated === current.invalidated && expiresAt === current.expiresAt && !later) return current;
  return later ? { ...incoming, invalidated, expiresAt } : { ...current, invalidated, expiresAt };
}

/**
 * The merge of a snapshot into the state (`action.state` is the snapshot already restored: prototype-free
 * tables, malformed parts dropped). A record or result replaces the stored one only when its request
 * started later; nothing that started before the last reset is written. `replace` takes the snapshot
 * as the whole state instead (time travel), keeping the optimistic layers in flight; a snapshot whose
 * `lastReset` is later than the state's is a reset made elsewhere (another tab): the state takes it, and
 * keeps of the snapshot only what was written after it.
 */
export function mergeState(state: State, action: MergeAction, owned?: WeakSet<object>): Transition {
  const incoming = action.state;
  if (action.replace) {
    // the restored tables are the merge's own (restoreState built them): marked and pruned in place
    type Tables<T> = { [key: string]: { [pk: string]: T } };
    const tables = incoming.entities as Tables<unknown>;
    for (const [key, pk] of action.invalid) (tables[key] ??= emptyTable())[pk] = INVALID;
    const lastReset = incoming.lastReset;
    if (lastReset > state.lastReset) {
      const recordsMeta = incoming.entitiesMeta as Tables<EntityMeta>;
      for (const key in tables) {
        let kept = false;
        for (const pk in tables[key]) {
          if ((recordsMeta[key]?.[pk]?.fetchedAt ?? -1) >= lastReset) kept = true;
          else {
            delete tables[key]![pk];
            delete recordsMeta[key]?.[pk];
          }
        }
        if (!kept) delete tables[key]; // nothing left: nor the table (as after a reset)
      }
      for (const key in recordsMeta) if (!(key in tables)) delete recordsMeta[key];
      const meta = incoming.meta as { [key: string]: RequestMeta | undefined };
      const endpoints = incoming.endpoints as { [key: string]: unknown };
      for (const key of new Set([...Object.keys(meta), ...Object.keys(endpoints)])) {
        if ((meta[key]?.fetchedAt ?? -1) >= lastReset) continue;
        delete meta[key];
        delete endpoints[key];
      }
    }
    // a reset drops the optimistic layers too: their requests settle without writing (nor removing them)
    const reset = lastReset > state.lastReset;
    return {
      state: reset
        ? { ...incoming, optimistic: [] }
        : { ...incoming, optimistic: state.optimistic, lastReset: state.lastReset },
      changes: { entities: 'all', endpoints: 'all', optimistic: reset && state.optimistic.length > 0 },
    };
  }
  // tables the store alone holds are written in place (see `Store`), others copied once
  const own = <T extends { [key: string]: unknown }>(table: T | undefined): T => {
    if (table !== undefined && owned?.has(table)) return table;
    const copy = (table === undefined ? emptyTable() : copyTable(table)) as T;
    owned?.add(copy);
    return copy;
  };
  type Tables<T> = { [key: string]: { [pk: string]: T } | undefined };
  let entities = state.entities as Tables<unknown>;
  let entitiesMeta = state.entitiesMeta as Tables<EntityMeta>;
  const changedRecords: [string, string][] = [];
  let touched = false;
  const write = (key: string, pk: string, record: unknown, recordMeta: EntityMeta) => {
    if (recordMeta.fetchedAt < state.lastReset) return;
    const later = newer(recordMeta, entitiesMeta[key]?.[pk]);
    if (later === false || (later === undefined && !tieWinner(record, entities[key]?.[pk]))) return;
    if (!touched) entitiesMeta = own(entitiesMeta);
    touched = true;
    (entitiesMeta[key] = own(entitiesMeta[key]))[pk] = recordMeta;
    const current = entities[key]?.[pk];
    if (
      current !== undefined &&
      (current === record || (current !== INVALID && record !== INVALID && jsonEqual(current, record)))
    )
      return;
    // as in normalize's TableWriter: the root is always a new object (reads are memoized by it), and a
    // table written in place drops what was derived from it (its pks and indexes)
    if (changedRecords.length === 0) entities = copyTable(entities);
    const table = entities[key];
    if (table !== undefined && owned?.has(table)) forgetDerived(table);
    (entities[key] = own(table))[pk] = record;
    changedRecords.push([key, pk]);
  };
  for (const key in incoming.entities) {
    const table = incoming.entities[key]!;
    for (const pk in table) write(key, pk, table[pk], incoming.entitiesMeta[key]?.[pk] ?? NO_META);
  }
  for (const [key, pk] of action.invalid) write(key, pk, INVALID, incoming.entitiesMeta[key]?.[pk] ?? NO_META);

  let endpoints = state.endpoints as { [key: string]: unknown };
  let meta = state.meta as { [key: string]: RequestMeta | undefined };
  let resultsCopied = false;
  const changedKeys: string[] = [];
  const keys = new Set([...Object.keys(incoming.meta), ...Object.keys(incoming.endpoints)]);
  for (const key of keys) {
    const incomingMeta = incoming.meta[key] ?? NO_META;
    if (incomingMeta.fetchedAt < state.lastReset) continue;
    const current = meta[key];
    let next: RequestMeta = incomingMeta;
    let takeResult = key in incoming.endpoints;
    if (current !== undefined && incomingMeta.fetchedAt <= current.fetchedAt) {
      if (incomingMeta.fetchedAt < current.fetchedAt) continue;
      next = joinMeta(current, incomingMeta);
      // the same stamp: the later arrival's result, or on a tie the one both sides pick
      takeResult &&=
        incomingMeta.date > current.date ||
        (incomingMeta.date === current.date && tieWinner(incoming.endpoints[key], endpoints[key]));
      if (next === current && !(takeResult && !jsonEqual(endpoints[key], incoming.endpoints[key]))) continue;
    }
    if (changedKeys.length === 0) meta = own(meta);
    meta[key] = next;
    if (takeResult && !jsonEqual(endpoints[key], incoming.endpoints[key])) {
      if (!resultsCopied) endpoints = own(endpoints);
      resultsCopied = true;
      endpoints[key] = incoming.endpoints[key];
    }
    changedKeys.push(key);
  }
  if (!touched && changedKeys.length === 0)
    return { state, changes: { entities: [], endpoints: [], optimistic: false } };
  return {
    state: { ...state, entities, entitiesMeta, endpoints, meta } as State,
    changes: { entities: changedRecords, endpoints: changedKeys, optimistic: false },
  };
}

/**
 * A snapshot (or a whole `getState()` JSON) as a merge action; throws a `TypeError` for what is not
 * one, a `SnapshotError` for one that cannot be restored safely (see `restoreState`, which dates no
 * result after `now`). A replacing one keeps the snapshot's `lastReset` (checked like its times):
 * another tab's reset.
 */
export function mergeAction(snapshot: unknown, replace: boolean, now: number): MergeAction {
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot) || !isSnapshotLike(snapshot)) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? 'restoreSnapshot expects a state snapshot (an object with entities, entitiesMeta, endpoints and meta ' +
            `tables, as takeSnapshot(controller) or getState() give), got ${describeKind(snapshot)}`
        : 'restoreSnapshot: snapshot',
    );
  }
  const state = restoreState(snapshot, now);
  // what comes from elsewhere passes the entity checks a response passes (not the controller's own state, taken
  // back by time travel or a reset: a validator whose output it would refuse, a transform, must not stop those)
  if (!replace) checkRecords(state);
  // a replacing restore takes the snapshot's last reset (another tab's reset), checked like its times
  const lastReset = replace ? (snapshot as { lastReset?: unknown }).lastReset : undefined;
  if (lastReset === undefined) return { state, invalid: invalidOf(snapshot), replace };
  if (!(typeof lastReset === 'number' && lastReset >= 0 && lastReset <= MAX_TIME))
    throw new SnapshotError(
      'lastReset',
      process.env.NODE_ENV !== 'production'
        ? `${describeKind(lastReset)} is not a time (a finite number of ms since the epoch); nothing of the snapshot was written`
        : 'time',
    );
  return { state: { ...state, lastReset }, invalid: invalidOf(snapshot), replace };
}

/** The latest time a `Date` can hold (ms since the epoch). */
const MAX_TIME = 8.64e15;

function isSnapshotLike(value: object): boolean {
  return ['entities', 'endpoints', 'meta'].some((field) => {
    const table = (value as Record<string, unknown>)[field];
    return typeof table === 'object' && table !== null && !Array.isArray(table);
  });
}
