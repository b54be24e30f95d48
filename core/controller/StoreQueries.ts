/**
 * Reads that go straight to the entity tables, without a request: `controller.get` of a queryable (an
 * Entity by pk or by one of its indexes, `schema.All`, `schema.Query`, a Collection stored under
 * arguments, an object of those) and `controller.observe` of one (live, never fetches). Functions of the
 * reader (and the store), not a class: the controller holds both already. `controller.set(Entity, ...args,
 * value)` is the store's `setEntity` action.
 *
 * A live query re-reads when a write touches a record its last read depended on, or any record of a
 * table whose new rows could change it (`queryTables`: All rows, index lookups, lists by arguments).
 */
import { Observable } from 'rxjs';
import { SchemaNode, isEntityClass, query, queryTables, type Denormalize } from '../schema/index.js';
import { toError } from '../errors.js';
import type { Store } from '../store/index.js';
import type { QueryReader } from './QueryReader.js';
import { IDLE, type QueryState, type Queryable } from './types.js';

/** Whether `value` is a queryable (an Entity class or a schema object), not an endpoint. */
export function isQueryable(value: unknown): value is Queryable {
  return value instanceof SchemaNode || isEntityClass(value);
}

/** The current answer to a queryable (optimistic layers applied); `undefined` when missing or INVALID. */
export function storeGet<S extends Queryable>(
  reader: QueryReader,
  schema: S,
  args: readonly unknown[],
): Denormalize<S> | undefined {
  const read = query(schema, args, reader.entities(), reader.memo);
  return read.invalid ? undefined : read.data;
}

/**
 * The answer as a live `QueryState` stream: emits on subscribe and whenever the answer changes. While subscribed,
 * the records its last read showed are in `live` (by subscriber): the collector keeps them.
 */
export function storeObserve<S extends Queryable>(
  store: Store,
  reader: QueryReader,
  schema: S,
  args: readonly unknown[],
  live: Map<object, ReadonlySet<string>>,
): Observable<QueryState<Denormalize<S>>> {
  const tables = new Set(queryTables(schema));
  return new Observable<QueryState<Denormalize<S>>>((subscriber) => {
    let paths: ReadonlySet<string> = new Set();
    subscriber.add(() => live.delete(subscriber));
    let last: QueryState<Denormalize<S>> | undefined;
    const emit = () => {
      let next: QueryState<Denormalize<S>>;
      try {
        const read = query(schema, args, reader.entities(), reader.memo);
        live.set(subscriber, (paths = read.paths));
        next = { ...IDLE, data: read.invalid ? undefined : read.data };
      } catch (error) {
        next = { ...IDLE, error: toError(error) };
      }
      if (last === undefined || last.data !== next.data || last.error !== next.error) subscriber.next((last = next));
    };
    // listening before the first emission: a write its subscriber makes then is seen
    const unlisten = store.listen(({ changes }) => {
      if (changes.entities === 'all' || changes.optimistic) return emit();
      for (const [key, pk] of changes.entities) {
        if (tables.has(key) || paths.has(`${key}\u0000${pk}`)) return emit();
      }
    });
    emit();
    return unlisten;
  });
}
