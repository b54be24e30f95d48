import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
/** Normalizes a list with `itemSchema`; anything but an array is a NormalizeError naming `label`. */
export declare function normalizeList(itemSchema: unknown, input: unknown, key: string | undefined, ctx: NormalizeContext, label: string): unknown[];
/**
 * Reads a normalized list back. Items that are invalid, missing, `null` or `undefined` are dropped (a
 * list never becomes unusable because of one item). The same array comes back while no item changed.
 */
export declare function denormalizeList(itemSchema: unknown, input: unknown, ctx: DenormalizeContext): unknown;
/**
 * A list of values of one schema: `new schema.Array(Todo)` is the same as `[Todo]`.
 *
 * @example
 * const TodoList = new schema.Array(Todo);
 */
export declare class ArraySchema<S = unknown> extends SchemaNode {
    readonly kind: 'Array';
    /** The schema of every item. */
    readonly schema: S;
    constructor(schema: S);
    get label(): string;
    normalize(input: unknown, _parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown[];
    denormalize(input: unknown, ctx: DenormalizeContext): unknown;
}
