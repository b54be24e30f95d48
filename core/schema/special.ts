/**
 * The marker stored in an entity table for an entity that was invalidated (deleted, or marked by
 * `schema.Invalidate`). Reading it drops the entity from lists and optional members; where the entity
 * is required the whole result is unusable (observers show loading and refetch).
 */
export const INVALID: unique symbol = Symbol.for('rx-rest.INVALID') as never;

/** The type of the INVALID marker. */
export type Invalid = typeof INVALID;

/** The input a read of `schema.All` is given: it reads the tables, not a stored result. */
export const ALL_INPUT: readonly never[] = Object.freeze([]);
