/**
 * rx-rest: typed REST resources with a normalized, RxJS-driven cache.
 */

// ---- Schemas -------------------------------------------------------------------------------------
export * from './schema/index.js';

// ---- Errors --------------------------------------------------------------------------------------
export { NormalizeError, DeserializeError, SchemaDefinitionError } from './errors.js';
