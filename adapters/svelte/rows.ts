/**
 * The `reconcile` option of rx-rest/svelte: each entity of a query's data as a row that lives as long as
 * the query (keyed by its class and pk), whose fields are Svelte signals. A changed record writes only
 * the fields that changed, so only the effects that read them re-run, and a list whose membership and
 * order did not change stays the same array: a keyed `{#each}` over 5,000 rows does no work for one
 * changed record but update that record's text.
 *
 * A row is a read-only view with the entity's prototype: its methods and getters work (`todo.pk()`,
 * `todo instanceof Todo`), and `Object.keys`, spreads and `JSON.stringify` see its fields.
 */
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { keepRows, type Entity } from '../../core/index.js';

const FIELDS = Symbol('rx-rest/svelte row fields');
const KEYS = Symbol('rx-rest/svelte row pk fields');
/** The object behind a row's proxy: the entity's prototype, the row's fields as signals, and the fields its pk reads. */
type Target = { [FIELDS]: SvelteMap<PropertyKey, unknown>; [KEYS]: ReadonlySet<PropertyKey> };

const own = Map.prototype.has; // untracked: a key that is not a field (a method) adds no dependency
const raw = Map.prototype.get as (this: Map<PropertyKey, unknown>, key: PropertyKey) => unknown;

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

const handler: ProxyHandler<Target> = {
  get(target, key, receiver) {
    const fields = target[FIELDS];
    if (!own.call(fields, key)) return Reflect.get(target, key, receiver);
    // a pk field (the key of a keyed {#each}) is read untracked: the each block then depends on no row
    return target[KEYS].has(key) ? raw.call(fields, key) : fields.get(key);
  },
  has: (target, key) => target[FIELDS].has(key) || key in target,
  ownKeys: (target) => [...target[FIELDS].keys()] as (string | symbol)[],
  getOwnPropertyDescriptor(target, key) {
    const fields = target[FIELDS];
    if (!fields.has(key)) return Reflect.getOwnPropertyDescriptor(target, key);
    return { value: fields.get(key), writable: false, enumerable: true, configurable: true };
  },
  set(_target, key) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `rx-rest/svelte: a row of a query with { reconcile: true } is a read-only view of the cache (you set ${String(key)}). Write with controller.set(Entity, { pk }, fields) or a mutation (controller.fetch(Resource.partialUpdate, ...)).`
        : `rx-rest/svelte: read-only row (${String(key)})`,
    );
  },
  defineProperty(_target, key) {
    return handler.set!(_target, key, undefined, undefined);
  },
  deleteProperty(_target, key) {
    return handler.set!(_target, key, undefined, undefined);
  },
};

/** Each row's fields, to write them (the proxy itself is read-only). */
const fieldsOf = new WeakMap<object, SvelteMap<PropertyKey, unknown>>();

const create = (entity: Entity): object => {
  const prototype = Object.getPrototypeOf(entity) as object;
  const target = Object.create(prototype) as Target;
  const fields = (target[FIELDS] = new SvelteMap<PropertyKey, unknown>(Object.entries(entity)));
  target[KEYS] = keysOf(entity, prototype);
  const row = new Proxy(target, handler);
  fieldsOf.set(row, fields);
  return row;
};

/** Writes the fields of `entity` that changed into the row (a `SvelteMap` signals only a changed value). */
const update = (row: object, entity: Entity) => {
  const fields = fieldsOf.get(row)!;
  const record = entity as unknown as Record<string, unknown>;
  for (const field of Object.keys(record)) fields.set(field, record[field]);
  if (fields.size !== Object.keys(record).length)
    for (const field of [...Map.prototype.keys.call(fields)])
      if (!Object.hasOwn(record, field as string)) fields.delete(field);
};

/** Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const rows = keepRows<object>({ create, update });
  // untracked: a store may emit while a derived or the template reads it, and the rows' signals are written then
  return (data) => untrack(() => rows(data));
}
