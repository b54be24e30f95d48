import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
/** Normalizes the schema members of an object; other members pass through unchanged. */
export declare function normalizeMembers(definition: Readonly<Record<string, unknown>>, input: unknown, ctx: NormalizeContext, label: string): Record<string, unknown>;
/**
 * Reads an object back. Every schema member is required: if one is invalid or missing, the whole
 * object is INVALID. The same object comes back while no member changed.
 */
export declare function denormalizeMembers(definition: Readonly<Record<string, unknown>>, input: unknown, ctx: DenormalizeContext): unknown;
/**
 * An object whose members are schemas; other members pass through. `{ results: [Todo], total: 0 }` used
 * as a schema is the same as `new schema.Object({ results: [Todo] })`.
 *
 * @example
 * const Page = new schema.Object({ results: new schema.Collection([Todo]), total: 0 });
 */
export declare class ObjectSchema<O extends Record<string, unknown> = Record<string, unknown>> extends SchemaNode {
    readonly kind: 'Object';
    /** The member schemas. */
    readonly schema: O;
    constructor(definition: O);
    get label(): string;
    normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext): unknown;
    denormalize(input: unknown, ctx: DenormalizeContext): unknown;
}
