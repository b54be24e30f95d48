import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { isEntityClass, usablePk } from './Entity.js';
import { assertPkFields, entityPlan } from './entityPlan.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import { INVALID } from './special.js';
import type { EntityClass } from './types.js';
import { isUnion } from './collectionMerges.js';
import type { Union } from './Union.js';

/**
 * Marks an entity INVALID: the value is an object holding the pk members, or the pk itself. Lists drop
 * the entity; results that require it become unusable and refetch. `[new schema.Invalidate(Todo)]`
 * invalidates a list of them. Given a `schema.Union`, the value must be an object whose attribute names
 * the member (a pk alone cannot say which table it is in); it is stored as `{ id, schema }`.
 *
 * @example
 * const deleteTodo = new RestEndpoint({ method: 'DELETE', path: '/todos/:id', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<E extends EntityClass | Union = EntityClass> extends SchemaNode {
  declare readonly kind: 'Invalidate';
  /** The Entity class (or the Union of them) whose entities are invalidated. */
  declare readonly entity: E;

  constructor(entity: E) {
    super();
    if (!isEntityClass(entity) && !isUnion(entity)) {
      throw new SchemaDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? 'new schema.Invalidate(Entity) needs an Entity class (or a schema.Union).'
          : 'Invalidate',
      );
    }
    this.entity = entity;
  }

  /** The table of the invalidated entity (for a Union, its members' tables: `User;Group`). */
  get key(): string {
    const entity = this.entity;
    return isUnion(entity) ? entity.tableKey : entityPlan(entity as never).key;
  }

  get label(): string {
    return `Invalidate(${this.key})`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    const entity = this.entity;
    const invalidate = (member: unknown) => this.#invalidate(member as EntityClass, input, parent, key, ctx);
    return isUnion(entity) ? entity.invalidateValue(this.label, input, parent, key, invalidate) : invalidate(entity);
  }

  #invalidate(
    entity: EntityClass,
    input: unknown,
    parent: unknown,
    key: string | undefined,
    ctx: NormalizeContext,
  ): string {
    const entityKey = entityPlan(entity as never).key;
    let pk: string;
    if (typeof input === 'string' || typeof input === 'number') {
      pk = usablePk(entityKey, input, input);
    } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      const processed = entity.process(input, parent, key, ctx.args);
      pk = usablePk(entityKey, entity.pk(processed, parent, key, ctx.args), input);
      assertPkFields(entity as never, entityPlan(entity as never), processed, input, ctx.args);
    } else {
      throw new NormalizeError(
        entityKey,
        process.env.NODE_ENV !== 'production'
          ? `cannot invalidate ${describeKind(input)}: expected the pk or an object holding it.`
          : 'invalidate',
        input,
      );
    }
    ctx.write(entityKey, pk, INVALID);
    return pk;
  }

  /**
   * Reads back the entity if it is (again) valid, otherwise INVALID, like the entity itself: a result that
   * requires it is unusable, a list drops it.
   */
  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    const entity = this.entity;
    if (isUnion(entity)) return typeof input === 'object' && input !== null ? entity.denormalize(input, ctx) : INVALID;
    if (typeof input !== 'string') return INVALID;
    return ctx.unvisitRecord(entity as EntityClass, this.key, input);
  }
}
