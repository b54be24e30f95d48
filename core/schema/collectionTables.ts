/**
 * The tables of collections' lists: their names, and what the lists of each hold (the pks of one
 * entity table, or the members of a Union).
 */
import { isEntityClass, entityKey } from './Entity.js';
import { isUnion } from './collectionMerges.js';
import { schemaLabel } from './schemaKind.js';
import type { Union } from './Union.js';

/**
 * What the lists of each collection table hold: the pks of one entity table, or the `{ id, schema }`
 * members of a Union (see `Union.listItems`); `null` when collections of other items share the table (or
 * hold what is not records of entity tables).
 */
type ListItems = string | ReturnType<Union['listItems']>;
const itemTables = new Map<string, ListItems | null>();

/**
 * The record (`[entity key, pk]`) an item of the lists stored in table `listKey` names, when one kind of
 * collection alone uses that table (the garbage collector takes collected records out of them): a pk
 * of an Entity's collections, a `{ id, schema }` member of a Union's.
 */
export function listItemRecord(
  listKey: string,
): ((item: unknown) => readonly [string, string] | undefined) | undefined {
  const items = itemTables.get(listKey);
  if (items === undefined || items === null) return undefined;
  if (typeof items === 'string') return (item) => (typeof item === 'string' ? [items, item] : undefined);
  return items.read;
}

/** What the lists of a collection of `item` hold (see `itemTables`); `null` when not records of entity tables. */
function listItemsOf(item: unknown, values: boolean): ListItems | null {
  if (values) return null;
  if (isEntityClass(item)) return entityKey(item);
  return isUnion(item) ? item.listItems() : null;
}

// the same pks, or a Union's members in the same tables (JSON leaves its `read` out)
const sameItems = (a: ListItems | null, b: ListItems | null) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** Notes what a collection of `item` (a Values collection: `values`) stores in its lists' table `listKey`. */
export function noteItemTable(listKey: string, item: unknown, values: boolean): void {
  const items = listItemsOf(item, values);
  const known = itemTables.get(listKey);
  itemTables.set(listKey, known === undefined || sameItems(known, items) ? items : null);
}

/** The name of an item schema in a collection's table name: its key, or its members' keys (`User;Group`). */
export function tableKeyOf(item: unknown): string {
  if (isEntityClass(item)) return entityKey(item);
  if (isUnion(item)) return item.tableKey;
  return schemaLabel(item);
}
