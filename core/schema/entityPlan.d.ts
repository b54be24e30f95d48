import { Entity } from './Entity.js';
/** One member of an Entity's `static schema`, resolved once per class. */
export type FieldPlan = {
    readonly name: string;
    readonly kind: 'schema';
    readonly schema: unknown;
    readonly required: boolean;
} | {
    readonly name: string;
    readonly kind: 'deserializer';
    readonly deserialize: (value: unknown) => unknown;
};
/** What normalize and denormalize need to know about an Entity class, computed once. */
export interface EntityPlan {
    readonly key: string;
    readonly defaults: Readonly<Record<string, unknown>>;
    readonly defaultKeys: readonly string[];
    readonly schemaFields: readonly (FieldPlan & {
        kind: 'schema';
    })[];
    readonly deserializers: readonly (FieldPlan & {
        kind: 'deserializer';
    })[];
}
/** The resolved plan of an Entity class: key, defaults, nested schema fields and deserializers. */
export declare function entityPlan(Cls: typeof Entity): EntityPlan;
