/** The controller layer: fetch, observe, invalidation, polling and optimistic updates over the store. */
export { Controller } from './Controller.js';
export type { ControllerEnvironment, ControllerManager, ControllerOptions } from './options.js';
export { browserEnvironment } from './browserEnvironment.js';
export { IDLE, assertReadEndpoint } from './types.js';
export { afterQueries, flushQueries, onQueriesWait } from './endOfTask.js';
export type {
  ControllerAction,
  ControllerActionType,
  StateChanges,
  ObserveOptions,
  Queryable,
  ControllerEndpoint,
  QueryArgs,
  EndpointArgs,
  EndpointData,
  EndpointResponse,
  EntityList,
  QueryState,
  ReadEndpoint,
  ResponseSnapshot,
  SetRows,
  StoreSnapshot,
} from './types.js';
export { restoreSnapshot, takeSnapshot } from './controllerSnapshot.js';
/** @internal What the add-ons keep from the collector (through core/internal.ts); not part of the package's types. */
export { holdTombstones } from './holds.js';
/** @internal The adapters' check that names their own function on a disposed controller (through core/internal.ts). */
export { assertAlive, fetchNamed } from './disposal.js';
/** @internal Development: the TypeError of a first argument that is no endpoint, naming the adapter's function (through core/internal.ts). */
export { checkVerbTarget } from './verbTarget.js';
export type { RestoreOptions, TakeSnapshotOptions } from './controllerSnapshot.js';
export { afterHydration, holdHydration, isHydrating } from './hydration.js';
export { infiniteSource, observeInfinite } from './infinite.js';
export type { InfiniteOptions, InfiniteQuery, InfiniteState } from './infinite.js';
export { observeMutation } from './mutation.js';
export type { Mutation, MutationState } from './mutation.js';
export { keepPrevious } from './placeholder.js';
export { keepRows, type RowKind } from './keepRows.js';
export type { QueryOptions, QueryResult } from './placeholder.js';
export { inspectController } from './inspect.js';
export { peekQuery, watchQuery } from './watchQuery.js';
export type { ControllerInspector, QueryInspection, RecordRef } from './inspect.js';
