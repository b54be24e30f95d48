import { SchemaDefinitionError } from '../errors.js';
import { PolymorphicSchema, assertEntityMembers, type SchemaAttribute } from './PolymorphicSchema.js';
import type { DenormalizeContext, NormalizeContext, QueryKeyOf } from './SchemaNode.js';
import type { EntityTables } from './types.js';

/**
 * One value that may be any of several entities, told apart by an attribute: the name of a field
 * (`'type'`) or a function of the value. Stored as `{ id, schema }`; read back as the member's instance.
 * Give it to `schema.Array`, `schema.Values`, `schema.Collection` or `schema.All` for lists of mixed entities.
 *
 * @example
 * const FeedItem = new schema.Union({ link: Link, post: Post }, 'type');
 * const Feed = new schema.Collection([FeedItem]);
 */
export class Union<M extends Record<string, unknown> = Record<string, unknown>> extends PolymorphicSchema {
  declare readonly kind: 'Union';
  declare readonly schema: M;

  constructor(schemaMap: M, schemaAttribute: SchemaAttribute) {
    if (schemaAttribute === undefined || schemaAttribute === null || schemaAttribute === '') {
      throw new SchemaDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? 'new schema.Union(schemaMap, schemaAttribute) needs a schemaAttribute: a field name or a function.'
          : 'Union',
      );
    }
    super(schemaMap, schemaAttribute);
    assertEntityMembers('schema.Union', this);
  }

  override get isUnion(): boolean {
    return true;
  }

  get label(): string {
    return `Union(${this.membersLabel()})`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    return this.normalizeValue(input, parent, key, ctx);
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return this.denormalizeValue(input, ctx);
  }

  /** The member the first argument's attribute names, else the first member that finds it: `{ id, schema }`. */
  override queryKey(args: readonly unknown[], entities: EntityTables, keyOf: QueryKeyOf): unknown {
    const first = args[0];
    if (typeof first !== 'object' || first === null) return undefined;
    const attr = this.attributeOf(first as Record<string, unknown>, undefined, '');
    const named = this.member(attr);
    if (named !== undefined) {
      const id = keyOf(named, args, entities);
      return id === undefined ? undefined : { id, schema: attr };
    }
    for (const name of Object.keys(this.schema)) {
      const id = keyOf(this.schema[name], args, entities);
      if (id !== undefined) return { id, schema: name };
    }
    return undefined;
  }

  override queryTables(visit: (schema: unknown) => void): void {
    for (const member of this.members()) visit(member);
  }
}
