/**
 * The endpoint layer: HTTP only, no store. Paths and their types, `RestEndpoint`, `createResource`.
 */

// ---- Paths ---------------------------------------------------------------------------------------
export { compilePath, parsePath, pathKeys, pathRegex, pathWithSearch, removeLastArg, searchString } from './path.js';
export type { HasPathParams, ParamlessPath, PathArgs, PathKeys, PathParam, PathValue, RemoveLastArg } from './path.js';

// ---- Endpoints -----------------------------------------------------------------------------------
export { RestEndpoint } from './RestEndpoint.js';
export type { AnyRestEndpoint } from './RestEndpoint.js';
export type { RestEndpointOptions } from './endpointOptions.js';
export type { ContentResult, ResponseContent } from './content.js';
export type {
  BodyMethod,
  DefaultBody,
  EndpointExtraOptions,
  EndpointParameters,
  FetchFunction,
  FetchOptions,
  HttpMethod,
  JsonOf,
  ProcessParameters,
  ResultOf,
  RetryDelay,
  UrlArgs,
  UrlParameters,
} from './types.js';

export type {
  CollectionIn,
  CollectionMember,
  MemberSchema,
  PageParams,
  PagedSchema,
  Paginated,
  RemoveCursor,
} from './listMembers.js';

// ---- Resources -----------------------------------------------------------------------------------
export { createResource } from './createResource.js';
export type {
  CollectionClass,
  DeleteResult,
  EndpointClass,
  EndpointMembers,
  ExtendOptions,
  Extended,
  ListEndpoint,
  Resource,
  ResourceBody,
  ResourceExtend,
  ResourceMembers,
  ResourceOptions,
  WidenSchema,
} from './createResource.js';
