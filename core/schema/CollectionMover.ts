import { CollectionAdder } from './CollectionAdder.js';
import { entryKey, isUnion } from './collectionMerges.js';
import { entityKey, isEntityClass } from './Entity.js';
import type { NormalizeContext } from './SchemaNode.js';

/** A list item written by a normalize: a pk, or a Union member's `{ id, schema }`. */
function isItemRef(pk: unknown): pk is string | { id: string; schema: string } {
  return typeof pk === 'string' || (typeof pk === 'object' && pk !== null && 'id' in pk);
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
    // the collection's own removal (of a list's pks, or of a Values collection's entries)
    const removeFrom = collection.remove.merge;
    pks.forEach((pk, i) => {
      if (!isItemRef(pk)) return;
      const stored = before[i];
      const next = { ...body, ...asRecord(items[i]) };
      const removeFilter = stored && collection.createCollectionFilter({ ...urlArgs, ...stored }, stored);
      const addFilter = collection.createCollectionFilter({ ...urlArgs, ...next }, { ...stored, ...next });
      // out of the lists its stored values matched and its new values do not, into those of the reverse
      collection.addToLists(
        // a Values collection holds the entity as one entry, keyed by its pk
        collection.isValuesCollection ? { [entryKey(pk)]: pk } : [pk as string],
        (listArgs) => {
          const remove = removeFilter ? removeFilter(listArgs) : false;
          return remove === addFilter(listArgs) ? undefined : remove ? removeFrom : this.merge;
        },
        ctx,
      );
    });
    return list ? pks : pks[0];
  }
}

/** `value` as an object of fields (`{}` when it is none). */
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
