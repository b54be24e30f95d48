/**
 * The `reconcile` option of rx-rest/solid: each entity of a query's data as a Solid store that lives as
 * long as the query (keyed by its class and pk), updated field by field. `<For>` then keeps a changed
 * row's DOM (its focus, an input's value) and re-renders only the fields that changed, as solid-query's
 * `reconcile` keyed by id does.
 */
import { batch } from 'solid-js';
import { createStore, type SetStoreFunction } from 'solid-js/store';
import { keepRows, type Entity } from '../../core/index.js';

type Fields = Record<string, unknown>;
const isPlain = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
/** A field's value as a store holds it: a plain object is copied (a store merges into the object it holds). */
const stored = (value: unknown) => (isPlain(value) ? { ...value } : value);

const setters = new WeakMap<object, { raw: Fields; set: SetStoreFunction<Fields> }>();

/** Maps a query's data to the same data with its entities as stores (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const rows = keepRows<object>({
    create(entity: Entity) {
      const raw = Object.create(Object.getPrototypeOf(entity) as object) as Fields;
      for (const [field, value] of Object.entries(entity)) raw[field] = stored(value);
      const [proxy, set] = createStore(raw);
      setters.set(proxy, { raw, set });
      return proxy;
    },
    update(proxy, entity) {
      const { raw, set } = setters.get(proxy)!;
      const record = entity as unknown as Fields;
      for (const field of Object.keys(record))
        if (raw[field] !== record[field]) set(field, () => stored(record[field]));
      for (const field of Object.keys(raw)) if (!(field in record)) set(field, undefined);
    },
  });
  return (data) => batch(() => rows(data));
}
