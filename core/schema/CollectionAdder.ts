import { placeOf } from './listEdits.js';
import { denormalizeList } from './Array.js';
import type { Collection, CollectionListSchema, CreateCollectionFilter } from './Collection.js';
import { entityKey, isEntityClass } from './Entity.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import {
  entryKey,
  isUnion,
  parseArgsKey,
  removeEntries,
  removeItems,
  type CollectionMerge,
} from './collectionMerges.js';
import type { Denormalize } from './types.js';

/** A list item written by a normalize: a pk, or a Union member's `{ id, schema }`. */
function isItemRef(pk: unknown): pk is string | { id: string; schema: string } {
  return typeof pk === 'string' || (typeof pk === 'object' && pk !== null && 'id' in pk);
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
    const filter = (this.#createFilter ?? this.collection.createCollectionFilter.bind(this.collection))(...ctx.args);
    if (this.collection.isValuesCollection) {
      // an object of entries, merged into the matching objects
      const entries = ctx.visit(this.collection.schema, input, parent, key) as Record<string, unknown>;
      this.collection.addToLists(entries, this.merge, filter, ctx);
      return entries;
    }
    const list = Array.isArray(input);
    const pks = (list ? input : [input]).map((item) => ctx.visit(this.collection.itemSchema, item, parent, key));
    const usable = pks.filter((pk): pk is string => pk !== undefined && pk !== null && pk !== false && pk !== '');
    this.collection.addToLists(usable, this.merge, filter, ctx);
    return list ? pks : pks[0];
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (this.collection.isValuesCollection) return ctx.unvisit(this.collection.schema, input);
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
      if (!isItemRef(pk)) return;
      const stored = before[i];
      const next = { ...body, ...asRecord(items[i]) };
      const removeFilter = stored && collection.createCollectionFilter({ ...urlArgs, ...stored }, stored);
      const addFilter = collection.createCollectionFilter({ ...urlArgs, ...next }, { ...stored, ...next });
      // a Values collection holds the entity as one entry, keyed by its pk
      const added: unknown = collection.isValuesCollection ? { [entryKey(pk)]: pk } : [pk];
      const removeFrom = (collection.isValuesCollection ? removeEntries : removeItems) as (
        a: unknown,
        b: unknown,
      ) => unknown;
      const addTo = this.merge as (a: unknown, b: unknown) => unknown;
      for (const listPk of listPks) {
        const existing = ctx.get(collection.key, listPk);
        const listArgs = collection.holds(existing) ? parseArgsKey(listPk) : undefined;
        if (!listArgs) continue;
        const remove = removeFilter ? removeFilter(listArgs) : false;
        const add = addFilter(listArgs);
        if (remove === add) continue;
        const next = remove ? removeFrom(existing, added) : addTo(existing, added);
        if (!collection.holdsPks) ctx.write(collection.key, listPk, next);
        else
          ctx.editList(
            collection.key,
            listPk,
            next as string[],
            [pk as string],
            remove ? 'remove' : placeOf(existing as string[], next as string[], [pk as string]),
          );
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
  if (isUnion(item) && typeof value === 'object' && value !== null) {
    // a member of a Union: the entity its attribute names
    item = item.member(item.attributeOf(value as Record<string, unknown>, parent, key));
  }
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
