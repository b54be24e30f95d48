/**
 * The tables of collections' lists: their names, and the entity table whose pks the lists of each hold.
 */
import { isEntityClass, entityKey } from './Entity.js';
import { isUnion } from './collectionMerges.js';
import { schemaLabel } from './schemaKind.js';

/**
 * The entity table whose pks the lists of each collection table hold: `null` when collections of
 * other items share the table, or hold the members of a Union (their items are not plain pks).
 */
const itemTables = new Map<string, string | null>();

/**
 * The entity table whose pks the lists stored in table `listKey` hold, when one Entity's collections
 * alone use that table (the garbage collector takes the pks of collected records out of them).
 */
export function listItemTable(listKey: string): string | undefined {
  return itemTables.get(listKey) ?? undefined;
}

/** Notes that a collection's lists in table `listKey` hold pks of `itemTable` (`null`: not plain pks of one Entity). */
export function noteItemTable(listKey: string, itemTable: string | null): void {
  const known = itemTables.get(listKey);
  itemTables.set(listKey, known === undefined || known === itemTable ? itemTable : null);
}

/** The name of an item schema in a collection's table name: its key, or its members' keys (`User;Group`). */
export function tableKeyOf(item: unknown): string {
  if (isEntityClass(item)) return entityKey(item);
  if (isUnion(item)) return item.members().map(tableKeyOf).join(';');
  return schemaLabel(item);
}
