/**
 * The `reconcile` option of rx-rest/svelte: each entity of a query's data as a row object that lives as
 * long as the query (keyed by its class and pk), whose fields are reactive getters of the entity's
 * current record. A changed record updates the effects that read its row, and the list stays the same
 * array: no `{#each}` re-runs, in the runes form or over `$todos.data`.
 */
import { untrack } from 'svelte';
import { SvelteMap } from 'svelte/reactivity';
import { keepRows, type Entity } from '../../core/index.js';

type Fields = Record<string, unknown>;

/** Maps a query's data to the same data with its entities as reactive rows (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const records = new SvelteMap<object, Fields>(); // row → its record; a read in an effect tracks that row only
  const fields = new Map<object, PropertyDescriptorMap>(); // prototype → the getters of its fields
  const getters = (entity: Entity) => {
    const proto = Object.getPrototypeOf(entity) as object;
    let map = fields.get(proto);
    if (!map) fields.set(proto, (map = {}));
    for (const field of Object.keys(entity))
      map[field] ??= {
        enumerable: true,
        get(this: object) {
          return records.get(this)?.[field];
        },
      };
    return { proto, map };
  };
  const rows = keepRows<object>({
    create(entity) {
      const { proto, map } = getters(entity);
      const row = Object.defineProperties(Object.create(proto) as object, map);
      records.set(row, entity as unknown as Fields);
      return row;
    },
    update(row, entity) {
      const { map } = getters(entity);
      for (const field of Object.keys(map))
        if (!Object.hasOwn(row, field)) Object.defineProperty(row, field, map[field]!);
      records.set(row, entity as unknown as Fields);
    },
    drop: (row) => records.delete(row),
  });
  // a first read can happen while Svelte evaluates a template or a derived, where writing state is refused
  return (data) => untrack(() => rows(data));
}
