/**
 * Base class of every normalized record type. Subclasses declare fields with defaults (which fix their
 * types), a `pk()` computed from those fields, a `static key` naming the entity table, and optionally a
 * `static schema` mapping fields to nested schemas or to deserializers.
 *
 * @example
 * class Todo extends Entity {
 *   id = 0; title = ''; completed = false;
 *   createdAt = Temporal.Instant.from('1970-01-01T00:00:00Z');
 *   pk() { return `${this.id}`; }
 *   static key = 'Todo';
 *   static schema = { createdAt: Temporal.Instant.from };
 * }
 */
export declare abstract class Entity {
    /** Name of the entity table (e.g. `'Todo'`). Defaults to the class name, which minifiers may change: set it. */
    static key: string;
    /**
     * Field -> nested schema (`User`, `[Comment]`, a Collection, a plain object of schemas) or deserializer
     * (`Temporal.Instant.from`, `BigNumber`, `Number`, `iso => new Date(iso)`), applied when read.
     */
    static schema: {
        readonly [field: string]: unknown;
    } | undefined;
    /** The primary key of this entity as a string (or `undefined` when it cannot be computed). */
    abstract pk(parent?: unknown, key?: string, args?: readonly unknown[]): string | number | undefined;
    /** Computes the pk of a plain (stored or response) value, as `pk()` would on an instance. */
    static pk(this: {
        prototype: Entity;
    }, value: object, parent?: unknown, key?: string, args?: readonly unknown[]): string | undefined;
    /** Prepares a response value before it is normalized. Default: a shallow copy. Must not mutate `input`. */
    static process(input: any, _parent: unknown, _key: string | undefined, _args: readonly unknown[]): any;
    /** Combines a stored record with a newer one for the same pk. Default: shallow spread, incoming wins. */
    static merge(existing: any, incoming: any): any;
    /**
     * Builds an instance from plain props: class defaults first, then `props` (not deserialized).
     *
     * @example
     * const draft = Todo.fromJS({ title: 'Buy milk' });
     */
    static fromJS<T extends Entity>(this: abstract new () => T, props?: Readonly<Record<string, unknown>>): T;
}
type EntityCtor = (abstract new () => Entity) & typeof Entity;
/** The class defaults of an entity class, computed once per class (one throwaway `new`). */
export declare function entityDefaults(Cls: EntityCtor): Record<string, unknown>;
/** The table key of an entity class: `static key`, else its name. */
export declare function entityKey(Cls: Function & {
    key?: string;
}): string;
/** Whether `value` is an Entity class (a schema), as opposed to a deserializer function. */
export declare function isEntityClass(value: unknown): value is EntityCtor;
/**
 * Checks and stringifies a computed pk. Strings and finite numbers are usable; `undefined`, `null`, `''`,
 * the strings `'undefined'`/`'null'`/`'NaN'` (what a template literal makes of a missing field), and
 * `'[object Object]'` are not.
 */
export declare function usablePk(schemaKey: string, pk: unknown, input: unknown): string;
export {};
