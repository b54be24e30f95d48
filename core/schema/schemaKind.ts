import { SchemaDefinitionError } from '../errors.js';
import { entityKey, isEntityClass } from './Entity.js';
import { SchemaNode } from './SchemaNode.js';
import { isPlainObject } from './safeObject.js';

const objectSchemaKeys = new WeakMap<object, readonly string[]>();

/** Whether `value` is a schema (an Entity class, a schema instance, `[schema]` or an object holding schemas). */
export function isSchema(value: unknown): boolean {
  if (isEntityClass(value) || value instanceof SchemaNode) return true;
  if (Array.isArray(value)) return value.length === 1 && isSchema(value[0]);
  if (isPlainObject(value)) return schemaKeysOf(value).length > 0;
  return false;
}

/** The members of a plain object schema that are schemas themselves (others pass through). Cached. */
export function schemaKeysOf(definition: object): readonly string[] {
  let keys = objectSchemaKeys.get(definition);
  if (!keys) {
    keys = Object.keys(definition).filter((key) => isSchema((definition as Record<string, unknown>)[key]));
    objectSchemaKeys.set(definition, keys);
  }
  return keys;
}

/** The single item schema of `[schema]`, with a clear error for `[]` or `[A, B]`. */
export function arrayItemSchema(definition: readonly unknown[]): unknown {
  if (definition.length !== 1) {
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `An array schema holds exactly one item schema (e.g. [Todo]); got ${definition.length} items.`
        : '[]',
    );
  }
  return definition[0];
}

/** A readable name of a schema for messages: `Todo`, `[Todo]`, `{results, total}`. */
export function schemaLabel(schema: unknown): string {
  if (isEntityClass(schema)) return entityKey(schema);
  if (schema instanceof SchemaNode) return schema.label;
  if (Array.isArray(schema)) return `[${schema.map(schemaLabel).join(', ')}]`;
  if (isPlainObject(schema)) return `{${Object.keys(schema).join(', ')}}`;
  return typeof schema === 'function' ? schema.name || 'function' : String(schema);
}
