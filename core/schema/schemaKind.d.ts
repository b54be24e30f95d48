/** Whether `value` is a schema (an Entity class, a schema instance, `[schema]` or an object holding schemas). */
export declare function isSchema(value: unknown): boolean;
/** The members of a plain object schema that are schemas themselves (others pass through). Cached. */
export declare function schemaKeysOf(definition: object): readonly string[];
/** The single item schema of `[schema]`, with a clear error for `[]` or `[A, B]`. */
export declare function arrayItemSchema(definition: readonly unknown[]): unknown;
/** A readable name of a schema for messages: `Todo`, `[Todo]`, `{results, total}`. */
export declare function schemaLabel(schema: unknown): string;
