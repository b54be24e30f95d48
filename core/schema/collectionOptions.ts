/**
 * The options of `new schema.Collection(...)` and the filter that picks the lists an addition reaches.
 */
import type { Collection } from './Collection.js';

/** Given the request's arguments, decides which stored collections (by their arguments) receive new items. */
export type CreateCollectionFilter = (
  ...args: readonly any[]
) => (collectionArgs: Readonly<Record<string, string>>) => boolean;

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
   * `this` is the collection.
   */
  readonly createCollectionFilter?: (
    this: Collection<any>,
    ...args: readonly any[]
  ) => (collectionArgs: Readonly<Record<string, string>>) => boolean;
  /** The arguments a collection nested in an entity is stored under. Default: `{ [parentKey]: parentPk, field }`. */
  readonly nestKey?: (
    parent: Readonly<Record<string, unknown>>,
    key: string,
    parentKey: string,
    parentPk: string,
  ) => Record<string, unknown>;
}
