/**
 * Values derived from one entity table and cached by the table object: its pks (reads of `schema.All`)
 * and its indexes (`static indexes` lookups). A table the store writes in place (see
 * normalize/TableWriter.ts) drops them with `forgetDerived`; a copied table is a new object with none.
 */
import type { EntityTable } from './types.js';

/** The pks of a table, in insertion order. */
export const tablePks = new WeakMap<object, readonly string[]>();

/** The indexes of a table by field: stringified value -> pk. */
export const tableIndexes = new WeakMap<EntityTable, Map<string, Map<string, string>>>();

/** Drops what was derived from `table` (it is about to change in place). */
export function forgetDerived(table: object): void {
  tablePks.delete(table);
  tableIndexes.delete(table as EntityTable);
}
