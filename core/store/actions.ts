import type { OptimisticLayer } from './state.js';

/** A response to store: normalized with `schema` under `key`, written with its request's start time. */
export interface ResponseAction {
  readonly type: 'response';
  readonly key: string;
  readonly schema: unknown;
  readonly args: readonly unknown[];
  readonly response: unknown;
  readonly fetchedAt: number;
  /**
   * The stamp its entity records are written with, when older than `fetchedAt` (a GET sent while a mutation was in
   * flight: the server may have read before that mutation, whose answer stays newer).
   */
  readonly entitiesAt?: number | undefined;
  readonly date: number;
  readonly expiresAt: number;
  /** The optimistic layer this response replaces, if any. */
  readonly settles?: number | undefined;
  /** The first stamp of the oldest mutation in flight, if any: see `SetEntityAction.since`. */
  readonly since?: number | undefined;
}

/** A failed request: the error is kept beside the data (which stays), and the optimistic layer, if any, removed. */
export interface ErrorAction {
  readonly type: 'error';
  readonly key: string;
  readonly error: Error;
  readonly fetchedAt: number;
  readonly date: number;
  readonly expiresAt: number;
  readonly settles?: number | undefined;
}

/** Adds an optimistic layer. */
export interface OptimisticAction {
  readonly type: 'optimistic';
  readonly layer: OptimisticLayer;
}

/** Removes an optimistic layer whose request ended without a response or an error to keep (it was aborted). */
export interface DropLayerAction {
  readonly type: 'dropLayer';
  readonly layer: number;
}

/** Marks results invalid (they must be refetched before use) or stale (refetched in the background). */
export interface InvalidateAction {
  readonly type: 'invalidate' | 'expire';
  /** The request keys. */
  readonly keys: readonly string[];
  readonly date: number;
  /**
   * Its ordering stamp (default `date`): it becomes the keys' `fetchedAt`, so that the answer of a
   * request started before it cannot clear the mark.
   */
  readonly stamp?: number | undefined;
}

/** Empties the store; requests started before `date` settle without writing. */
export interface ResetAction {
  readonly type: 'reset';
  readonly date: number;
}

/** Entity records written without a request (`controller.set`): normalized with `schema`, merged into the tables. */
export interface SetEntityAction {
  readonly type: 'setEntity';
  readonly schema: unknown;
  readonly args: readonly unknown[];
  readonly value: unknown;
  readonly date: number;
  readonly expiresAt: number;
  /**
   * The first stamp of the oldest mutation in flight, if any: the fields of a record this write leaves as they
   * were keep their own (older) stamps, so that the mutation's answer and optimistic layer still write them.
   */
  readonly since?: number | undefined;
}

/** Garbage collection: drops the results and meta of `keys` and the entity records `entities` (`[key, pk]`). */
export interface GcAction {
  readonly type: 'gc';
  readonly keys: readonly string[];
  readonly entities: readonly (readonly [string, string])[];
}

/** Every change to the state is one of these. */
export type Action =
  | ResponseAction
  | ErrorAction
  | OptimisticAction
  | DropLayerAction
  | InvalidateAction
  | ResetAction
  | SetEntityAction
  | GcAction;
