import type { Denormalize, EntityTables } from '../types.js';
import { MemoCache } from './MemoCache.js';

/**
 * Reads a normalized `result` of `schema` back from `state.entities` as Entity instances. Returns
 * `undefined` when a required entity is missing or INVALID. For referential stability across reads, keep
 * a `MemoCache` and call its `denormalize`.
 *
 * @example
 * const todos = denormalize([Todo], ['1', '2'], state); // Todo[]
 */
export function denormalize<S>(
  schema: S,
  result: unknown,
  state: { readonly entities: EntityTables },
  args: readonly unknown[] = [],
): Denormalize<S> | undefined {
  return new MemoCache().denormalize(schema, result, state.entities, args).data;
}
