/**
 * The `reconcile` option of rx-rest/solid: a query's entities as Solid stores that live as long as the
 * query, one per entity (its table and pk), updated field by field. `<For>` then keeps a changed row's
 * DOM (its focus, an input's value) and re-renders only the fields that changed, as solid-query's
 * `reconcile` keyed by id does.
 */
import { batch } from 'solid-js';
import { createStore, type SetStoreFunction } from 'solid-js/store';
import { Entity } from '../../core/index.js';

/** One entity as a store: the record it shows now, the store's raw object, its proxy and setter. */
interface Row {
  source: object;
  readonly raw: Record<string, unknown>;
  readonly proxy: object;
  readonly set: SetStoreFunction<Record<string, unknown>>;
  seen: number;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A field's value as a store holds it: a plain object is copied (a store merges into the object it holds). */
const stored = (value: unknown) => (isPlain(value) ? { ...value } : value);

/**
 * A function that maps a query's data to the same data with its entities as stores: the top-level
 * entity, the entities of a top-level array, and those of an object's array or entity members (a
 * `{ results, next }` page). An entity whose record did not change is the same store (no work); a
 * changed one is the same store with its changed fields set. An array whose members are the same
 * stores as last time is the same array. Everything else is the core's data unchanged.
 */
export function reconcileRows(): <T>(data: T) => T {
  const rows = new Map<unknown, Map<unknown, Row>>(); // entity class → pk → row
  const bySource = new WeakMap<object, Row>();
  let count = 0; // rows in `rows`
  let visit = 0;
  let seen = 0; // rows visited by this call
  let last: unknown;

  const row = (entity: Entity): object => {
    const known = bySource.get(entity);
    if (known) {
      if (known.seen !== visit) seen++;
      known.seen = visit;
      return known.proxy;
    }
    const type = entity.constructor;
    const pk = entity.pk();
    let table = rows.get(type);
    if (!table) rows.set(type, (table = new Map()));
    let found = table.get(pk);
    if (!found) {
      const raw = Object.create(Object.getPrototypeOf(entity) as object) as Record<string, unknown>;
      for (const field of Object.keys(entity))
        raw[field] = stored((entity as unknown as Record<string, unknown>)[field]);
      const [proxy, set] = createStore(raw);
      found = { source: entity, raw, proxy, set, seen: visit };
      table.set(pk, found);
      count++;
      seen++;
    } else {
      const { raw, set } = found;
      const record = entity as unknown as Record<string, unknown>;
      for (const field of Object.keys(record))
        if (raw[field] !== record[field]) set(field, () => stored(record[field]));
      for (const field of Object.keys(raw)) if (!(field in record)) set(field, undefined);
      if (found.seen !== visit) seen++;
      found.seen = visit;
      bySource.delete(found.source);
      found.source = entity;
    }
    bySource.set(entity, found);
    return found.proxy;
  };

  const list = (items: readonly unknown[], previous: unknown): unknown[] => {
    const out = items.map((item) => (item instanceof Entity ? row(item) : item));
    const same =
      Array.isArray(previous) && previous.length === out.length && out.every((item, i) => item === previous[i]);
    return same ? previous : out;
  };

  const member = (value: unknown, previous: unknown): unknown =>
    Array.isArray(value) ? list(value, previous) : value instanceof Entity ? row(value) : value;

  return <T>(data: T): T => {
    visit++;
    seen = 0;
    let out: unknown = data;
    batch(() => {
      if (Array.isArray(data) || data instanceof Entity) out = member(data, last);
      else if (isPlain(data)) {
        const before = isPlain(last) ? last : undefined;
        const next: Record<string, unknown> = {};
        let same = !!before && Object.keys(before).length === Object.keys(data).length;
        for (const [key, value] of Object.entries(data)) {
          next[key] = member(value, before?.[key]);
          same &&= next[key] === before![key];
        }
        out = same ? before : next;
      }
    });
    if (seen < count) sweep();
    last = out;
    return out as T;
  };

  /** Forgets the rows this call did not visit (entities that left the data). */
  function sweep() {
    for (const table of rows.values())
      for (const [pk, found] of table)
        if (found.seen !== visit) {
          table.delete(pk);
          bySource.delete(found.source);
          count--;
        }
  }
}
