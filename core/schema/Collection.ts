import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { ArraySchema, denormalizeList, normalizeList } from './Array.js';
import { isEntityClass, entityKey } from './Entity.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext, type TableSchema } from './SchemaNode.js';
import { schemaLabel } from './schemaKind.js';
import type { Union } from './Union.js';
import type { SchemaAttribute } from './Polymorphic.js';
import type { Denormalize, EntityTables } from './types.js';
import { ownValue } from './normalize.js';
import { emptyTable, hasOwn } from './safeObject.js';
import { placeOf } from './listEdits.js';

/** Combines the pks of a stored collection with the pks of newly added items. */
export type CollectionMerge = (existing: readonly string[], incoming: readonly string[]) => string[];

/** Given the request's arguments, decides which stored collections (by their arguments) receive new items. */
export type CreateCollectionFilter = (
  ...args: readonly any[]
) => (collectionArgs: Readonly<Record<string, string>>) => boolean;

/** Options of `new schema.Collection(...)`. */
export interface CollectionOptions {
  /** Table name of this collection's lists. Default: `[<Entity key>]`, shared by collections of one entity. */
  readonly key?: string;
  /**
   * Argument names that do not filter which items a list holds (sorting, say): ignored when matching
   * collections for `push`/`unshift`. A predicate, a RegExp or a list of names. Default: names starting with `order`.
   */
  readonly nonFilterArgumentKeys?: ((key: string) => boolean) | RegExp | readonly string[];
  /**
   * Decides which stored lists receive (or, for `move`, lose) items, replacing the default filter
   * (and so `nonFilterArgumentKeys`): given the request's arguments, a test of a list's arguments.
   * `this` is the collection.
   */
  readonly createCollectionFilter?: (
    this: Collection<any>,
    ...args: readonly any[]
  ) => (collectionArgs: Readonly<Record<string, string>>) => boolean;
  /** The arguments a collection nested in an entity is stored under. Default: `{ [parentKey]: parentPk, field }`. */
  readonly nestKey?: (
    parent: Readonly<Record<string, unknown>>,
    key: string,
    parentKey: string,
    parentPk: string,
  ) => Record<string, unknown>;
}

/** The identity of a list item: its pk, or `schema\u0000id` for a member of a Union. */
function itemKey(item: unknown): unknown {
  return typeof item === 'object' && item !== null
    ? `${(item as { schema?: unknown }).schema}\u0000${(item as { id?: unknown }).id}`
    : item;
}

function addedItems(existing: readonly unknown[], incoming: readonly unknown[]): unknown[] {
  const seen = new Set(existing.map(itemKey));
  return incoming.filter((item) => {
    const key = itemKey(item);
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** A schema.Union, known without importing it (collections of one entity leave the polymorphic code out). */
function isUnion(schema: unknown): schema is Union {
  return schema instanceof SchemaNode && (schema as { isUnion?: unknown }).isUnion === true;
}

/** Appends the incoming pks that are not already in the list. */
export const appendUnique: CollectionMerge = (existing, incoming) => {
  const added = addedItems(existing, incoming) as string[];
  return added.length ? [...existing, ...added] : (existing as string[]);
};

/** Prepends the incoming pks that are not already in the list. */
export const prependUnique: CollectionMerge = (existing, incoming) => {
  const added = addedItems(existing, incoming) as string[];
  return added.length ? [...added, ...existing] : (existing as string[]);
};

/** Removes the incoming pks from the list (the same list when none of them was in it). */
export const removeItems: CollectionMerge = (existing, incoming) => {
  const gone = new Set(incoming);
  const kept = existing.filter((pk) => !gone.has(pk));
  return kept.length === existing.length ? (existing as string[]) : kept;
};

/** An argument of a request as data: never read through the prototype (`__proto__`, `constructor`). */
function ownArg(source: unknown, key: string): unknown {
  return typeof source === 'object' && source !== null && hasOwn.call(source, key)
    ? (source as Record<string, unknown>)[key]
    : undefined;
}

/** One argument value as stored in a collection pk: objects as JSON, everything else via String(). */
function argString(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * Serializes arguments into a stable collection pk: keys sorted, `undefined` dropped, values as strings.
 * `{ userId: 1, done: undefined }` -> `{"userId":"1"}`.
 */
export function collectionArgsKey(args: unknown): string {
  const out: Record<string, string> = emptyTable();
  if (args && typeof args === 'object') {
    const source = args as Record<string, unknown>;
    for (const key of Object.keys(source).sort()) {
      const value = source[key];
      if (value === undefined) continue;
      out[key] = argString(value);
    }
  }
  return JSON.stringify(out);
}

function parseArgsKey(pk: string): Record<string, string> | undefined {
  try {
    const parsed: unknown = JSON.parse(pk);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}

type ItemOf<S> = S extends readonly [infer I]
  ? I
  : S extends ArraySchema<infer I, infer A>
    ? A extends undefined
      ? I
      : Union<I & Record<string, unknown>>
    : S extends Union<any>
      ? S
      : never;

/** The list schemas a Collection takes: `[Entity]`, `new schema.Array(...)` or a `schema.Union`. */
export type CollectionListSchema = readonly [unknown] | ArraySchema<unknown, SchemaAttribute | undefined> | Union;

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
  /** Schema adding created items to the end of every matching list. */
  declare readonly push: CollectionAdder<ItemOf<S>>;
  /** Schema adding created items to the start of every matching list. */
  declare readonly unshift: CollectionAdder<ItemOf<S>>;
  /** Schema removing the item(s) of a response from every matching list (and updating the entity). */
  declare readonly remove: CollectionAdder<ItemOf<S>>;
  /**
   * Schema moving an updated item between lists: out of the lists its stored values match and its new
   * values (the response, the body) do not, into the lists its new values match (at the end).
   */
  declare readonly move: CollectionMover<ItemOf<S>>;
  readonly #options: CollectionOptions;

  constructor(schema: S, options: CollectionOptions = {}) {
    super();
    const item =
      schema instanceof ArraySchema
        ? schema.itemSchema
        : isUnion(schema)
          ? schema
          : Array.isArray(schema) && schema.length === 1
            ? schema[0]
            : undefined;
    if (item === undefined) {
      throw new SchemaDefinitionError(
        'new schema.Collection(...) takes a list schema: [Entity], new schema.Array(Entity) or a schema.Union.',
      );
    }
    this.schema = schema;
    this.itemSchema = item as ItemOf<S>;
    this.#options = options;
    this.key = options.key ?? `[${isEntityClass(item) ? entityKey(item) : schemaLabel(item)}]`;
    this.push = new CollectionAdder(this, appendUnique);
    this.unshift = new CollectionAdder(this, prependUnique);
    this.remove = new CollectionAdder(this, removeItems);
    this.move = new CollectionMover(this, appendUnique);
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
  createCollectionFilter(...args: readonly any[]): (collectionArgs: Readonly<Record<string, string>>) => boolean {
    const option = this.#options.createCollectionFilter;
    if (option) return option.apply(this, args as any[]);
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
   * Its responses are lists (a page, say), read back as lists.
   */
  addWith(
    merge: CollectionMerge,
    createCollectionFilter?: CreateCollectionFilter,
  ): CollectionAdder<ItemOf<S>, Denormalize<ItemOf<S>>[]> {
    return new CollectionAdder(this, merge, createCollectionFilter);
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
    if (!Array.isArray(input)) {
      throw new NormalizeError(this.label, `expected an array but got ${describeKind(input)}.`, input);
    }
    const pks = normalizeList(this.itemSchema, input, parent, key, ctx, this);
    const pk = this.pk(parent, key, ctx, ctx.currentEntity());
    ctx.writeList(this.key, pk, pks as string[]);
    return pk;
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return typeof input === 'string' ? ctx.unvisitRecord(this, this.key, input) : input;
  }

  build(record: unknown, ctx: DenormalizeContext): unknown {
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

  /** @internal Adds `pks` to every stored list accepted by `filter`. */
  addToLists(
    pks: readonly string[],
    merge: CollectionMerge,
    filter: (args: Readonly<Record<string, string>>) => boolean,
    ctx: NormalizeContext,
  ): void {
    for (const listPk of ctx.pks(this.key)) {
      const existing = ctx.get(this.key, listPk);
      if (!Array.isArray(existing)) continue;
      const listArgs = parseArgsKey(listPk);
      if (!listArgs || !filter(listArgs)) continue;
      const merged = merge(existing, pks);
      ctx.editList(this.key, listPk, merged, pks, merge === removeItems ? 'remove' : placeOf(existing, merged, pks));
    }
  }
}

/**
 * The schema of an endpoint that creates items (`getList.push`): normalizes the created item(s), adds
 * them to the matching lists of its collection, and reads back as the item (or items).
 */
export class CollectionAdder<I = unknown, R = Denormalize<I>> extends SchemaNode {
  declare readonly kind: 'CollectionAdder';
  /** Type only: what a response of this schema reads back as (one item for push/unshift, a list for addWith). */
  declare readonly result: R;
  /** The collection whose lists receive the items. */
  declare readonly collection: Collection<CollectionListSchema>;
  /** How new pks are combined with a stored list. */
  declare readonly merge: CollectionMerge;
  readonly #createFilter: CreateCollectionFilter | undefined;

  constructor(
    collection: Collection<CollectionListSchema>,
    merge: CollectionMerge,
    createCollectionFilter?: CreateCollectionFilter,
  ) {
    super();
    this.collection = collection;
    this.merge = merge;
    this.#createFilter = createCollectionFilter;
  }

  /** The schema of one item. */
  get schema(): I {
    return this.collection.itemSchema as I;
  }

  get label(): string {
    return `${this.collection.label}.add`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    const list = Array.isArray(input);
    const pks = (list ? input : [input]).map((item) => ctx.visit(this.collection.itemSchema, item, parent, key));
    const usable = pks.filter((pk): pk is string => pk !== undefined && pk !== null && pk !== false && pk !== '');
    const filter = (this.#createFilter ?? this.collection.createCollectionFilter.bind(this.collection))(...ctx.args);
    this.collection.addToLists(usable, this.merge, filter, ctx);
    return list ? pks : pks[0];
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (Array.isArray(input)) return denormalizeList(this.collection.itemSchema, input, ctx);
    return ctx.unvisit(this.collection.itemSchema, input);
  }
}

/**
 * The schema of an endpoint that changes an item so that it belongs to other lists (`getList.move`):
 * normalizes the item, then takes it out of the stored lists that its stored values matched and its
 * new values do not, and adds it (with `merge`) to those its new values match and its stored values
 * did not. New values are the request's body and the response item; the URL arguments fill in the rest.
 */
export class CollectionMover<I = unknown> extends CollectionAdder<I> {
  override normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    const collection = this.collection;
    const item = collection.itemSchema;
    const list = Array.isArray(input);
    const items: unknown[] = list ? (input as unknown[]) : [input];
    const before = items.map((value) => storedRecord(item, value, parent, key, ctx));
    const pks = items.map((value) => ctx.visit(item, value, parent, key));
    const urlArgs = asRecord(ctx.args[0]);
    const body = asRecord(ctx.args.length > 1 ? ctx.args[ctx.args.length - 1] : undefined);
    const listPks = ctx.pks(collection.key);
    pks.forEach((pk, i) => {
      if (typeof pk !== 'string') return;
      const stored = before[i];
      const next = { ...body, ...asRecord(items[i]) };
      const removeFilter = stored && collection.createCollectionFilter({ ...urlArgs, ...stored }, stored);
      const addFilter = collection.createCollectionFilter({ ...urlArgs, ...next }, { ...stored, ...next });
      for (const listPk of listPks) {
        const existing = ctx.get(collection.key, listPk);
        const listArgs = Array.isArray(existing) ? parseArgsKey(listPk) : undefined;
        if (!listArgs) continue;
        const remove = removeFilter ? removeFilter(listArgs) : false;
        const add = addFilter(listArgs);
        if (remove && !add)
          ctx.editList(collection.key, listPk, removeItems(existing as string[], [pk]), [pk], 'remove');
        else if (add && !remove) {
          const merged = this.merge(existing as string[], [pk]);
          ctx.editList(collection.key, listPk, merged, [pk], placeOf(existing as string[], merged, [pk]));
        }
      }
    });
    return list ? pks : pks[0];
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The stored record of the entity `value` stands for, before this normalize changes it (if any). */
function storedRecord(
  item: unknown,
  value: unknown,
  parent: unknown,
  key: string | undefined,
  ctx: NormalizeContext,
): Record<string, unknown> | undefined {
  if (!isEntityClass(item)) return undefined;
  let pk: unknown;
  try {
    if (typeof value === 'object' && value !== null) {
      const processed: unknown = item.process(value, parent, key, ctx.args);
      pk = item.pk(processed as object, parent, key, ctx.args);
    } else pk = value;
  } catch {
    return undefined; // normalizing the value reports the problem
  }
  if (typeof pk !== 'string' && typeof pk !== 'number') return undefined;
  const record = ctx.get(entityKey(item), String(pk));
  return typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : undefined;
}
