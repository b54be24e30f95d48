/** The controller layer: fetch, observe, invalidation, polling and optimistic updates over the store. */
export { Controller } from './Controller.js';
export type { ControllerManager, ControllerOptions } from './options.js';
export type { ControllerAction, ControllerActionType } from './actions.js';
export { browserEnvironment } from './environment.js';
export type { ControllerEnvironment } from './environment.js';
export { IDLE } from './types.js';
export type { ObserveOptions } from './QueryStream.js';
export type {
  ControllerEndpoint,
  QueryArgs,
  EndpointArgs,
  EndpointData,
  QueryState,
  ReadEndpoint,
  ResponseSnapshot,
  StoreSnapshot,
} from './types.js';
