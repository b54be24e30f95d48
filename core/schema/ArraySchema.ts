import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { INVALID } from './special.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import { arrayItemSchema, schemaLabel } from './schemaKind.js';
import { isPlainObject } from './safeObject.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';

/**
 * Normalizes a list with `itemSchema`; anything but an array is a NormalizeError naming `listSchema`
 * (the schema of the list, labelled only then).
 */
export function normalizeList(
  itemSchema: unknown,
  input: unknown,
  parent: unknown,
  key: string | undefined,
  ctx: NormalizeContext,
  listSchema: unknown,
): unknown[] {
  // an object stands for the list of its values (data-client's `getValues`)
  const items = Array.isArray(input) ? input : isPlainObject(input) ? Object.values(input) : undefined;
  if (items === undefined) {
    throw new NormalizeError(
      schemaLabel(listSchema),
      process.env.NODE_ENV !== 'production'
        ? `expected an array (or an object of items) but got ${describeKind(input)}.`
        : 'array',
      input,
    );
  }
  const out = new Array<unknown>(items.length);
  // the items see the object holding the list as their parent, not the list itself
  for (let i = 0; i < items.length; i++) out[i] = ctx.visit(itemSchema, items[i], parent, key);
  return out;
}

/**
 * The item schema of a list schema (`[Todo]`, `new schema.Array(Todo)`; a Union for a polymorphic
 * `schema.Array`), or `undefined` for a schema that is not a list. `[]` and `[A, B]` throw a
 * `SchemaDefinitionError`.
 */
export function listItemSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return arrayItemSchema(schema);
  return schema instanceof ArraySchema ? schema.itemSchema : undefined;
}

/**
 * Reads a normalized list back. Items that are invalid, missing or `undefined` are dropped (a list never
 * becomes unusable because of one item); `null` items stay. The same array comes back while no item changed.
 */
export function denormalizeList(itemSchema: unknown, input: unknown, ctx: DenormalizeContext): unknown {
  if (!Array.isArray(input)) return input;
  // after a write, only the items it changed are read again (when the context knows them)
  const patched = ctx.patchList?.(itemSchema, input);
  if (patched !== undefined) return patched;
  const parts = new Array<unknown>(input.length);
  // a list of an entity class: read by the context in one loop (a page's first reads run before the engine optimizes them)
  let dropped = ctx.readList?.(itemSchema, input, parts);
  if (dropped === undefined) {
    dropped = 0;
    for (let i = 0; i < input.length; i++) if (!isPart((parts[i] = ctx.unvisit(itemSchema, input[i])))) dropped++;
  }
  // nothing dropped: the parts are the list (no second array)
  return ctx.stable(input, '[]', parts, () => (dropped === 0 ? parts : parts.filter(isPart)));
}

/** Whether a list keeps an item's read: not INVALID (missing or refused) and not `undefined`. */
const isPart = (part: unknown): boolean => part !== INVALID && part !== undefined;

/** A `schema.Array`, known without importing the class (a Collection of `[Todo]` leaves it out of a bundle). */
export function isArraySchema(value: unknown): value is ArraySchema<unknown, SchemaAttribute | undefined> {
  return value instanceof SchemaNode && (value as { isArraySchema?: unknown }).isArraySchema === true;
}

/**
 * A list of values of one schema: `new schema.Array(Todo)` is the same as `[Todo]`. With a map of
 * entities and an attribute (`new schema.Array({ link: Link, post: Post }, 'type')`) each item is the
 * member its attribute names, as with a `schema.Union`.
 *
 * @example
 * const TodoList = new schema.Array(Todo);
 * const Feed = new schema.Array({ link: Link, post: Post }, (item) => item.type);
 */
export class ArraySchema<S = unknown, A extends SchemaAttribute | undefined = undefined> extends SchemaNode {
  declare readonly kind: 'Array';
  /** The schema of every item (or the map of item schemas, with a `schemaAttribute`). */
  declare readonly schema: S;
  /** Picks the member of the map for each item; `undefined` for a single item schema. */
  declare readonly schemaAttribute: A;
  /** What each item is visited with: the item schema, or a Union of the map. */
  declare readonly itemSchema: unknown;

  constructor(schema: S, schemaAttribute?: A | SchemaAttribute) {
    super();
    this.schema = schema;
    this.schemaAttribute = schemaAttribute as A;
    this.itemSchema = schemaAttribute === undefined ? schema : this.unionOf(schema, schemaAttribute);
  }

  /**
   * The Union an item of a polymorphic list is visited with. The class users get (`schema.Array`,
   * `ArraySchema`) makes one; this base, which collections refer to, does not hold the polymorphic code,
   * so that a bundle without polymorphic lists leaves it out.
   */
  protected unionOf(_schema: unknown, _schemaAttribute: SchemaAttribute): unknown {
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? 'A polymorphic list needs schema.Array from rx-rest (it makes a schema.Union).'
        : 'Array',
    );
  }

  /** Whether this is a schema.Array (see `isArraySchema`). */
  get isArraySchema(): boolean {
    return true;
  }

  get label(): string {
    return `[${schemaLabel(this.itemSchema)}]`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown[] {
    return normalizeList(this.itemSchema, input, parent, key, ctx, this);
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return denormalizeList(this.itemSchema, input, ctx);
  }
}
