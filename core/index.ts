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
  Invalidate,
  INVALID,
  appendUnique,
  prependUnique,
  collectionArgsKey,
  normalize,
  denormalize,
  MemoCache,
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
  EntityMeta,
  EntityTables,
  Invalid,
  NormalizeResult,
  NormalizedTables,
  Schema,
} from './schema/index.js';

// ---- Endpoints and resources ---------------------------------------------------------------------
export { RestEndpoint, createResource, removeLastArg } from './endpoint/index.js';
export type {
  AnyRestEndpoint,
  EndpointExtraOptions,
  EndpointParameters,
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
export { Controller, IDLE, browserEnvironment } from './controller/index.js';
export type {
  ControllerAction,
  ControllerActionType,
  ControllerEndpoint,
  ControllerEnvironment,
  ControllerManager,
  ControllerOptions,
  EndpointArgs,
  EndpointData,
  ObserveOptions,
  QueryArgs,
  QueryState,
  ReadEndpoint,
  ResponseSnapshot,
  StoreSnapshot,
} from './controller/index.js';
export type { State, RequestMeta, OptimisticLayer } from './store/index.js';

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
} from './errors.js';
export type { RequestDescription } from './errors.js';
