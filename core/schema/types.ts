/**
 * Type-level view of schemas: what a schema is, and what reading it back (`Denormalize<S>`) yields.
 */
import type { Entity } from './Entity.js';
import type { ArraySchema } from './ArraySchema.js';
import type { ObjectSchema } from './ObjectSchema.js';
import type { Collection } from './Collection.js';
import type { CollectionAdder } from './CollectionAdder.js';
import type { SchemaNode } from './SchemaNode.js';
import type { Invalidate } from './Invalidate.js';
import type { Union } from './Union.js';
import type { Values } from './Values.js';
import type { All } from './All.js';
import type { Query } from './Query.js';
import type { ValidatedInstance } from './standard.js';

/** An Entity class (not an instance): what `schema: Todo` refers to. */
export type EntityClass<T extends Entity = Entity> = (abstract new (...args: never[]) => T) & {
  key: string;
  schema?: Record<string, unknown>;
  pk(value: object, parent?: unknown, key?: string, args?: readonly unknown[]): string | undefined;
  process(input: unknown, parent: unknown, key: string | undefined, args: readonly unknown[]): Record<string, unknown>;
  merge(existing: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown>;
};

/**
 * Any schema rx-rest understands: an Entity class, a schema instance (`schema.Array`, `schema.Collection`,
 * ... all extend one base class), `[Schema]`, or a plain object of schemas.
 */
export type Schema = EntityClass | SchemaNode | readonly [unknown] | { readonly [key: string]: unknown };

/** The value read back from a normalized result of schema `S`: Entity instances, arrays of them, objects of them. */
export type Denormalize<S> =
  S extends EntityClass<infer T>
    ? ValidatedInstance<T, S>
    : S extends Invalidate<infer E>
      ? Denormalize<E> | undefined
      : S extends CollectionAdder<infer _I, infer R>
        ? R
        : S extends Query<infer _S, infer R, infer _P>
          ? R
          : S extends Union<infer M>
            ? DenormalizeMember<M>
            : S extends Collection<infer C>
              ? C extends Union<infer _M>
                ? Denormalize<C>[]
                : Denormalize<C>
              : S extends ArraySchema<infer I, infer A>
                ? DenormalizeItem<I, A>[]
                : S extends Values<infer I, infer A>
                  ? Record<string, DenormalizeItem<I, A>>
                  : S extends All<infer I, infer A>
                    ? DenormalizeItem<I, A>[]
                    : S extends ObjectSchema<infer O>
                      ? DenormalizeObject<O>
                      : S extends readonly [infer I]
                        ? Denormalize<I>[]
                        : S extends readonly (infer I)[]
                          ? Denormalize<I>[]
                          : S extends (...args: never[]) => unknown
                            ? unknown
                            : S extends object
                              ? DenormalizeObject<S>
                              : S;

/** The instance of any member of a map of schemas (a Union's `{ link: Link, post: Post }` reads as `Link | Post`). */
export type DenormalizeMember<M> = { [K in keyof M]: Denormalize<M[K]> }[keyof M];

/** A map of Entity classes by attribute value, as given to a Union or a polymorphic Array, Values or All. */
export type EntityMap = { readonly [attribute: string]: EntityClass };

/**
 * What one item of an Array, Values or All reads as: the instance of its schema, or of any member of a
 * map of entities (polymorphic: an attribute was given, or the map holds only Entity classes; a
 * function attribute cannot be told apart at the type level, so the map decides).
 */
export type DenormalizeItem<I, A> = [A] extends [undefined]
  ? I extends EntityMap
    ? DenormalizeMember<I>
    : Denormalize<I>
  : DenormalizeMember<I>;

/** `Denormalize` applied member by member to a plain object schema. */
export type DenormalizeObject<O> = { -readonly [K in keyof O]: Denormalize<O[K]> };

/** Like `Denormalize<S>`, but `undefined` where a result may not be available yet. */
export type DenormalizeNullable<S> = Denormalize<S> | undefined;

/** The raw JSON shape a field deserializer accepts: a function or constructor applied to the stored value. */
export type Deserializer = ((value: never) => unknown) | (new (value: never) => unknown);

/** Metadata written with every entity: when its request started (`fetchedAt`), arrived (`date`) and expires. */
export interface EntityMeta {
  readonly date: number;
  readonly fetchedAt: number;
  readonly expiresAt: number;
  /** Lists only: when the last whole list (a response) was written; `fetchedAt` when absent. */
  readonly base?: number | undefined;
  /** Lists only: the additions and removals since `base`, oldest first (see listEdits.ts). */
  readonly edits?: readonly ListEdit[] | undefined;
}

/** One addition to (at the `'start'` or `'end'`) or removal from a stored list: the item's pk and the write's stamp. */
export type ListEdit = readonly [pk: string, stamp: number, op: 'start' | 'end' | 'remove'];

/** A table of normalized records keyed by pk (created without a prototype, so any string is a safe key). */
export type EntityTable = { [pk: string]: unknown };

/** All entity tables, keyed by entity (or collection) key. */
export type EntityTables = { [key: string]: EntityTable | undefined };

/** Per-entity metadata tables, parallel to `EntityTables`. */
export type EntityMetaTables = { [key: string]: { [pk: string]: EntityMeta | undefined } | undefined };

/** The part of the store that normalize reads and writes. */
export interface NormalizedTables {
  readonly entities: EntityTables;
  readonly entitiesMeta: EntityMetaTables;
}

/** What `normalize` returns: the normalized result plus the (copy-on-write) updated tables. */
export interface NormalizeResult<R = unknown> extends NormalizedTables {
  readonly result: R;
  /**
   * The records whose stored value changed, as `[key, pk]` pairs: each once, unless one write set a record
   * back to its stored value and then changed it again (then twice; listing a record twice is harmless).
   */
  readonly changed: readonly (readonly [key: string, pk: string])[];
  /**
   * A list of the input was not written because a whole list newer than this write is stored: what the
   * input holds is not all written (its result must not count as fresh).
   */
  readonly keptNewerList: boolean;
}

/** What a memoized read returns: the data, or `invalid` when a required entity is missing or INVALID. */
export interface DenormalizeResult<T> {
  readonly data: T | undefined;
  readonly invalid: boolean;
  /**
   * Every record the read depended on (`key + '\u0000' + pk`), including missing ones it looked for:
   * a write to any other record cannot change this result.
   */
  readonly paths: ReadonlySet<string>;
}
