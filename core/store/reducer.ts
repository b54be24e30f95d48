import { copyTable, jsonEqual, normalizeInto } from '../schema/index.js';
import { jsonKept } from '../errors.js';
import type { Action } from './actions.js';
import { initialState, type RequestMeta, type State } from './state.js';

/** Which parts of the state an action changed: the query streams use it to recompute only what it touches. */
export interface Changes {
  /** Changed entity records as `[key, pk]`, or `'all'`. */
  readonly entities: readonly (readonly [string, string])[] | 'all';
  /** Request keys whose result or meta changed, or `'all'`. */
  readonly endpoints: readonly string[] | 'all';
  /** Whether the optimistic layers changed. */
  readonly optimistic: boolean;
}

/** A state change: the new state and what changed. */
export interface Transition {
  readonly state: State;
  readonly changes: Changes;
}

const NONE: Changes = { entities: [], endpoints: [], optimistic: false };

/** The layers without the one a settled request replaces (the same array when there is none). */
function withoutLayer(layers: State['optimistic'], id: number | undefined): State['optimistic'] {
  if (id === undefined || !layers.some((layer) => layer.id === id)) return layers;
  return layers.filter((layer) => layer.id !== id);
}

/** The state with other optimistic layers (unchanged when they are the same array). */
function withLayers(state: State, optimistic: State['optimistic']): Transition {
  return optimistic === state.optimistic
    ? { state, changes: NONE }
    : { state: { ...state, optimistic }, changes: { ...NONE, optimistic: true } };
}

/**
 * `table` itself when it is in `owned` (no snapshot holding it was handed out: see `Store`), else a
 * copy, owned from now on. Without `owned` (a plain reducer call) always a copy.
 */
function writable<T extends { readonly [key: string]: unknown }>(table: T, owned: WeakSet<object> | undefined): T {
  if (owned?.has(table)) return table;
  // a key loop copies a prototype-free (dictionary) table about 3× faster than Object.assign
  const copy = copyTable(table) as T;
  owned?.add(copy);
  return copy;
}

function withMeta(state: State, key: string, meta: RequestMeta, owned: WeakSet<object> | undefined): State['meta'] {
  const next = writable(state.meta as { [key: string]: RequestMeta | undefined }, owned);
  next[key] = meta;
  return next;
}

/**
 * The meta of a key answered by `action`: fresh, unless an invalidation or expiry was stamped after its
 * request started (`markedAt`): that mark stays, so the key is refetched.
 */
function answered(action: { date: number; fetchedAt: number; expiresAt: number }, previous: RequestMeta | undefined) {
  const meta: RequestMeta = { date: action.date, fetchedAt: action.fetchedAt, expiresAt: action.expiresAt };
  const markedAt = previous?.markedAt;
  if (markedAt === undefined || !(markedAt > action.fetchedAt)) return meta;
  return previous!.invalidated
    ? { ...meta, expiresAt: 0, invalidated: true, markedAt }
    : { ...meta, expiresAt: Math.min(meta.expiresAt, previous!.expiresAt), markedAt };
}

/**
 * The one function that changes the state. Copy-on-write: unchanged parts keep their identity, and
 * `state` is never changed, except the tables in `owned`, which the store hands out to no one (they
 * are written in place; every state it returns is still a new object). Writes of requests started
 * before the last reset are ignored.
 */
export function reducer(state: State, action: Action, owned?: WeakSet<object>): Transition {
  switch (action.type) {
    case 'response': {
      const optimistic = withoutLayer(state.optimistic, action.settles);
      if (action.fetchedAt < state.lastReset) return withLayers(state, optimistic);
      const previous = state.meta[action.key];
      const older = previous !== undefined && previous.fetchedAt > action.fetchedAt;
      const normalized = normalizeInto(
        action.schema,
        action.response,
        action.args,
        state,
        { fetchedAt: action.entitiesAt ?? action.fetchedAt, date: action.date, expiresAt: action.expiresAt },
        owned,
        true,
        action.since,
      );
      let endpoints = state.endpoints;
      let meta = state.meta;
      if (!older) {
        // an unchanged result (the same pk, a list of the same pks) keeps its object and the table
        const current = state.endpoints[action.key];
        if (current === undefined || !jsonEqual(current, normalized.result)) {
          const copy = writable(state.endpoints as { [key: string]: unknown }, owned);
          copy[action.key] = normalized.result;
          endpoints = copy;
        }
        const fresh = answered(action, previous);
        // a list of the response was not written (a newer whole list is stored): the key is not fresh
        const written = normalized.keptNewerList
          ? { ...fresh, expiresAt: Math.min(fresh.expiresAt, action.date - 1) }
          : fresh;
        meta = withMeta(state, action.key, written, owned);
      }
      return {
        state: {
          ...state,
          entities: normalized.entities,
          entitiesMeta: normalized.entitiesMeta,
          endpoints,
          meta,
          optimistic,
        },
        changes: {
          entities: normalized.changed,
          endpoints: older ? [] : [action.key],
          optimistic: optimistic !== state.optimistic,
        },
      };
    }
    case 'error': {
      const optimistic = withoutLayer(state.optimistic, action.settles);
      const previous = state.meta[action.key];
      const ignored =
        action.fetchedAt < state.lastReset || (previous !== undefined && previous.fetchedAt > action.fetchedAt);
      const meta = ignored
        ? state.meta
        : withMeta(
            state,
            action.key,
            {
              date: action.date,
              fetchedAt: action.fetchedAt,
              expiresAt: action.expiresAt,
              error: jsonKept(action.error),
              // an error keeps the data, but not an invalidation: the data is what it was
              invalidated: previous?.invalidated,
            },
            owned,
          );
      return {
        state: { ...state, meta, optimistic },
        changes: { entities: [], endpoints: ignored ? [] : [action.key], optimistic: optimistic !== state.optimistic },
      };
    }
    case 'optimistic':
      return withLayers(state, [...state.optimistic, action.layer]);
    case 'dropLayer':
      return withLayers(state, withoutLayer(state.optimistic, action.layer));
    case 'invalidate':
    case 'expire': {
      const meta = writable(state.meta as { [key: string]: RequestMeta | undefined }, owned);
      const changed: string[] = [];
      for (const key of action.keys) {
        const current = meta[key];
        if (!current && action.type === 'expire') continue;
        // the mark is stamped: the answer of a request that started before it cannot clear it
        const base = current ?? { date: action.date, fetchedAt: action.date, expiresAt: 0 };
        const markedAt = action.stamp ?? action.date;
        meta[key] =
          action.type === 'invalidate'
            ? { ...base, invalidated: true, expiresAt: 0, markedAt }
            : { ...base, expiresAt: Math.min(base.expiresAt, action.date - 1), markedAt };
        changed.push(key);
      }
      return changed.length
        ? { state: { ...state, meta }, changes: { ...NONE, endpoints: changed } }
        : { state, changes: NONE };
    }
    case 'setEntity': {
      if (action.date < state.lastReset) return { state, changes: NONE };
      const normalized = normalizeInto(
        action.schema,
        action.value,
        action.args,
        state,
        { fetchedAt: action.date, date: action.date, expiresAt: action.expiresAt },
        owned,
        true,
        action.since,
      );
      return normalized.changed.length === 0 && normalized.entitiesMeta === state.entitiesMeta
        ? { state, changes: NONE }
        : {
            state: { ...state, entities: normalized.entities, entitiesMeta: normalized.entitiesMeta },
            changes: { ...NONE, entities: normalized.changed },
          };
    }
    case 'gc': {
      if (action.keys.length === 0 && action.entities.length === 0) return { state, changes: NONE };
      const endpoints = copyTable(state.endpoints);
      const meta = copyTable(state.meta);
      for (const key of action.keys) {
        delete endpoints[key];
        delete meta[key];
      }
      const entities = copyTable(state.entities);
      const entitiesMeta = copyTable(state.entitiesMeta);
      for (const [key, pk] of action.entities) {
        const table = entities[key];
        if (table === undefined) continue;
        if (table === state.entities[key]) entities[key] = copyTable(table);
        delete entities[key]![pk];
        const metaTable = entitiesMeta[key];
        if (metaTable !== undefined) {
          if (metaTable === state.entitiesMeta[key]) entitiesMeta[key] = copyTable(metaTable);
          delete entitiesMeta[key]![pk];
        }
      }
      return {
        state: { ...state, endpoints, meta, entities, entitiesMeta },
        changes: { entities: action.entities, endpoints: action.keys, optimistic: false },
      };
    }
    case 'reset':
      return {
        state: initialState(action.date),
        changes: { entities: 'all', endpoints: 'all', optimistic: state.optimistic.length > 0 },
      };
  }
}
