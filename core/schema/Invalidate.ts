import { NormalizeError, SchemaDefinitionError, describeKind } from '../errors.js';
import { isEntityClass, usablePk } from './Entity.js';
import { assertPkFields, entityPlan } from './entityPlan.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import { INVALID } from './special.js';
import type { EntityClass } from './types.js';

/**
 * Marks an entity INVALID: the value is an object holding the pk members, or the pk itself. Lists drop
 * the entity; results that require it become unusable and refetch. `[new schema.Invalidate(Todo)]`
 * invalidates a list of them.
 *
 * @example
 * const deleteTodo = new RestEndpoint({ method: 'DELETE', path: '/todos/:id', schema: new schema.Invalidate(Todo) });
 */
export class Invalidate<E extends EntityClass = EntityClass> extends SchemaNode {
  declare readonly kind: 'Invalidate';
  /** The Entity class whose entities are invalidated. */
  declare readonly entity: E;

  constructor(entity: E) {
    super();
    if (!isEntityClass(entity)) {
      throw new SchemaDefinitionError('new schema.Invalidate(Entity) needs an Entity class.');
    }
    this.entity = entity;
  }

  /** The table of the invalidated entity. */
  get key(): string {
    return entityPlan(this.entity as never).key;
  }

  get label(): string {
    return `Invalidate(${this.key})`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): string {
    const entityKey = this.key;
    let pk: string;
    if (typeof input === 'string' || typeof input === 'number') {
      pk = usablePk(entityKey, input, input);
    } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      const processed = this.entity.process(input, parent, key, ctx.args);
      pk = usablePk(entityKey, this.entity.pk(processed, parent, key, ctx.args), input);
      assertPkFields(this.entity as never, entityPlan(this.entity as never), processed, input, ctx.args);
    } else {
      throw new NormalizeError(
        entityKey,
        `cannot invalidate ${describeKind(input)}: expected the pk or an object holding it.`,
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
    if (typeof input !== 'string') return INVALID;
    return ctx.unvisitRecord(this.entity, this.key, input);
  }
}
