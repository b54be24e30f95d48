import { SchemaDefinitionError } from '../errors.js';
import { Entity, entityMixins } from './Entity.js';
import type { EntityClass } from './types.js';

/** Options of `EntityMixin`: how the pk is computed, the table name and the nested schemas. */
export interface EntityMixinOptions<T> {
  /** The field holding the pk, or a function computing it. Default: the class's `pk()`, else the `id` field. */
  readonly pk?: (keyof T & string) | ((value: T, parent?: unknown, key?: string) => string | number | undefined);
  /** Name of the entity table. Default: the class's `static key`, else its name. */
  readonly key?: string;
  /** Field -> nested schema or deserializer, as `static schema`. */
  readonly schema?: { readonly [field: string]: unknown };
}

/**
 * Turns any class into an Entity without changing its base: the returned class extends `Base` and has
 * every static member of Entity (`pk`, `process`, `merge`, `fromJS`, `validate`, ...).
 *
 * @example
 * class Article { id = ''; title = ''; }
 * const ArticleEntity = EntityMixin(Article, { key: 'Article', schema: { author: User } });
 */
export function EntityMixin<B extends abstract new () => object>(
  Base: B,
  options: EntityMixinOptions<InstanceType<B>> = {},
): B & EntityClass<InstanceType<B> & Entity> {
  if (typeof Base !== 'function') {
    throw new SchemaDefinitionError('EntityMixin(Base, options) needs a class as its first argument.');
  }
  const Mixed = class extends (Base as unknown as new () => object) {} as unknown as Record<string, unknown> &
    (new () => object);
  for (const name of Object.getOwnPropertyNames(Entity)) {
    if (name === 'prototype' || name === 'length' || name === 'name') continue;
    if (Object.prototype.hasOwnProperty.call(Base, name)) continue;
    Object.defineProperty(Mixed, name, Object.getOwnPropertyDescriptor(Entity, name)!);
  }
  const key = options.key ?? (Base as unknown as { key?: string }).key ?? Base.name;
  Object.defineProperty(Mixed, 'name', { value: Base.name });
  Object.defineProperty(Mixed, 'key', { value: key, writable: true, enumerable: true, configurable: true });
  if (options.schema !== undefined) Mixed.schema = options.schema;
  const pk = options.pk;
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
  return Mixed as unknown as B & EntityClass<InstanceType<B> & Entity>;
}
