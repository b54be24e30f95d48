/**
 * The options of `new schema.Collection(...)` and the filter that picks the lists an addition reaches.
 */
import type { Collection, CollectionListSchema } from './Collection.js';

/**
 * Given the request's arguments, decides which stored collections (by their arguments) receive new items.
 * The arguments are `unknown`; the type is a method's, so a filter that types its own arguments
 * (`(urlArgs: { userId?: number }) => ...`) still fits.
 */
export type CreateCollectionFilter = {
  // a method's parameters are checked both ways (bivariance): a filter may declare narrower arguments
  create(...args: readonly unknown[]): (collectionArgs: Readonly<Record<string, string>>) => boolean;
}['create'];

/** Options of `new schema.Collection(...)`. */
export interface CollectionOptions {
  /** Table name of this collection's lists. Default: `[<Entity key>]`, shared by collections of one entity. */
  readonly key?: string;
  /**
   * Argument names that do not filter which items a list holds (sorting, say): ignored when matching
   * collections for `push`/`unshift`. A predicate, a RegExp or a list of names. Default: names starting with `order`.
   */
  readonly nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
  /**
   * Decides which stored lists receive (or, for `move`, lose) items, replacing the default filter
   * (and so `nonFilterArgumentKeys`): given the request's arguments, a test of a list's arguments.
   * `this` is the collection. Declared as a method: a filter may type its arguments (they are `unknown` here).
   */
  createCollectionFilter?(
    this: Collection<CollectionListSchema>,
    ...args: readonly unknown[]
  ): (collectionArgs: Readonly<Record<string, string>>) => boolean;
  /** The arguments a collection nested in an entity is stored under. Default: `{ [parentKey]: parentPk, field }`. */
  readonly nestKey?: (
    parent: Readonly<Record<string, unknown>>,
    key: string,
    parentKey: string,
    parentPk: string,
  ) => Record<string, unknown>;
}
