import { NormalizeError, describeKind } from '../errors.js';
import { denormalizeList } from './ArraySchema.js';
import type { Collection, CollectionListSchema } from './Collection.js';
import type { CreateCollectionFilter } from './collectionOptions.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import type { CollectionMerge } from './collectionMerges.js';
import type { Denormalize } from './types.js';

/**
 * Development only: the adders of `addWith`, whose responses are lists (a page): one that is a string or a number is
 * refused rather than taken as one pk (which would list a row the server never listed once that record arrives).
 */
export const listAdders = new WeakSet<object>();

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
    const mergeFor = (listArgs: Readonly<Record<string, string>>) => (filter(listArgs) ? this.merge : undefined);
    if (this.collection.isValuesCollection) {
      // an object of entries, merged into the matching objects
      const entries = ctx.visit(this.collection.schema, input, parent, key) as Record<string, unknown>;
      this.collection.addToLists(entries, mergeFor, ctx);
      return entries;
    }
    const list = Array.isArray(input);
    if (process.env.NODE_ENV !== 'production' && !list && listAdders.has(this) && typeof input !== 'object')
      throw new NormalizeError(
        this.label,
        `expected a list (a page) or one item, but got ${describeKind(input)}.`,
        input,
      );
    const pks = (list ? input : [input]).map((item) => ctx.visit(this.collection.itemSchema, item, parent, key));
    const usable = pks.filter((pk): pk is string => pk !== undefined && pk !== null && pk !== false && pk !== '');
    this.collection.addToLists(usable, mergeFor, ctx);
    return list ? pks : pks[0];
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (this.collection.isValuesCollection) return ctx.unvisit(this.collection.schema, input);
    if (Array.isArray(input)) return denormalizeList(this.collection.itemSchema, input, ctx);
    return ctx.unvisit(this.collection.itemSchema, input);
  }
}
