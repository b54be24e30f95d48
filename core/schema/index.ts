/**
 * The schema layer: pure (no RxJS, no fetch). Entities, lists, objects, collections and invalidation;
 * normalize into copy-on-write tables and read back with referential stability.
 */

// ---- Entities -------------------------------------------------------------------------------------
export { Entity, isEntityClass } from './Entity.js';

// ---- Schema classes ------------------------------------------------------------------------------
export { ArraySchema } from './Array.js';
export { ObjectSchema } from './Object.js';
export { Collection } from './Collection.js';
export { Invalidate } from './Invalidate.js';
export {
  CollectionAdder,
  CollectionMover,
  appendUnique,
  prependUnique,
  removeItems,
  collectionArgsKey,
} from './Collection.js';
export type { CollectionMerge, CollectionOptions, CreateCollectionFilter } from './Collection.js';
export { SchemaNode } from './SchemaNode.js';
export type { NormalizeContext, DenormalizeContext, TableSchema } from './SchemaNode.js';

/** The schema classes under one name (`schema.Array`, `schema.Object`, `schema.Collection`, `schema.Invalidate`). */
export * as schema from './schemaNamespace.js';

// ---- Normalize / denormalize ---------------------------------------------------------------------
export { normalize, normalizeInto, emptyTables } from './normalize.js';
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
