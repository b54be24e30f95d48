/** The controller layer: fetch, observe, invalidation, polling and optimistic updates over the store. */
export { Controller } from './Controller.js';
export type { ControllerOptions } from './Controller.js';
export { IDLE } from './types.js';
export type { ObserveOptions } from './QueryStream.js';
export type {
  ControllerEndpoint,
  QueryArgs,
  EndpointArgs,
  EndpointData,
  QueryState,
  ResponseSnapshot,
  StoreSnapshot,
} from './types.js';
export { observeInfinite } from './infinite.js';
export type { InfiniteOptions, InfiniteQuery, InfiniteState } from './infinite.js';
export { observeMutation } from './mutation.js';
export type { Mutation, MutationState } from './mutation.js';
export { keepPrevious } from './placeholder.js';
export type { QueryResult } from './placeholder.js';
