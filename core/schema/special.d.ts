/**
 * The marker stored in an entity table for an entity that was invalidated (deleted, or marked by
 * `schema.Invalidate`). Reading it drops the entity from lists and optional members; where the entity
 * is required the whole result is unusable (observers show loading and refetch).
 */
export declare const INVALID: unique symbol;
/** The type of the INVALID marker. */
export type Invalid = typeof INVALID;
