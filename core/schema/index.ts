/**
 * The schema layer: pure (no RxJS, no fetch). Entities, lists, objects, collections and invalidation;
 * normalize into copy-on-write tables and read back with referential stability.
 */

// ---- Entities -------------------------------------------------------------------------------------
export { Entity, isEntityClass } from './Entity.js';
export { EntityMixin } from './EntityMixin.js';
export type { EntityMixinClass, EntityMixinOptions } from './EntityMixin.js';

// ---- Schema classes ------------------------------------------------------------------------------
export { PolymorphicArraySchema as ArraySchema } from './PolymorphicArraySchema.js';
export { listItemSchema } from './ArraySchema.js';
export { ObjectSchema, isObjectSchema } from './ObjectSchema.js';
export { Collection } from './Collection.js';
export { Invalidate } from './Invalidate.js';
export { Union } from './Union.js';
export { Values } from './Values.js';
export { All } from './All.js';
export { Query } from './Query.js';
export { PolymorphicSchema } from './PolymorphicSchema.js';
export type { PolymorphicRef, SchemaAttribute } from './PolymorphicSchema.js';
export { CollectionAdder } from './CollectionAdder.js';
export { CollectionMover } from './CollectionMover.js';
export { appendUnique, prependUnique, removeItems } from './collectionMerges.js';
export { collectionArgsKey } from './collectionArgs.js';
export { listItemRecord } from './collectionTables.js';
export type { CollectionListSchema } from './Collection.js';
export type { CollectionMerge } from './collectionMerges.js';
export type { CollectionOptions, CreateCollectionFilter } from './collectionOptions.js';
export { SchemaNode } from './SchemaNode.js';
export type { NormalizeContext, DenormalizeContext, TableSchema } from './SchemaNode.js';

/** The schema classes under one name (`schema.Array`, `schema.Object`, `schema.Collection`, `schema.Invalidate`, `schema.Union`, `schema.Values`, `schema.All`, `schema.Query`). */
export * as schema from './schemaNamespace.js';

// ---- Normalize / denormalize ---------------------------------------------------------------------
export { normalize, normalizeInto, emptyTables } from './normalize.js';
export { MemoCache } from './memo/MemoCache.js';
export { denormalize } from './memo/denormalize.js';
/** @internal What the core's patched lists changed, for keepRows (not exported by core/index.ts). */
export { patches } from './memo/patchList.js';
export { query, queryKey, queryTables, lookupIndex } from './queryKey.js';
export { schemaTables } from './schemaTables.js';
export { MAX_ENTITY_DEPTH } from './entityPlan.js';
/** @internal The plans of the entity classes used so far, for the checks of a restored snapshot (store/snapshotRecords.ts). */
export { entityPlans } from './entityPlan.js';
export type { EntityPlan } from './entityPlan.js';
export { INVALID } from './special.js';
export type { Invalid } from './special.js';
export { isSchema, schemaLabel } from './schemaKind.js';
export { emptyTable, copyTable, assignField, isPlainObject, jsonEqual } from './safeObject.js';
export { forgetDerived } from './tableDerived.js';
export { validated } from './standard.js';
export type {
  StandardSchemaV1,
  StandardSchemaProps,
  StandardResult,
  StandardSuccess,
  StandardFailure,
  StandardIssue,
  StandardPathSegment,
  StandardTypes,
  InferInput,
  InferOutput,
  EntityFields,
  EntityValidator,
  CheckedValidator,
  ValidatedInstance,
} from './standard.js';
export { expectUnkeyedTables, unkeyedTablesOf } from './entityNames.js';

// ---- Types ---------------------------------------------------------------------------------------
export type {
  Denormalize,
  DenormalizeResult,
  DenormalizeNullable,
  DenormalizeObject,
  DenormalizeItem,
  DenormalizeMember,
  Deserializer,
  EntityClass,
  EntityMap,
  EntityMeta,
  ListEdit,
  EntityMetaTables,
  EntityTable,
  EntityTables,
  NormalizeResult,
  NormalizedTables,
  Schema,
} from './types.js';
