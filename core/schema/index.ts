/**
 * The schema layer: pure (no RxJS, no fetch). Entities, lists, objects, collections and invalidation;
 * normalize into copy-on-write tables and read back with referential stability.
 */
import { ArraySchema } from './Array.js';
import { Collection } from './Collection.js';
import { Invalidate } from './Invalidate.js';
import { ObjectSchema } from './Object.js';

// ---- Entities -------------------------------------------------------------------------------------
export { Entity, isEntityClass } from './Entity.js';

// ---- Schema classes ------------------------------------------------------------------------------
export { ArraySchema, ObjectSchema, Collection, Invalidate };
export { CollectionAdder, appendUnique, prependUnique, collectionArgsKey } from './Collection.js';
export type { CollectionMerge, CollectionOptions, CreateCollectionFilter } from './Collection.js';
export { SchemaNode } from './SchemaNode.js';
export type { NormalizeContext, DenormalizeContext, TableSchema } from './SchemaNode.js';

/**
 * The schema classes under one name, as in Data Client: `schema.Array`, `schema.Object`,
 * `schema.Collection`, `schema.Invalidate`.
 *
 * @example
 * const TodoList = new schema.Collection([Todo]);
 * const deleteTodo = new schema.Invalidate(Todo);
 */
export const schema = {
  Array: ArraySchema,
  Object: ObjectSchema,
  Collection,
  Invalidate,
} as const;

// ---- Normalize / denormalize ---------------------------------------------------------------------
export { normalize, emptyTables } from './normalize.js';
export { denormalize, MemoCache } from './denormalize.js';
export type { DenormalizeResult } from './denormalize.js';
export { INVALID } from './special.js';
export type { Invalid } from './special.js';
export { isSchema, schemaLabel } from './schemaKind.js';
export { emptyTable, copyTable, assignField, jsonEqual } from './safeObject.js';

// ---- Types ---------------------------------------------------------------------------------------
export type {
  Denormalize,
  DenormalizeNullable,
  DenormalizeObject,
  Deserializer,
  EntityClass,
  EntityMeta,
  EntityMetaTables,
  EntityTable,
  EntityTables,
  NormalizeResult,
  NormalizedTables,
  Schema,
} from './types.js';
