import { SchemaDefinitionError } from '../errors.js';
import { Entity, anonymousClass, entityMixins } from './Entity.js';

/**
 * The class `EntityMixin(Base)` returns: instances of `Base` that are entities, the statics of `Base`,
 * and Entity's statics (`key`, `pk`, `process`, `merge`, `fromJS`, `defaults`, ...). One constructor,
 * so that a class can extend it (`class Tacos extends EntityMixin(TacoData) {}`).
 */
export type EntityMixinClass<B extends abstract new () => object> = (abstract new () => InstanceType<B> &
  EntityInstance) &
  Omit<B, 'prototype'> &
  Omit<typeof Entity, 'prototype'>;

/** What an instance of an EntityMixin class adds to its base: the `pk()` method (a class may override it). */
export interface EntityInstance {
  /** The primary key of this entity (or `undefined` when it cannot be computed). */
  pk(parent?: unknown, key?: string, args?: readonly unknown[]): string | number | undefined;
}

type Meta = { readonly date: number; readonly fetchedAt: number };

/**
 * Options of `EntityMixin`: how the pk is computed, the table name, the nested schemas, and any of
 * Entity's statics (`process`, `merge`, `validate`, ...), set on the returned class as data-client does.
 */
export interface EntityMixinOptions<T> {
  /** The field holding the pk, or a function computing it. Default: the class's `pk()`, else the `id` field. */
  readonly pk?: (keyof T & string) | ((value: T, parent?: unknown, key?: string) => string | number | undefined);
  /**
   * Name of the entity table. Default: the base's `static key`, else the name of the class extending the
   * mixin (`class Tacos extends EntityMixin(TacoData) {}` is `'Tacos'`), else the base's name.
   */
  readonly key?: string;
  /** Field -> nested schema or deserializer, as `static schema`. */
  readonly schema?: { readonly [field: string]: unknown };
  /** As `static process`: prepares a response value before it is normalized (must not mutate `input`). */
  readonly process?: (
    input: unknown,
    parent: unknown,
    key: string | undefined,
    args: readonly unknown[],
  ) => Record<string, unknown>;
  /** As `static merge`: combines a stored record with a newer one for the same pk. */
  readonly merge?: (existing: Record<string, unknown>, incoming: Record<string, unknown>) => Record<string, unknown>;
  /** As `static validate`: a message rejects a processed value. */
  readonly validate?: (processed: Readonly<Record<string, unknown>>) => string | undefined;
  /** As `static shouldUpdate`. */
  readonly shouldUpdate?: (
    existingMeta: Meta,
    incomingMeta: Meta,
    existing: Readonly<Record<string, unknown>>,
    incoming: Readonly<Record<string, unknown>>,
  ) => boolean;
  /** As `static shouldReorder`. */
  readonly shouldReorder?: (
    existingMeta: Meta,
    incomingMeta: Meta,
    existing: Readonly<Record<string, unknown>>,
    incoming: Readonly<Record<string, unknown>>,
  ) => boolean;
  /** As `static indexes`. */
  readonly indexes?: readonly (keyof T & string)[];
  /** As `static maxEntityDepth`. */
  readonly maxEntityDepth?: number;
  /** As `static automaticValidation`. */
  readonly automaticValidation?: 'warn' | 'silent';
}

/**
 * Turns any class into an Entity without changing its base: the returned class extends `Base` and has
 * every static member of Entity (`pk`, `process`, `merge`, `fromJS`, `validate`, `defaults`, ...).
 *
 * @example
 * class Article { id = ''; title = ''; }
 * const ArticleEntity = EntityMixin(Article, { key: 'Article', schema: { author: User } });
 * class Tacos extends EntityMixin(TacoData) {} // table 'Tacos'
 */
export function EntityMixin<B extends abstract new () => object>(
  Base: B,
  options: EntityMixinOptions<InstanceType<B>> = {},
): EntityMixinClass<B> {
  if (typeof Base !== 'function') {
    throw new SchemaDefinitionError('EntityMixin(Base, options) needs a class as its first argument.');
  }
  const Mixed = class extends (Base as unknown as new () => object) {} as unknown as Record<string, unknown> &
    (new () => object);
  for (const name of Object.getOwnPropertyNames(Entity)) {
    if (name === 'prototype' || name === 'length' || name === 'name') continue;
    if (name in Base) continue;
    Object.defineProperty(Mixed, name, Object.getOwnPropertyDescriptor(Entity, name)!);
  }
  Object.defineProperty(Mixed, 'name', { value: Base.name });
  const { pk, key, schema, ...statics } = options;
  Object.assign(Mixed, statics);
  if (key !== undefined) {
    Object.defineProperty(Mixed, 'key', { value: key, writable: true, enumerable: true, configurable: true });
  } else if (!('key' in Base)) {
    // as data-client: the class extending the mixin names the table, the mixin itself its base
    Object.defineProperty(Mixed, 'key', {
      get(this: Function) {
        const name = this === Mixed ? Base.name : this.name;
        if (!name) throw anonymousClass();
        return name;
      },
      set(this: Function, value: string) {
        Object.defineProperty(this, 'key', { value, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    });
  }
  if (schema !== undefined) Mixed.schema = schema;
  const proto = Mixed.prototype as { pk?: unknown };
  if (typeof pk === 'function') {
    proto.pk = function (this: InstanceType<B>, parent?: unknown, field?: string) {
      return pk(this, parent, field);
    };
  } else if (typeof pk === 'string') {
    proto.pk = function (this: Record<string, unknown>) {
      return this[pk];
    };
  } else if (typeof proto.pk !== 'function') {
    proto.pk = function (this: Record<string, unknown>) {
      return this.id;
    };
  }
  entityMixins.add(Mixed);
  return Mixed as unknown as EntityMixinClass<B>;
}
