import { ArraySchema } from './Array.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext, type TableSchema } from './SchemaNode.js';
/** Combines the pks of a stored collection with the pks of newly added items. */
export type CollectionMerge = (existing: readonly string[], incoming: readonly string[]) => string[];
/** Given the request's arguments, decides which stored collections (by their arguments) receive new items. */
export type CreateCollectionFilter = (...args: readonly any[]) => (collectionArgs: Readonly<Record<string, string>>) => boolean;
/** Options of `new schema.Collection(...)`. */
export interface CollectionOptions {
    /** Table name of this collection's lists. Default: `[<Entity key>]`, shared by collections of one entity. */
    readonly key?: string;
    /**
     * Argument names that do not filter which items a list holds (sorting, say): ignored when matching
     * collections for `push`/`unshift`. A predicate, a RegExp or a list of names. Default: names starting with `order`.
     */
    readonly nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
    /** The arguments a collection nested in an entity is stored under. Default: `{ [parentKey]: parentPk, field }`. */
    readonly nestKey?: (parent: Readonly<Record<string, unknown>>, key: string, parentKey: string, parentPk: string) => Record<string, unknown>;
}
/** Appends the incoming pks that are not already in the list. */
export declare const appendUnique: CollectionMerge;
/** Prepends the incoming pks that are not already in the list. */
export declare const prependUnique: CollectionMerge;
/**
 * Serializes arguments into a stable collection pk: keys sorted, `undefined` dropped, values as strings.
 * `{ userId: 1, done: undefined }` -> `{"userId":"1"}`.
 */
export declare function collectionArgsKey(args: unknown): string;
type ItemOf<S> = S extends readonly [infer I] ? I : S extends ArraySchema<infer I> ? I : never;
/**
 * A list stored under the arguments that produced it (`getList({ userId: 1 })` and `getList({})` are two
 * lists). `push`/`unshift` add created entities to every cached list whose arguments match the request's
 * URL arguments and body; `addWith` builds such an adder with another merge.
 *
 * @example
 * const TodoList = new schema.Collection([Todo], { nonFilterArgumentKeys: ['orderBy'] });
 */
export declare class Collection<S extends readonly [unknown] | ArraySchema<any> = readonly [unknown]> extends SchemaNode implements TableSchema {
    readonly kind: 'Collection';
    /** The list schema (`[Todo]`). */
    readonly schema: S;
    /** The item schema (`Todo`). */
    readonly itemSchema: ItemOf<S>;
    /** Table name of this collection's lists. */
    readonly key: string;
    /** Schema adding created items to the end of every matching list. */
    readonly push: CollectionAdder<ItemOf<S>>;
    /** Schema adding created items to the start of every matching list. */
    readonly unshift: CollectionAdder<ItemOf<S>>;
    private readonly options;
    constructor(schema: S, options?: CollectionOptions);
    get label(): string;
    /** Whether an argument does not filter the list (and so is ignored when matching lists for additions). */
    nonFilterArgumentKeys(key: string): boolean;
    /**
     * The default filter for additions: a stored list receives the items when each of its (filtering)
     * arguments equals the request's URL argument of that name or, failing that, the body's.
     */
    createCollectionFilter(...args: readonly any[]): (collectionArgs: Readonly<Record<string, string>>) => boolean;
    /** Builds a schema that adds created items to matching lists with `merge` (and, optionally, its own filter). */
    addWith(merge: CollectionMerge, createCollectionFilter?: CreateCollectionFilter): CollectionAdder<ItemOf<S>>;
    /** The pk of the list: its arguments (top level), or its parent entity and field (nested). */
    pk(parent: unknown, key: string | undefined, ctx: NormalizeContext, parentEntity?: {
        key: string;
        pk: string;
    }): string;
    normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): string;
    denormalize(input: unknown, ctx: DenormalizeContext): unknown;
    build(record: unknown, ctx: DenormalizeContext): unknown;
    /** @internal Adds `pks` to every stored list accepted by `filter`. */
    addToLists(pks: readonly string[], merge: CollectionMerge, filter: (args: Readonly<Record<string, string>>) => boolean, ctx: NormalizeContext): void;
}
/**
 * The schema of an endpoint that creates items (`getList.push`): normalizes the created item(s), adds
 * them to the matching lists of its collection, and reads back as the item (or items).
 */
export declare class CollectionAdder<I = unknown> extends SchemaNode {
    readonly kind: 'CollectionAdder';
    /** The collection whose lists receive the items. */
    readonly collection: Collection<any>;
    /** How new pks are combined with a stored list. */
    readonly merge: CollectionMerge;
    private readonly createFilter;
    constructor(collection: Collection<any>, merge: CollectionMerge, createCollectionFilter?: CreateCollectionFilter);
    /** The schema of one item. */
    get schema(): I;
    get label(): string;
    normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown;
    denormalize(input: unknown, ctx: DenormalizeContext): unknown;
}
export {};
