import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { entityKey } from './Entity.js';
import {
  PolymorphicSchema,
  assertEntityMembers,
  type PolymorphicRef,
  type SchemaAttribute,
} from './PolymorphicSchema.js';
import { hasOwn, isPlainObject } from './safeObject.js';
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

  /** The tables of the members (`User;Group`): the name of a Collection's or an Invalidate's table of this Union. */
  get tableKey(): string {
    return this.members()
      .map((member) => entityKey(member as never))
      .join(';');
  }

  /**
   * @internal What the lists of a Collection of this Union hold (see collectionTables.ts): `{ id, schema }`
   * references, each to its member's table (`tables`), and the record one of them names (`read`).
   */
  listItems(): {
    readonly tables: Readonly<Record<string, string>>;
    readonly read: (item: unknown) => readonly [string, string] | undefined;
  } {
    const tables: Record<string, string> = {};
    for (const name of Object.keys(this.schema)) tables[name] = entityKey(this.schema[name] as never);
    return {
      tables,
      read: (item) => {
        if (!isPlainObject(item)) return undefined;
        const { id, schema } = item as { id?: unknown; schema?: unknown };
        const table = typeof schema === 'string' && hasOwn.call(tables, schema) ? tables[schema] : undefined;
        return table !== undefined && typeof id === 'string' ? [table, id] : undefined;
      },
    };
  }

  /**
   * @internal `schema.Invalidate` of this Union (labelled `label`): `invalidate` the member the value's
   * attribute names, stored as `{ id, schema }`.
   */
  invalidateValue(
    label: string,
    input: unknown,
    parent: unknown,
    key: string | undefined,
    invalidate: (member: unknown) => string,
  ): PolymorphicRef {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new NormalizeError(
        label,
        process.env.NODE_ENV !== 'production'
          ? `cannot invalidate ${describeKind(input)} of a schema.Union: expected an object whose attribute names its member.`
          : 'invalidate',
        input,
      );
    }
    const attr = this.attributeOf(input as Record<string, unknown>, parent, key);
    const member = this.member(attr);
    if (member === undefined) {
      throw new NormalizeError(
        label,
        process.env.NODE_ENV !== 'production'
          ? `the schema attribute ${JSON.stringify(attr)} names no member of ${this.label}.`
          : 'attribute',
        input,
      );
    }
    return { id: invalidate(member), schema: attr as string };
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
