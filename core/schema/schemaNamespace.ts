/**
 * The schema classes under one name, as in Data Client: `schema.Array`, `schema.Object`,
 * `schema.Collection`, `schema.Invalidate`, `schema.Union`, `schema.Values`, `schema.All`, `schema.Query`. A module namespace (`export * as schema`), so that a bundle
 * keeps only the classes it uses.
 *
 * @example
 * const TodoList = new schema.Collection([Todo]);
 * const deleteTodo = new schema.Invalidate(Todo);
 */
export { PolymorphicArraySchema as Array } from './PolymorphicArraySchema.js';
export { ObjectSchema as Object } from './ObjectSchema.js';
export { Collection } from './Collection.js';
export { Invalidate } from './Invalidate.js';
export { Union } from './Union.js';
export { Values } from './Values.js';
export { All } from './All.js';
export { Query } from './Query.js';
