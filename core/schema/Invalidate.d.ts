import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import type { EntityClass } from './types.js';
/**
 * Marks an entity INVALID: the value is an object holding the pk members, or the pk itself. Lists drop
 * the entity; results that require it become unusable and refetch. `[new schema.Invalidate(Todo)]`
 * invalidates a list of them.
 *
 * @example
 * const deleteTodo = new RestEndpoint({ method: 'DELETE', path: '/todos/:id', schema: new schema.Invalidate(Todo) });
 */
export declare class Invalidate<E extends EntityClass = EntityClass> extends SchemaNode {
    readonly kind: 'Invalidate';
    /** The Entity class whose entities are invalidated. */
    readonly entity: E;
    constructor(entity: E);
    /** The table of the invalidated entity. */
    get key(): string;
    get label(): string;
    normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): string;
    /** Reads back the entity if it is (again) valid, otherwise `undefined` (never makes a result unusable). */
    denormalize(input: unknown, ctx: DenormalizeContext): unknown;
}
