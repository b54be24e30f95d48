/**
 * `schema.Collection`: lists (or objects of entities) stored under the arguments that produced them. Its
 * parts: the adders (`CollectionAdder.ts`, `CollectionMover.ts`), the merges (`collectionMerges.ts`), the
 * arguments keys (`collectionArgs.ts`), the tables of lists (`collectionTables.ts`), the options
 * (`collectionOptions.ts`).
 */
import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { denormalizeList, isArraySchema, normalizeList, type ArraySchema } from './ArraySchema.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext, type TableSchema } from './SchemaNode.js';
import { schemaLabel } from './schemaKind.js';
import type { Union } from './Union.js';
import type { Values } from './Values.js';
import {
  appendUnique,
  isUnion,
  isValues,
  prependUnique,
  removeItems,
  type CollectionMerge,
  type EntriesMerge,
} from './collectionMerges.js';
import { CollectionAdder, listAdders } from './CollectionAdder.js';
import { CollectionMover } from './CollectionMover.js';
import { argString, collectionArgsKey, ownArg, parseArgsKey } from './collectionArgs.js';
import type { CollectionOptions, CreateCollectionFilter } from './collectionOptions.js';
import { noteItemTable, tableKeyOf } from './collectionTables.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';
import type { Denormalize, EntityTables } from './types.js';
import { isPlainObject, ownValue } from './safeObject.js';
import { placeOf } from './listEdits.js';

/** The item schema of a Collection's list schema. */
type ItemOf<S> = S extends readonly [infer I]
  ? I
  : S extends ArraySchema<infer I, infer A>
    ? A extends undefined
      ? I
      : Union<I & Record<string, unknown>>
    : S extends Union
      ? S
      : S extends Values<infer I, infer A>
        ? A extends undefined
          ? I
          : Union<I & Record<string, unknown>>
        : never;

/**
 * The schemas a Collection takes: lists (`[Entity]`, `new schema.Array(...)`, a `schema.Union`) or an
 * object of entities (`new schema.Values(...)`).
 */
export type CollectionListSchema =
  | readonly [unknown]
  | ArraySchema<unknown, SchemaAttribute | undefined>
  | Union
  | Values<unknown, SchemaAttribute | undefined>;

/** The members of a Collection that only lists have (`push`, `unshift`): `never` for a Collection of Values. */
type ListOnly<S, T> = S extends Values<infer _I, infer _A> ? never : T;

/**
 * A list stored under the arguments that produced it (`getList({ userId: 1 })` and `getList({})` are two
 * lists). `push`/`unshift` add created entities to every cached list whose arguments match the request's
 * URL arguments and body; `addWith` builds such an adder with another merge.
 *
 * @example
 * const TodoList = new schema.Collection([Todo], { nonFilterArgumentKeys: ['orderBy'] });
 */
export class Collection<S extends CollectionListSchema = readonly [unknown]> extends SchemaNode implements TableSchema {
  declare readonly kind: 'Collection';
  /** The list schema (`[Todo]`). */
  declare readonly schema: S;
  /** The item schema (`Todo`). */
  declare readonly itemSchema: ItemOf<S>;
  /** Table name of this collection's lists. */
  declare readonly key: string;
  /** Schema adding created items to the end of every matching list (lists only). */
  declare readonly push: ListOnly<S, CollectionAdder<ItemOf<S>>>;
  /** Schema adding created items to the start of every matching list (lists only). */
  declare readonly unshift: ListOnly<S, CollectionAdder<ItemOf<S>>>;
  /** Schema merging the entries of a response into every matching object (a Collection of `schema.Values` only). */
  declare readonly assign: S extends Values<infer _I, infer _A>
    ? CollectionAdder<ItemOf<S>, Record<string, Denormalize<ItemOf<S>>>>
    : never;
  /** Whether this stores objects of entities (a Collection of `schema.Values`) rather than lists. */
  declare readonly isValuesCollection: boolean;
  /**
   * Schema removing the item(s) of a response from every matching list (and updating the entity); for a Collection
   * of `schema.Values`, the entries of a response (an object of entities, as `assign` takes) from every matching object.
   */
  declare readonly remove: [S] extends [Values<infer _I, infer _A>]
    ? CollectionAdder<ItemOf<S>, Record<string, Denormalize<ItemOf<S>>>>
    : CollectionAdder<ItemOf<S>>;
  /**
   * Schema moving an updated item between lists: out of the lists its stored values match and its new
   * values (the response, the body) do not, into the lists its new values match (at the end).
   */
  declare readonly move: CollectionMover<ItemOf<S>>;
  readonly #options: CollectionOptions;

  constructor(schema: S, options: CollectionOptions = {}) {
    super();
    const values = isValues(schema);
    const item =
      isArraySchema(schema) || values
        ? (schema as ArraySchema).itemSchema
        : isUnion(schema)
          ? schema
          : Array.isArray(schema) && schema.length === 1
            ? schema[0]
            : undefined;
    if (item === undefined) {
      throw new SchemaDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? 'new schema.Collection(...) takes a list schema ([Entity], new schema.Array(Entity), a schema.Union) or new schema.Values(Entity).'
          : 'Collection',
      );
    }
    this.schema = schema;
    this.itemSchema = item as ItemOf<S>;
    this.#options = options;
    this.isValuesCollection = values;
    this.key = options.key ?? (values ? `{${tableKeyOf(item)}}` : `[${tableKeyOf(item)}]`);
    noteItemTable(this.key, item, values);
    // a Collection of Values gets its members from the Values (so that collections of lists leave them out)
    if (values) (schema as Values).collectionMembers(this as never);
    else {
      (this as { push: unknown }).push = new CollectionAdder(this, appendUnique);
      (this as { unshift: unknown }).unshift = new CollectionAdder(this, prependUnique);
      (this as { remove: unknown }).remove = new CollectionAdder(this, removeItems);
      this.move = new CollectionMover(this, appendUnique);
    }
  }

  get label(): string {
    return isUnion(this.schema) ? `Collection[${this.schema.label}]` : `Collection${schemaLabel(this.schema)}`;
  }

  /** Whether an argument does not filter the list (and so is ignored when matching lists for additions). */
  nonFilterArgumentKeys(key: string): boolean {
    const option = this.#options.nonFilterArgumentKeys;
    if (typeof option === 'function') return option(key);
    if (option instanceof RegExp) return option.test(key);
    if (option) return option.includes(key);
    return key.startsWith('order');
  }

  /**
   * The default filter for additions: a stored list receives the items when each of its (filtering)
   * arguments equals the request's URL argument of that name or, failing that, the body's.
   */
  createCollectionFilter(...args: readonly unknown[]): (collectionArgs: Readonly<Record<string, string>>) => boolean {
    const option = this.#options.createCollectionFilter;
    if (option) return option.apply(this, args as unknown[]);
    const [urlArgs, body] = args as [Record<string, unknown> | undefined, Record<string, unknown> | undefined];
    return (collectionArgs) =>
      Object.keys(collectionArgs).every((key) => {
        if (this.nonFilterArgumentKeys(key)) return true;
        const fromUrl = ownArg(urlArgs, key);
        const value = fromUrl !== undefined ? fromUrl : ownArg(body, key);
        return value !== undefined && value !== null && argString(value) === collectionArgs[key];
      });
  }

  /**
   * Builds a schema that adds items to matching lists with `merge` (and, optionally, its own filter).
   * Its responses are lists (a page, say), read back as lists; in development one that is a string or a number
   * (which would be taken as one pk) is a NormalizeError.
   */
  addWith(
    merge: CollectionMerge,
    createCollectionFilter?: CreateCollectionFilter,
  ): CollectionAdder<ItemOf<S>, Denormalize<ItemOf<S>>[]> {
    const adder = new CollectionAdder<ItemOf<S>, Denormalize<ItemOf<S>>[]>(this, merge, createCollectionFilter);
    if (process.env.NODE_ENV !== 'production') listAdders.add(adder);
    return adder;
  }

  /**
   * Builds a `move` schema whose additions use `merge` (e.g. `prependUnique` to move items to the
   * start of their new lists).
   */
  moveWith(merge: CollectionMerge): CollectionMover<ItemOf<S>> {
    return new CollectionMover(this, merge);
  }

  /** The pk of the list: its arguments (top level), or its parent entity and field (nested). */
  pk(
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
    parentEntity?: { key: string; pk: string },
  ): string {
    if (parentEntity && key !== undefined) {
      const nest = this.#options.nestKey ?? ((_p, field, parentKey, parentPk) => ({ [parentKey]: parentPk, field }));
      return collectionArgsKey(nest(parent as Record<string, unknown>, key, parentEntity.key, parentEntity.pk));
    }
    return collectionArgsKey(ctx.args[0]);
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): string {
    if (!this.isValuesCollection && !Array.isArray(input)) {
      throw new NormalizeError(
        this.label,
        process.env.NODE_ENV !== 'production' ? `expected an array but got ${describeKind(input)}.` : 'array',
        input,
      );
    }
    const pks = this.isValuesCollection
      ? ctx.visit(this.schema, input, parent, key)
      : normalizeList(this.itemSchema, input, parent, key, ctx, this);
    const pk = this.pk(parent, key, ctx, ctx.currentEntity());
    if (this.holdsPks) ctx.writeList(this.key, pk, pks as string[]);
    else ctx.write(this.key, pk, pks);
    return pk;
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return typeof input === 'string' ? ctx.unvisitRecord(this, this.key, input) : input;
  }

  build(record: unknown, ctx: DenormalizeContext): unknown {
    if (this.isValuesCollection) return ctx.unvisit(this.schema, record);
    return denormalizeList(this.itemSchema, record, ctx);
  }

  /** The list stored under the first argument, when there is one. */
  override queryKey(args: readonly unknown[], entities: EntityTables): unknown {
    const pk = collectionArgsKey(args[0]);
    return ownValue(ownValue(entities, this.key), pk) !== undefined ? pk : undefined;
  }

  override queryTables(_visit: unknown, addTable: (key: string) => void): void {
    addTable(this.key);
  }

  /**
   * @internal Merges `pks` into every stored list for which `mergeFor` (given the list's arguments) names a
   * merge: the adders' merge where their filter accepts the list; for `move`, the removal or the addition.
   */
  addToLists(
    pks: readonly string[] | Readonly<Record<string, unknown>>,
    mergeFor: (args: Readonly<Record<string, string>>) => CollectionMerge | EntriesMerge | undefined,
    ctx: NormalizeContext,
  ): void {
    for (const listPk of ctx.pks(this.key)) {
      const existing = ctx.get(this.key, listPk);
      if (!this.holds(existing)) continue;
      const listArgs = parseArgsKey(listPk);
      const merge = listArgs && mergeFor(listArgs);
      if (!merge) continue;
      const merged = (merge as (a: unknown, b: unknown) => unknown)(existing, pks);
      if (this.holdsPks)
        ctx.editList(
          this.key,
          listPk,
          merged as string[],
          pks as readonly string[],
          merge === removeItems
            ? 'remove'
            : placeOf(existing as string[], merged as string[], pks as readonly string[]),
        );
      else ctx.writeMerged(this.key, listPk, existing, merged);
    }
  }

  /**
   * @internal Whether this collection's lists hold plain pks (not Union members, not a Values object):
   * only those log their additions and removals for a later, older response to replay (see listEdits.ts).
   */
  get holdsPks(): boolean {
    return !this.isValuesCollection && !isUnion(this.itemSchema);
  }

  /** @internal Whether a stored record is one of this collection's lists (or objects, for Values). */
  holds(existing: unknown): boolean {
    return this.isValuesCollection ? isPlainObject(existing) : Array.isArray(existing);
  }
}
