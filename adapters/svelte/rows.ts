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
 * `SvelteMap` per field name shared by the query's rows (row → value), so a first render of 5,000 rows makes a
 * handful of maps, not 5,000 maps. A row enters a field's column when something first reads the field (a
 * field no template reads, or a pk, never has an entry or a signal), and a change writes only the entries
 * that exist. Reading a field the record does not have is not tracked (as before: a row's fields are its
 * record's).
 */
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { keepRows, type Entity } from '../../core/index.js';
import { flushQueries, onQueriesWait } from '../../core/internal.js';

type Record = { readonly [field: string]: unknown };
/** Per field name, the signals of a query's rows (the row's target → the field's value): a row enters a field's column when the field is first read. */
type Columns = Map<string, SvelteMap<Target, unknown>>;

const RECORD = Symbol();
const COLUMNS = Symbol();
const KEYS = Symbol();
const TARGET = Symbol(); // a row's proxy answers its target for it (see `handler.get`)
/** The object behind a row's proxy: the entity's prototype, its latest record, the columns of its fields, and the fields its pk reads. */
interface Target {
  [RECORD]: Record;
  readonly [COLUMNS]: Columns; // the query's
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
  if (target[KEYS].has(key)) return target[RECORD][key];
  const column = target[COLUMNS].get(key)!; // made with the row, or when its record gained the field
  // a field enters its column when first read: a field no one reads costs nothing
  if (!has.call(column, target)) put.call(column, target, target[RECORD][key]);
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
const has = Map.prototype.has as (this: Map<Target, unknown>, key: Target) => boolean;
const value = Map.prototype.get as (this: Map<Target, unknown>, key: Target) => unknown;

/**
 * Makes the columns of the fields of `record` that no row had yet. Made with the rows (untracked), not by the
 * first read: a SvelteMap made by the reaction that first reads a key makes that key's signal the reaction's
 * own state, which it does not track.
 */
const columnsOf = (columns: Columns, record: Record) => {
  // for-in allocates no array (an enumerable field of the prototype would get a column no one uses)
  for (const field in record) if (!columns.has(field)) columns.set(field, new SvelteMap());
};

/** Takes the fields of `before` (the row's record) that `record` lacks out of their columns (the effects that read them run again). */
const forget = (target: Target, before: Record, record?: Record) => {
  for (const field of Object.keys(before))
    if (!record || !Object.hasOwn(record, field)) target[COLUMNS].get(field)?.delete(target);
};

/** Shows `entity` in the row: the changed fields of its columns are written (a field no one read has no entry to write). */
const update = (row: object, entity: Entity) => {
  const target = (row as { [TARGET]: Target })[TARGET];
  const before = target[RECORD];
  const record = (target[RECORD] = entity as unknown as Record);
  const columns = target[COLUMNS];
  for (const field of Object.keys(record)) {
    const column = columns.get(field);
    if (!column)
      columns.set(field, new SvelteMap()); // a field no row had yet (see `columnsOf`)
    else if (has.call(column, target) && value.call(column, target) !== record[field])
      column.set(target, record[field]);
  }
  forget(target, before, record);
};

/** Lets go of a row that left the data: its fields leave the columns (which the query's other rows keep). */
const drop = (row: object) => {
  const target = (row as { [TARGET]: Target })[TARGET];
  forget(target, target[RECORD]);
};

/** Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const columns: Columns = new Map();
  const create = (entity: Entity): object => {
    const prototype = Object.getPrototypeOf(entity) as object;
    const target = Object.create(prototype) as Target;
    target[RECORD] = entity as unknown as Record;
    (target as { [KEYS]: ReadonlySet<PropertyKey> })[KEYS] = keysOf(entity, prototype);
    (target as { [COLUMNS]: Columns })[COLUMNS] = columns;
    columnsOf(columns, target[RECORD]);
    return new Proxy(target, handler);
  };
  const rows = keepRows<object>({ create, update, drop });
  // untracked: a store may emit while a derived or the template reads it, and the rows' signals are written then
  return (data) => untrack(() => rows(data));
}
