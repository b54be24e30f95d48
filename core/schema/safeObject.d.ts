/**
 * Objects that hold data keyed by strings from the network. Keys such as `__proto__`, `constructor` and
 * `prototype` must stay plain data: they never reach `Object.prototype` nor change an object's class.
 */
/** A new empty object without a prototype: any string is a safe own key. */
export declare function emptyTable<T = unknown>(): {
    [key: string]: T;
};
/** A prototype-free shallow copy of a table (copy-on-write). */
export declare function copyTable<T>(table: {
    readonly [key: string]: T;
} | undefined): {
    [key: string]: T;
};
/** Sets `target[key] = value`, defining `__proto__` as an own data property instead of changing the prototype. */
export declare function assignField(target: object, key: string, value: unknown): void;
/** A plain object (or a prototype-free one): not an array, not a class instance such as Date. */
export declare function isPlainObject(value: unknown): value is Record<string, unknown>;
/**
 * Structural equality of JSON-like values (primitives, arrays, plain objects). Used to keep a stored
 * record's identity when a response repeats what the store already holds.
 */
export declare function jsonEqual(a: unknown, b: unknown): boolean;
