/**
 * The `reconcile` option of rx-rest/svelte: each entity of a query's data as a row that lives as long as
 * the query (keyed by its class and pk), whose fields are Svelte signals. A changed record writes only
 * the fields that changed, so only the effects that read them re-run, and a list whose membership and
 * order did not change stays the same array: a keyed `{#each}` over 5,000 rows does no work for one
 * changed record but update that record's text.
 *
 * A row is a read-only view with the entity's prototype: its methods and getters work (`todo.pk()`,
 * `todo instanceof Todo`), and `Object.keys`, spreads and `JSON.stringify` see its fields.
 *
 * What a row costs: a row is its latest record and a `Proxy`; its fields' signals live in columns, one
 * `SvelteMap` per field name shared by the rows that one emission made (row → value), so a first render of
 * 5,000 rows makes a handful of maps, not 5,000 maps and their signals, and a field's signal is made when
 * something first reads it (a field no template reads, or a pk, never has one). Reading a field the record
 * does not have is not tracked (as before: a row's fields are its record's).
 */
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { keepRows, type Entity } from '../../core/index.js';
import { flushQueries, onQueriesWait } from '../../core/internal.js';

type Record = { readonly [field: string]: unknown };
/** Per field name, the signals of one emission's rows (the row's target → the field's value). */
type Columns = Map<string, SvelteMap<Target, unknown>>;

const RECORD = Symbol();
const COLUMNS = Symbol();
const KEYS = Symbol();
const TARGET = Symbol(); // a row's proxy answers its target for it (see `handler.get`)
/** The object behind a row's proxy: the entity's prototype, its latest record, the columns of its fields, and the fields its pk reads. */
interface Target {
  [RECORD]: Record;
  [COLUMNS]?: Columns; // set when the emission that made the row ends (no one reads a row before)
  readonly [KEYS]: ReadonlySet<PropertyKey>;
}

/** Per entity prototype, the fields `pk()` reads: constant for a row (another pk is another row). */
const pkFields = new WeakMap<object, ReadonlySet<PropertyKey>>();
const keysOf = (entity: Entity, prototype: object): ReadonlySet<PropertyKey> => {
  let keys = pkFields.get(prototype);
  if (!keys) {
    const read = new Set<PropertyKey>();
    const recorder = new Proxy(entity, {
      get: (target, key, receiver) => (Object.hasOwn(target, key) && read.add(key), Reflect.get(target, key, receiver)),
    });
    try {
      entity.pk.call(recorder);
    } catch {
      read.clear(); // a pk that needs its parent or args: every field tracked
    }
    pkFields.set(prototype, (keys = read));
  }
  return keys;
};

/** A write made queries wait since the rows' last read (their re-read, which updates the rows, is to run first). */
let written = false;
onQueriesWait(() => (written = true));

/**
 * What a row's every read runs first: a read right after a write re-reads the waiting queries (which updates
 * their rows; untracked: in a derived or the markup too), so that a row is current whenever it is read.
 */
const current = (target: Target): Target => {
  if (written) {
    written = false;
    untrack(flushQueries);
  }
  return target;
};

/** A field's value, tracked (a pk field, the key of a keyed {#each}, untracked: the each block then depends on no row). */
const read = (target: Target, key: string): unknown => {
  const column = target[COLUMNS]?.get(key);
  if (!column || target[KEYS].has(key)) return target[RECORD][key];
  return column.get(target);
};

/** The named error of a write to a row (rows are read-only). */
const refuse = (_target: Target, key: PropertyKey): never => {
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `rx-rest/svelte: a row of a query with { reconcile: true } is a read-only view of the cache (you set ${String(key)}). Write with controller.set(Entity, { pk }, fields) or a mutation (controller.fetch(Resource.partialUpdate, ...)).`
      : `rx-rest/svelte: read-only row (${String(key)})`,
  );
};

/** Whether the row's record has `key` (a field; anything else is the prototype's). */
const owns = (target: Target, key: PropertyKey) => Object.hasOwn(target[RECORD], key);

const handler: ProxyHandler<Target> = {
  get: (target, key, receiver) =>
    key === TARGET
      ? target
      : owns(current(target), key)
        ? read(target, key as string)
        : Reflect.get(target, key, receiver),
  has: (target, key) => key in current(target)[RECORD], // the record's fields, and its prototype (the row's)
  ownKeys: (target) => Object.keys(current(target)[RECORD]),
  // a row's own properties are its fields (the target's, all configurable, are the proxy's internals)
  getOwnPropertyDescriptor: (target, key) =>
    owns(current(target), key)
      ? { value: read(target, key as string), enumerable: true, configurable: true } // writable: false by default
      : undefined,
  set: refuse,
  defineProperty: refuse,
  deleteProperty: refuse,
};

// A SvelteMap keeps its entries in the Map it extends and makes a key's signal when the key is first read:
// filled with Map's own `set`, as its constructor fills it, it holds the values and has no signal yet.
const put = Map.prototype.set as (this: Map<Target, unknown>, key: Target, value: unknown) => unknown;

/** The column of `field` (made when no row had it yet). */
const columnOf = (columns: Columns, field: string) => {
  let column = columns.get(field);
  if (!column) columns.set(field, (column = new SvelteMap()));
  return column;
};

/** Gives the rows one emission made their columns: per field, one map of the rows that have it. */
const columnsFor = (made: readonly Target[]) => {
  const columns: Columns = new Map();
  for (const target of made) {
    const record = target[RECORD];
    for (const field of Object.keys(record)) put.call(columnOf(columns, field), target, record[field]);
    target[COLUMNS] = columns;
  }
};

/** Takes the fields of `before` (the row's record) that `record` lacks out of its columns (the effects that read them run again). */
const forget = (target: Target, before: Record, record?: Record) => {
  for (const field of Object.keys(before))
    if (!record || !Object.hasOwn(record, field)) target[COLUMNS]?.get(field)?.delete(target);
};

/** Writes the fields of `entity` that changed into the row (a field the row did not have gets a column of its own). */
const update = (row: object, entity: Entity) => {
  const target = (row as { [TARGET]: Target })[TARGET];
  const before = target[RECORD];
  const record = (target[RECORD] = entity as unknown as Record);
  const columns = target[COLUMNS];
  if (!columns) return; // made in this emission: its columns, made at the end, read the latest record
  for (const field of Object.keys(record)) {
    const value = record[field];
    if (!Object.hasOwn(before, field) || before[field] !== value) columnOf(columns, field).set(target, value);
  }
  forget(target, before, record);
};

/** Lets go of a row that left the data: its fields leave the columns (which the other rows of its emission keep). */
const drop = (row: object) => {
  const target = (row as { [TARGET]: Target })[TARGET];
  forget(target, target[RECORD]);
};

/** Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const made: Target[] = [];
  const create = (entity: Entity): object => {
    const prototype = Object.getPrototypeOf(entity) as object;
    const target = Object.create(prototype) as Target;
    target[RECORD] = entity as unknown as Record;
    (target as { [KEYS]: ReadonlySet<PropertyKey> })[KEYS] = keysOf(entity, prototype);
    made.push(target);
    return new Proxy(target, handler);
  };
  const rows = keepRows<object>({ create, update, drop });
  // untracked: a store may emit while a derived or the template reads it, and the rows' signals are written then
  return (data) =>
    untrack(() => {
      try {
        return rows(data);
      } finally {
        if (made.length) columnsFor(made.splice(0));
      }
    });
}
