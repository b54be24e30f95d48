/**
 * The checks of a write without a request, `controller.set(schema, ...)`, before anything is written: the
 * schema must be one; `set(Todo, ...args, value)` takes a record; a batch, `controller.set([Todo], rows)`,
 * a list of an Entity (or of a `schema.Union` of entities) and an array of records. What normalize checks
 * itself (a row without its pk, a validator's verdict) it throws while writing, and then undoes every row it
 * wrote: a batch is written whole or not at all.
 */
import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { SchemaNode, isEntityClass, isSchema, listItemSchema, schemaLabel } from '../schema/index.js';

/** Whether `item` is what a batch writes: an Entity class, or a Union (whose members are entities). */
const isRecordSchema = (item: unknown) =>
  isEntityClass(item) || (item instanceof SchemaNode && (item as { isUnion?: unknown }).isUnion === true);

/**
 * Throws a `SchemaDefinitionError` when `schema` is not a schema, a `NormalizeError` when an Entity's value
 * is not a record. When `schema` is a list (`[Todo]`, `new schema.Array(...)`), checks that it lists entities
 * and that `value` is an array of objects (a `SchemaDefinitionError` or a `NormalizeError`). Any other value
 * is checked as it is normalized.
 */
export function checkRows(schema: unknown, value: unknown): void {
  const entity = isEntityClass(schema);
  // a record of an Entity class (the common write): one check
  if (entity && typeof value === 'object' && value !== null) return;
  const item = listItemSchema(schema);
  const label = schemaLabel(schema);
  const list = item !== undefined || Array.isArray(schema);
  if (list ? !isRecordSchema(item) : !isSchema(schema)) {
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? list
          ? `controller.set(${label}, rows): a list given to set must hold an Entity class or a schema.Union ` +
            `of them (e.g. set([Todo], rows)), but it holds ${schemaLabel(item)}. ` +
            'Store other shapes with setResponse(endpoint, ...args, response).'
          : `controller.set(${label}, ...): ${label} is not a schema. set takes an Entity class (set(Todo, row)), ` +
            'a list of one (set([Todo], rows)) or a schema such as a Collection. Nothing was written.'
        : `set(${label})`,
    );
  }
  if (!list) {
    if (entity)
      throw new NormalizeError(
        label,
        process.env.NODE_ENV !== 'production'
          ? `controller.set(${label}, ...args, value): the value must be a record holding its pk, but got ` +
              `${describeKind(value)}. Nothing was written.`
          : 'value',
        value,
      );
    return;
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
