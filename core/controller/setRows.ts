/**
 * The checks of a batch write, `controller.set([Todo], rows)`: before anything is written, the list
 * schema must hold an Entity (or a `schema.Union` of entities) and the value must be an array of
 * records. What normalize checks itself (a row without its pk, a validator's verdict) it throws while
 * writing, and then undoes every row it wrote: a batch is written whole or not at all.
 */
import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { SchemaNode, isEntityClass, listItemSchema, schemaLabel } from '../schema/index.js';

/** Whether `item` is what a batch writes: an Entity class, or a Union (whose members are entities). */
const isRecordSchema = (item: unknown) =>
  isEntityClass(item) || (item instanceof SchemaNode && (item as { isUnion?: unknown }).isUnion === true);

/**
 * When `schema` is a list (`[Todo]`, `new schema.Array(...)`), checks that it lists entities and that
 * `value` is an array of objects; throws a `SchemaDefinitionError` or a `NormalizeError` otherwise.
 * Any other schema passes (its value is checked as it is normalized).
 */
export function checkRows(schema: unknown, value: unknown): void {
  const item = listItemSchema(schema);
  if (item === undefined) return;
  const label = schemaLabel(schema);
  if (!isRecordSchema(item)) {
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `controller.set(${label}, rows): a list given to set must hold an Entity class or a schema.Union ` +
            `of them (e.g. set([Todo], rows)), but it holds ${schemaLabel(item)}. ` +
            'Store other shapes with setResponse(endpoint, ...args, response).'
        : `set(${label})`,
    );
  }
  const key = schemaLabel(item);
  if (!Array.isArray(value)) {
    throw new NormalizeError(
      key,
      process.env.NODE_ENV !== 'production'
        ? `controller.set(${label}, rows): rows must be an array of records, but got ${describeKind(value)}. ` +
            'Nothing was written.'
        : 'rows',
      value,
    );
  }
  for (let i = 0; i < value.length; i++) {
    const row: unknown = value[i];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new NormalizeError(
        key,
        process.env.NODE_ENV !== 'production'
          ? `controller.set(${label}, rows): row ${i} is ${describeKind(row)}; every row must be an object ` +
              'holding its pk. Nothing was written.'
          : `row ${i}`,
        row,
      );
    }
  }
}
