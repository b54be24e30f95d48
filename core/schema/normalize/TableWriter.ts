/**
 * The copy-on-write table writer of a normalize: what it knows of each table it writes, and the reads of
 * a table as it is now (the base table until the first write copies it).
 */
import { forgetDerived } from '../tableDerived.js';
import { copyTable, ownValue } from '../safeObject.js';
import type { EntityMeta, EntityMetaTables, EntityTable, EntityTables, NormalizedTables } from '../types.js';
import type { Repeated } from './unchanged.js';

/** What the writer knows about one table during a normalize: its copies (made on first write) and changes. */
export interface TableState {
  readonly key: string;
  /** The table before this normalize. */
  readonly base: EntityTable | undefined;
  /** The table as it is now (the base table until the first write copies it). */
  table: EntityTable | undefined;
  meta: { [pk: string]: EntityMeta | undefined } | undefined;
  copied: boolean;
  metaCopied: boolean;
  /** Both tables are prototype-free (or absent): a plain read finds only own records. */
  readonly bare: boolean;
  /** Neither table existed before this normalize: each record in it was written now, with its meta. */
  readonly fresh: boolean;
  /** Records written by this normalize and met again, by pk (see `Normalizer.#holdsAlready`). */
  repeats: Map<string, Repeated> | undefined;
}

/** Whether `table` has no prototype, so that `table[pk]` can only be an own record (or absent). */
const bare = (table: object | undefined) => table === undefined || Object.getPrototypeOf(table) === null;

/** The record of `pk` in `state`'s table, as it is now. */
export function recordOf(state: TableState, pk: string): unknown {
  return state.bare ? state.table?.[pk] : ownValue(state.table, pk);
}

/** The meta of `pk` in `state`'s meta table, as it is now. */
export function metaOf(state: TableState, pk: string): EntityMeta | undefined {
  return state.bare ? state.meta?.[pk] : ownValue(state.meta, pk);
}

/**
 * Copy-on-write writer over the entity tables: the first write to a table copies that table (and the
 * root once); everything else keeps its identity. A table in `owned` is seen by no one but the store
 * (no snapshot was handed out since it was made), so it is written in place: a single-record write then
 * costs the same in a table of ten records as in one of ten thousand. Copies are added to `owned`.
 * A normalize that fails undoes its in-place writes (`undo`): a write is all or nothing.
 */
export class TableWriter {
  declare entities: EntityTables;
  declare entitiesMeta: EntityMetaTables;
  readonly changed: [key: string, pk: string][] = [];
  readonly #tables = new Map<string, TableState>();
  readonly #owned: WeakSet<object> | undefined;
  #last: TableState | undefined;
  #previous: TableState | undefined;
  #rootCopied = false;
  #metaRootCopied = false;
  /** In-place writes, as (table, pk, the value before) triples, to undo if the normalize fails. */
  readonly #undo: unknown[] = [];

  constructor(state: NormalizedTables, owned: WeakSet<object> | undefined) {
    this.entities = state.entities;
    this.entitiesMeta = state.entitiesMeta;
    this.#owned = owned;
  }

  /** `table` itself when the store owns it, else a copy (owned from now on). */
  #writable<T extends { readonly [key: string]: unknown }>(table: T | undefined): T {
    const owned = this.#owned;
    if (table !== undefined && owned?.has(table)) {
      forgetDerived(table); // its cached pks and indexes are about to go stale
      return table;
    }
    const copy = copyTable(table) as T;
    owned?.add(copy);
    return copy;
  }

  /** Puts back what the in-place writes replaced, latest first: the store's tables are as they were. */
  undo(): void {
    const undo = this.#undo;
    for (let i = undo.length - 3; i >= 0; i -= 3) {
      const table = undo[i] as Record<string, unknown>;
      const pk = undo[i + 1] as string;
      const value = undo[i + 2];
      if (value === undefined) delete table[pk];
      else table[pk] = value;
      forgetDerived(table);
    }
    undo.length = 0;
  }

  /**
   * The record `pk` of `state`'s table held before this normalize wrote it: in the base table, or, for a table
   * written in place, what the first in-place write replaced (a scan: only for a record written again).
   */
  original(state: TableState, pk: string): unknown {
    if (state.table !== state.base) return ownValue(state.base, pk);
    const undo = this.#undo;
    for (let i = 0; i < undo.length; i += 3) if (undo[i] === state.table && undo[i + 1] === pk) return undo[i + 2];
    return undefined;
  }

  /** The state of table `key` (the last two at hand: writes mostly alternate between a record and a nested one). */
  state(key: string): TableState {
    const last = this.#last;
    if (last !== undefined && last.key === key) return last;
    const previous = this.#previous;
    this.#previous = last;
    if (previous !== undefined && previous.key === key) return (this.#last = previous);
    let state = this.#tables.get(key);
    if (!state) {
      const base = ownValue(this.entities, key);
      const meta = ownValue(this.entitiesMeta, key);
      state = {
        key,
        base,
        table: base,
        meta,
        copied: false,
        metaCopied: false,
        bare: bare(base) && bare(meta),
        fresh: base === undefined && meta === undefined,
        repeats: undefined,
      };
      this.#tables.set(key, state);
    }
    this.#last = state;
    return state;
  }

  get(key: string, pk: string): unknown {
    return recordOf(this.state(key), pk);
  }

  pks(key: string): string[] {
    const table = this.state(key).table;
    return table ? Object.keys(table) : [];
  }

  /** Stores `value` (not the current record) under `pk` in `state`'s table, with `meta`. */
  set(state: TableState, pk: string, current: unknown, value: unknown, meta: EntityMeta): void {
    if (value !== current) {
      // reported on the first write (when the record is still the base table's), not on later ones; a
      // table written in place is its own base, so a record written twice there is listed twice (stored at
      // the end: a push is a call into the engine)
      if (current === undefined || current === ownValue(state.base, pk))
        this.changed[this.changed.length] = [state.key, pk];
      if (!state.copied) {
        if (!this.#rootCopied) {
          this.entities = copyTable(this.entities);
          this.#rootCopied = true;
        }
        state.table = this.entities[state.key] = this.#writable(state.table);
        state.copied = true;
      }
      this.#write(state.table as EntityTable, pk, value);
    }
    if (!state.metaCopied) {
      if (!this.#metaRootCopied) {
        this.entitiesMeta = copyTable(this.entitiesMeta);
        this.#metaRootCopied = true;
      }
      state.meta = this.entitiesMeta[state.key] = this.#writable(state.meta);
      state.metaCopied = true;
    }
    this.#write(state.meta as EntityTable, pk, meta);
  }

  /**
   * `table[pk] = value` (the table is a copy or the store's own, prototype-free either way); for the
   * store (`owned`), what it held is kept to undo (in a copy that is harmless: the copy is dropped).
   */
  #write(table: EntityTable, pk: string, value: unknown): void {
    if (this.#owned) {
      const undo = this.#undo;
      const at = undo.length; // stored at the end: a push is a call into the engine
      undo[at] = table;
      undo[at + 1] = pk;
      undo[at + 2] = table[pk];
    }
    table[pk] = value;
  }
}
