import type { Entity } from './Entity.js';
import { planOf } from './entityPlan.js';
import { normalizeList } from './ArraySchema.js';
import { assertEntityMembers, PolymorphicSchema, type SchemaAttribute } from './PolymorphicSchema.js';
import type { DenormalizeContext, NormalizeContext } from './SchemaNode.js';
import { ALL_INPUT, INVALID } from './special.js';

/**
 * Every entity of a class in the store (or of several, with a map and an attribute), in table order.
 * Reads as unusable while the store has no table for it yet. Normalizing a list with it stores the
 * entities like `[Entity]`. Its reads depend on every write to its tables.
 *
 * @example
 * const allUsers = new schema.All(User);
 * const usersByAge = new schema.Query(allUsers, (users) => [...users].sort((a, b) => a.age - b.age));
 */
export class All<S = unknown, A extends SchemaAttribute | undefined = undefined> extends PolymorphicSchema {
  declare readonly kind: 'All';
  declare readonly schema: S;
  declare readonly schemaAttribute: A;
  #item: PolymorphicItem | undefined;

  constructor(schema: S, schemaAttribute?: A | SchemaAttribute) {
    super(schema, schemaAttribute);
    assertEntityMembers('schema.All', this);
  }

  get label(): string {
    return `All(${this.membersLabel()})`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    const item = this.isSingleSchema ? this.schema : (this.#item ??= new PolymorphicItem(this));
    return normalizeList(item, input, parent, key, ctx, this);
  }

  /** Reads every entity of the tables (whatever `input` is); INVALID while none of the tables exists. */
  denormalize(_input: unknown, ctx: DenormalizeContext): unknown {
    const parts: unknown[] = [];
    let found = false;
    for (const member of this.members()) {
      const key = (planOf(member) as { key: string }).key;
      const pks = ctx.tablePks(key);
      if (pks === undefined) continue;
      found = true;
      for (const pk of pks) {
        const part = ctx.unvisit(member as typeof Entity, pk);
        // a deleted row (its tombstone still in the table) is left out here: the same rows, the same list
        if (part !== INVALID && part !== undefined) parts.push(part);
      }
    }
    if (!found) return INVALID;
    return ctx.stable(this, 'All', parts, () => parts);
  }

  override queryKey(): unknown {
    return ALL_INPUT;
  }

  override queryTables(visit: (schema: unknown) => void): void {
    for (const member of this.members()) visit(member);
  }
}

/** Visits each item of a polymorphic All with the member its attribute names. */
class PolymorphicItem extends PolymorphicSchema {
  readonly #owner: All<unknown, SchemaAttribute | undefined>;
  constructor(owner: All<unknown, SchemaAttribute | undefined>) {
    super(owner.schema, owner.schemaAttribute);
    this.#owner = owner;
  }
  get label(): string {
    return this.#owner.label;
  }
  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    return this.normalizeValue(input, parent, key, ctx);
  }
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return this.denormalizeValue(input, ctx);
  }
}
