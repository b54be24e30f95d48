import { NormalizeError, describeKind } from '../errors.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import { schemaLabel } from './schemaKind.js';
import { assignField, isPlainObject } from './safeObject.js';
import { INVALID } from './special.js';
import { Union } from './Union.js';
import { SchemaDefinitionError } from '../errors.js';
import type { Collection } from './Collection.js';
import { CollectionAdder } from './CollectionAdder.js';
import { CollectionMover } from './CollectionMover.js';
import { assignEntries, removeEntries } from './collectionMerges.js';

/**
 * An object of any keys whose every value has one schema (`{ [id]: User }`), or, with a map and an
 * attribute, one of several (as with `schema.Union`). `null`/`undefined` values are left out; values that
 * read back missing or invalid are dropped from the object.
 *
 * @example
 * const UsersById = new schema.Values(User);
 * const Mixed = new schema.Values({ link: Link, post: Post }, 'type');
 */
export class Values<S = unknown, A extends SchemaAttribute | undefined = undefined> extends SchemaNode {
  declare readonly kind: 'Values';
  /** The schema of every value (or the map of value schemas, with a `schemaAttribute`). */
  declare readonly schema: S;
  /** Picks the member of the map for each value; `undefined` for a single value schema. */
  declare readonly schemaAttribute: A;
  /** What each value is visited with: the value schema, or a Union of the map. */
  declare readonly itemSchema: unknown;

  constructor(schema: S, schemaAttribute?: A | SchemaAttribute) {
    super();
    this.schema = schema;
    this.schemaAttribute = schemaAttribute as A;
    this.itemSchema =
      schemaAttribute === undefined ? schema : new Union(schema as Record<string, unknown>, schemaAttribute);
  }

  /** Whether this is a schema.Values (a Collection of it stores objects, not lists). */
  get isValues(): boolean {
    return true;
  }

  /**
   * @internal The members of a Collection of this Values, which stores objects of entries: `assign`,
   * `remove` and `move`; `push` and `unshift` throw (an object has no order). Here, so that a bundle whose
   * collections all hold lists leaves them out.
   */
  collectionMembers(collection: Collection<Values<unknown, SchemaAttribute | undefined>>): void {
    Object.assign(collection, {
      assign: new CollectionAdder(collection, assignEntries as never),
      remove: new CollectionAdder(collection, removeEntries as never),
      move: new CollectionMover(collection, assignEntries as never),
    });
    for (const name of ['push', 'unshift']) {
      Object.defineProperty(collection, name, {
        get: () => {
          throw new SchemaDefinitionError(
            process.env.NODE_ENV !== 'production'
              ? `${collection.label}.${name}: an object of entities has no order; use .assign (or .remove, .move).`
              : `${collection.label}.${name}`,
          );
        },
      });
    }
  }

  get label(): string {
    return `Values(${schemaLabel(this.itemSchema)})`;
  }

  normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext): unknown {
    if (!isPlainObject(input)) {
      throw new NormalizeError(
        this.label,
        process.env.NODE_ENV !== 'production'
          ? `expected an object of values but got ${describeKind(input)}.`
          : 'object',
        input,
      );
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const value = input[key];
      if (value === null || value === undefined) continue;
      assignField(out, key, ctx.visit(this.itemSchema, value, input, key));
    }
    return out;
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    if (typeof input !== 'object' || input === null) return input;
    const keys = Object.keys(input);
    const parts = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      parts[i] = ctx.unvisit(this.itemSchema, (input as Record<string, unknown>)[keys[i] as string]);
    }
    return ctx.stable(input, 'Values', parts, () => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const part = parts[i];
        if (part !== INVALID && part !== undefined && part !== null && part !== false)
          assignField(out, keys[i] as string, part);
      }
      return out;
    });
  }
}
