import { NormalizeError, SchemaDefinitionError, preview } from '../errors.js';
import { classNamedTable } from './entityNames.js';
import { assignField } from './safeObject.js';
import type { StandardSchemaV1 } from './standard.js';

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
export abstract class Entity {
  /**
   * Name of the entity table, and the start of derived names (`'Todo.get'`). Defaults to the class
   * name, which minifiers change: set it (`static key = 'Todo'`) for shipped code, and always where a
   * state crosses builds (server rendering, persisted state). Restoring a snapshot whose table names a
   * minifier changed reports it with `console.error`, naming the class and the fix.
   */
  static get key(): string {
    if (!this.name) throw anonymousClass();
    return classNamedTable(this, () => Object.keys(entityDefaults(this as unknown as EntityCtor)));
  }

  static set key(value: string) {
    // an assignment (`Todo.key = 'Todo'`) names that class only, not the base or its siblings
    Object.defineProperty(this, 'key', { value, writable: true, enumerable: true, configurable: true });
  }

  /**
   * Field -> nested schema (`User`, `[Comment]`, a Collection, a plain object of schemas) or deserializer
   * (`Temporal.Instant.from`, `BigNumber`, `Number`, `iso => new Date(iso)`), applied when read.
   */
  declare static schema: { readonly [field: string]: unknown } | undefined;

  /**
   * How many levels of nested entities a read resolves (default 64); deeper levels read as their pks.
   * Raise it for deep chains that must be read whole, lower it to cut wide bidirectional graphs early.
   */
  declare static maxEntityDepth: number | undefined;

  /**
   * Fields that identify an entity as well as its pk (`['username']`): `controller.get(User, { username })`
   * finds it by them.
   */
  declare static indexes: readonly string[] | undefined;

  /**
   * A Standard Schema (zod 4, valibot 1, arktype 2, or `{ '~standard': { version: 1, vendor, validate } }`)
   * that every record of this entity in a response must pass, checked when it is normalized (after
   * `process`, synchronously). Its output is what is stored. A record that fails rejects the request with
   * a `ValidationError`, and nothing of that response is written. Check it against the class's fields
   * with `satisfies EntityValidator<Todo>`.
   *
   * @example
   * static override validator = z.object({ id: z.number(), title: z.string() }) satisfies EntityValidator<Todo>;
   */
  declare static validator: StandardSchemaV1 | undefined;

  /**
   * How the automatic checks of a response treat an array where this entity is expected (data-client's
   * option): by default a NormalizeError; `'warn'` logs a warning and goes on (`process` then sees the
   * array); `'silent'` goes on without a word.
   */
  declare static automaticValidation: 'warn' | 'silent' | undefined;

  /**
   * An instance holding the class defaults (made once per class, not by `fromJS`): what a field reads as
   * when a response leaves it out.
   *
   * @example
   * Todo.defaults.title; // ''
   */
  static get defaults(): Readonly<Record<string, unknown>> {
    let instance = defaultInstances.get(this);
    if (!instance) defaultInstances.set(this, (instance = new (this as unknown as new () => object)()));
    return instance as Readonly<Record<string, unknown>>;
  }

  /** The primary key of this entity as a string (or `undefined` when it cannot be computed). */
  abstract pk(parent?: unknown, key?: string, args?: readonly unknown[]): string | number | undefined;

  /**
   * Computes the pk of a plain (stored or response) value, as `pk()` would on an instance, as the string
   * the store keys the record by: a number `pk()` returns is stringified (`undefined` when not finite).
   */
  static pk(
    this: { prototype: Entity },
    value: object,
    parent?: unknown,
    key?: string,
    args?: readonly unknown[],
  ): string | undefined {
    const pk = this.prototype.pk.call(value, parent, key, args);
    if (typeof pk === 'number') return Number.isFinite(pk) ? String(pk) : undefined;
    return pk === undefined || pk === null ? undefined : pk;
  }

  /** Prepares a response value before it is normalized. Default: a shallow copy. Must not mutate `input`. */
  static process(
    input: unknown,
    _parent: unknown,
    _key: string | undefined,
    _args: readonly unknown[],
  ): Record<string, unknown> {
    return { ...(input as Record<string, unknown>) };
  }

  /** Combines a stored record with a newer one for the same pk. Default: shallow spread, incoming wins. */
  static merge(existing: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
    return { ...existing, ...incoming };
  }

  /**
   * Checks a processed value: a message rejects it (normalizing throws a NormalizeError with it; a stored
   * record that fails reads as unusable). Default: accepts everything.
   */
  static validate(_processed: Readonly<Record<string, unknown>>): string | undefined {
    return undefined;
  }

  /** Whether an incoming value is written over a stored one at all (`false` keeps the stored one). Default: `true`. */
  static shouldUpdate(
    _existingMeta: { readonly date: number; readonly fetchedAt: number },
    _incomingMeta: { readonly date: number; readonly fetchedAt: number },
    _existing: Readonly<Record<string, unknown>>,
    _incoming: Readonly<Record<string, unknown>>,
  ): boolean {
    return true;
  }

  /**
   * Whether the stored value counts as the newer one: then `merge(incoming, existing)` runs and the stored
   * timing is kept. Default: when the incoming request started before the stored one.
   */
  static shouldReorder(
    existingMeta: { readonly date: number; readonly fetchedAt: number },
    incomingMeta: { readonly date: number; readonly fetchedAt: number },
    _existing: Readonly<Record<string, unknown>>,
    _incoming: Readonly<Record<string, unknown>>,
  ): boolean {
    return incomingMeta.fetchedAt < existingMeta.fetchedAt;
  }

  /**
   * Builds an instance from plain props: class defaults first (its own, as `new` makes them), then
   * `props` (not deserialized).
   *
   * @example
   * const draft = Todo.fromJS({ title: 'Buy milk' });
   */
  static fromJS<T extends Entity>(this: abstract new () => T, props: Readonly<Record<string, unknown>> = {}): T {
    // a new instance, as data-client makes one: a draft's default list or object is its own to change
    const instance = new (this as unknown as new () => T)();
    const reserved = reservedFields(this as unknown as EntityCtor);
    for (const field of Object.keys(props)) if (!reserved.has(field)) assignField(instance, field, props[field]);
    return instance;
  }
}

type EntityCtor = (abstract new () => Entity) & typeof Entity;

const defaultInstances = new WeakMap<Function, object>();

/** The error of a table named after a class without a name (data-client's message). */
export function anonymousClass(): SchemaDefinitionError {
  return new SchemaDefinitionError(
    process.env.NODE_ENV !== 'production'
      ? 'Entity classes without a name must define `static key` (e.g. `static key = "Todo"`).'
      : 'key',
  );
}

const defaultsCache = new WeakMap<Function, Record<string, unknown>>();

/** The class defaults of an entity class, computed once per class (one throwaway `new`). */
export function entityDefaults(Cls: EntityCtor): Record<string, unknown> {
  let defaults = defaultsCache.get(Cls);
  if (!defaults) {
    defaults = { ...(new (Cls as unknown as new () => Entity)() as unknown as Record<string, unknown>) };
    defaultsCache.set(Cls, defaults);
  }
  return defaults;
}

const reservedCache = new WeakMap<Function, ReadonlySet<string>>();

/**
 * Methods and accessors of an entity class (`pk`, getters, ...), up to `Object.prototype`: data of such
 * a name stays in the store but is never assigned onto an instance, so it cannot replace the class's
 * behaviour. `constructor` is not among them (an own `constructor` field does not change the class).
 */
export function reservedFields(Cls: EntityCtor): ReadonlySet<string> {
  let reserved = reservedCache.get(Cls);
  if (!reserved) {
    const names = new Set<string>();
    for (let proto = Cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
    }
    reservedCache.set(Cls, (reserved = names));
  }
  return reserved;
}

/** The table key of an entity class: `static key`, else its name. */
export function entityKey(Cls: Function & { key?: string }): string {
  const key = Cls.key ?? Cls.name;
  if (!key)
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? 'An Entity class needs `static key` (e.g. `static key = "Todo"`).'
        : 'key',
    );
  return key;
}

/** Whether `value` is an Entity class (a schema), as opposed to a deserializer function. */
export function isEntityClass(value: unknown): value is EntityCtor {
  if (typeof value !== 'function') return false;
  if (value.prototype instanceof Entity) return true;
  for (let cls: unknown = value; typeof cls === 'function'; cls = Object.getPrototypeOf(cls)) {
    if (entityMixins.has(cls)) return true;
  }
  return false;
}

/** Classes made entities by `EntityMixin` (their prototypes do not descend from Entity's). */
export const entityMixins = new WeakSet<Function>();

/** A pk string usable as is (see `usablePk` for the ones that are not). */
export function plainPk(pk: string): boolean {
  return pk !== '' && pk !== 'undefined' && pk !== 'null' && pk !== 'NaN' && !pk.startsWith('[object ');
}

/**
 * Checks and stringifies a computed pk. Strings and finite numbers are usable; `undefined`, `null`, `''`,
 * the strings `'undefined'`/`'null'`/`'NaN'` (what a template literal makes of a missing field), and
 * `'[object Object]'` are not. `validated`: the static validator's output, when that (not `input`) is what pk() read.
 */
export function usablePk(schemaKey: string, pk: unknown, input: unknown, validated?: object): string {
  if (typeof pk === 'number' && Number.isFinite(pk)) return String(pk);
  if (typeof pk === 'string' && plainPk(pk)) return pk;
  throw new NormalizeError(
    schemaKey,
    process.env.NODE_ENV !== 'production'
      ? validated
        ? `no usable primary key: pk() returned ${preview(pk)} for ${preview(validated)}, the static validator's ` +
          `output for ${preview(input)}. Declare the fields pk() reads in the validator (its output is what is stored).`
        : `no usable primary key: pk() returned ${preview(pk)} for ${preview(input)}. ` +
          `Check that the response has the fields pk() reads, or fill them in with process().`
      : 'pk',
    input,
  );
}
