/**
 * rx-rest: typed REST resources with a normalized, RxJS-driven cache.
 *
 * @example
 * import { Controller, createResource, Entity } from 'rx-rest';
 */

// ---- Schemas -------------------------------------------------------------------------------------
export {
  Entity,
  schema,
  ArraySchema,
  ObjectSchema,
  Collection,
  CollectionAdder,
  CollectionMover,
  Invalidate,
  INVALID,
  appendUnique,
  prependUnique,
  removeItems,
  collectionArgsKey,
  normalize,
  denormalize,
  MemoCache,
  EntityMixin,
  Union,
  Values,
  All,
  Query,
  query,
  queryKey,
  queryTables,
  lookupIndex,
} from './schema/index.js';
export type {
  CollectionMerge,
  CollectionOptions,
  CreateCollectionFilter,
  Denormalize,
  DenormalizeNullable,
  DenormalizeObject,
  DenormalizeResult,
  Deserializer,
  EntityClass,
  EntityMixinOptions,
  EntityMeta,
  ListEdit,
  PolymorphicRef,
  SchemaAttribute,
  EntityTables,
  Invalid,
  NormalizeResult,
  NormalizedTables,
  Schema,
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
} from './schema/index.js';

// ---- Endpoints and resources ---------------------------------------------------------------------
export { RestEndpoint, createResource, removeLastArg } from './endpoint/index.js';
export type {
  AnyRestEndpoint,
  ContentResult,
  ResponseContent,
  EndpointExtraOptions,
  EndpointParameters,
  FetchFunction,
  FetchOptions,
  HttpMethod,
  PathArgs,
  PathKeys,
  Resource,
  ResourceOptions,
  RestEndpointOptions,
  RetryDelay,
} from './endpoint/index.js';

// ---- Controller and store ------------------------------------------------------------------------
export { Controller, browserEnvironment } from './controller/index.js';
export { takeSnapshot, restoreSnapshot } from './controller/index.js';
export type { RestoreOptions, TakeSnapshotOptions } from './controller/index.js';
export { afterHydration, holdHydration, isHydrating } from './controller/index.js';
export { infiniteSource, observeInfinite } from './controller/index.js';
export type { InfiniteOptions, InfiniteQuery, InfiniteState } from './controller/index.js';
export { observeMutation } from './controller/index.js';
export type { Mutation, MutationState } from './controller/index.js';
export { keepPrevious, keepRows, type RowKind } from './controller/index.js';
export { inspectController } from './controller/index.js';
export { peekQuery, watchQuery } from './controller/index.js';
export type { ControllerInspector, QueryInspection, RecordRef } from './controller/index.js';
export type { QueryOptions, QueryResult } from './controller/index.js';
export type {
  ControllerAction,
  ControllerActionType,
  ControllerEndpoint,
  ControllerEnvironment,
  ControllerManager,
  ControllerOptions,
  EndpointArgs,
  EndpointData,
  EndpointResponse,
  EntityList,
  ObserveOptions,
  QueryArgs,
  QueryState,
  Queryable,
  ReadEndpoint,
  ResponseSnapshot,
  SetRows,
  StoreSnapshot,
  StateChanges,
} from './controller/index.js';
export type {
  State,
  RequestMeta,
  OptimisticLayer,
  SnapshotMeta,
  SnapshotOptions,
  StateSnapshot,
} from './store/index.js';

// ---- Errors --------------------------------------------------------------------------------------
export {
  RequestError,
  NetworkError,
  ParseError,
  TimeoutError,
  AbortError,
  NormalizeError,
  DeserializeError,
  SchemaDefinitionError,
  EndpointDefinitionError,
  ValidationError,
  SnapshotError,
} from './errors.js';
export type { RequestDescription, ValidationContext } from './errors.js';
