/**
 * The `reconcile` option of rx-rest/svelte: each entity of a query's data as a row that lives as long as
 * the query (keyed by its class and pk), with one Svelte signal. A changed record bumps its row's signal, so
 * only the effects that read that row re-run, and a list whose membership and order did not change stays the
 * same array: a keyed `{#each}` over 5,000 rows does no work for one changed record but update that row.
 *
 * A row is a read-only view with the entity's prototype: its methods and getters work (`todo.pk()`,
 * `todo instanceof Todo`), and `Object.keys`, spreads and `JSON.stringify` see its fields; `$state.snapshot` copies
 * them through the row's `toJSON` (`structuredClone` cannot copy a Proxy). Every write (a field, the prototype,
 * `Object.freeze`) throws a named TypeError and changes nothing.
 *
 * What a row costs: its latest record, a `Proxy`, and an entry in its query's `SvelteMap` of row → version, whose
 * signal Svelte makes when something first reads one of the row's fields: one signal per row (a first render of
 * 5,000 rows showing two fields makes 5,000 signals, where a signal per field made 10,000, each with an entry in a
 * map per field). A field's read tracks the row's signal and answers the latest record's value, so a field no one
 * read while it changed shows its latest value when first read. A new record bumps the version when a field that
 * a read of the query's rows tracked differs from the last record's: every effect that read the row runs again (a
 * keyed `{#each}`'s `<li>` has one; a row whose fields are read by several effects runs them all, not only the
 * changed field's), and a write of fields no row was read for runs none. A field the record does not have yet is
 * tracked too (read, `in`), and once something read a row's keys (`Object.keys`, a spread, JSON) a record with other
 * fields bumps the version. A pk's fields (the key of a keyed `{#each}`, whose block then depends on no row) are read
 * untracked: `pk()` is to read the same fields for every entity of its class.
 */
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { keepRows, type Entity } from '../../core/index.js';
import { flushQueries, onQueriesWait } from '../../core/internal.js';

type Record = { readonly [field: string]: unknown };

const RECORD = Symbol();
const TARGET = Symbol(); // a row's proxy answers its target for it (see `handler.get`)
/** The object behind a row's proxy: the entity's prototype and its latest record. */
interface Target {
  [RECORD]: Record;
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
const flush = () => {
  written = false;
  untrack(flushQueries);
};

/** A row's `toJSON` (unless its class has one): a plain copy of its fields, which `$state.snapshot` copies on. */
function toJSON(this: object) {
  return { ...this };
}

/** The named error of a write to a row (rows are read-only). */
const refuse = (_target: Target, key: PropertyKey): never => {
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `rx-rest/svelte: a row of a query with { reconcile: true } is a read-only view of the cache (you set ${String(key)}). Write with controller.set(Entity, { pk }, fields) or a mutation (controller.fetch(Resource.partialUpdate, ...)).`
      : `rx-rest/svelte: read-only row (${String(key)})`,
  );
};

// A SvelteMap keeps its entries in the Map it extends and makes a key's signal when the key is first read:
// filled with Map's own `set`, as its constructor fills it, it holds the value and has no signal yet.
const put = Map.prototype.set as (this: Map<Target, number>, key: Target, value: number) => unknown;
const version = Map.prototype.get as (this: Map<Target, number>, key: Target) => number;

/**
 * Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not changed.
 * Call it untracked (`untrack`).
 */
export function reconcileRows(): <T>(data: T) => T {
  // the rows' signals (row → version). Made with the query, not by a read: a SvelteMap made by the reaction that
  // first reads a key makes that key's signal the reaction's own state, which it does not track.
  const versions = new SvelteMap<Target, number>();
  const shown = new Set<PropertyKey>(); // the fields the rows' reads tracked (any row of the query's)
  let prototype: object | undefined; // the last row's, and the fields its pk reads
  let keys: ReadonlySet<PropertyKey> = new Set();

  /** Tracks the row's signal for a read of its record's field `key` (a pk field's read is untracked). */
  const track = (target: Target, key: PropertyKey) => {
    const proto = Object.getPrototypeOf(target) as object;
    if ((proto === prototype ? keys : pkFields.get(proto)!).has(key)) return;
    shown.add(key);
    versions.has(target);
  };
  let keyed = false;
  /** Tracks a read of a field the record does not have (yet): a string key that is no member of the class. */
  const absent = (target: Target, key: PropertyKey) => typeof key === 'string' && track(target, key);

  const handler: ProxyHandler<Target> = {
    get: (target, key, receiver) => {
      if (written) flush();
      const record = target[RECORD];
      if (Object.hasOwn(record, key)) return (track(target, key), record[key as string]);
      if (key === TARGET) return target;
      if (key in target) return Reflect.get(target, key, receiver);
      return key === 'toJSON' ? toJSON : void absent(target, key);
    },
    // the record's fields, and its prototype (the row's)
    has: (target, key) => (written && flush(), key in target || absent(target, key), key in target[RECORD]),
    ownKeys: (target) => (written && flush(), (keyed = true), versions.has(target), Object.keys(target[RECORD])),
    // a row's own properties are its fields (the target's, all configurable, are the proxy's internals)
    getOwnPropertyDescriptor: (target, key) => {
      if (written) flush();
      const record = target[RECORD];
      if (!Object.hasOwn(record, key)) return void absent(target, key);
      track(target, key);
      return { value: record[key as string], enumerable: true, configurable: true }; // writable: false by default
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: (target) => refuse(target, 'its prototype'),
    preventExtensions: (target) => refuse(target, 'it non-extensible'), // freeze, seal: a non-extensible target breaks the proxy
  };

  const create = (entity: Entity): object => {
    const proto = Object.getPrototypeOf(entity) as object;
    if (proto !== prototype) keys = keysOf(entity, (prototype = proto));
    const target = Object.create(proto) as Target;
    target[RECORD] = entity as unknown as Record;
    put.call(versions, target, 0); // its signal is made when a field is first read
    return new Proxy(target, handler);
  };
  /**
   * Shows `entity` in the row: its signal is bumped (the effects that read the row run again) when a field the rows'
   * reads tracked differs from the record before (changed, gained or gone), or, once a read tracked a row's keys
   * (`Object.keys`, a spread, JSON: each of its fields is tracked then), a field joined. (One function: a page's
   * first writes run it before the engine has type feedback for it, where every call counts.)
   */
  const update = (row: object, entity: Entity) => {
    const target = (row as { [TARGET]: Target })[TARGET];
    const before = target[RECORD];
    const record = (target[RECORD] = entity as unknown as Record);
    let changed = keyed && Object.keys(record).length !== Object.keys(before).length;
    for (const field of shown) changed ||= before[field as string] !== record[field as string];
    if (changed) versions.set(target, version.call(versions, target) + 1);
  };
  /** Lets go of a row that left the data: its signal leaves the map. */
  const drop = (row: object) => versions.delete((row as { [TARGET]: Target })[TARGET]);

  // to be called untracked: a store may emit while a derived or the template reads it, and the rows' signals are
  // written then (`reconciled` in index.ts)
  return keepRows<object>({ create, update, drop });
}
