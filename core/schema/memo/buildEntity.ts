import { DeserializeError } from '../../errors.js';
import type { Entity } from '../Entity.js';
import type { EntityPlan } from '../entityPlan.js';
import type { DenormalizeContext } from '../SchemaNode.js';
import { assignField, hasOwn } from '../safeObject.js';
import { INVALID } from '../special.js';

/**
 * Builds an Entity instance from its stored record: class defaults, then the stored fields, then
 * deserializers (skipping null/undefined), then nested schemas. A required nested entity that is INVALID
 * or missing makes the whole entity INVALID; an optional one becomes `undefined`.
 */
export function buildEntity(
  plan: EntityPlan,
  record: Record<string, unknown>,
  ctx: DenormalizeContext,
  register: (value: unknown) => void,
): unknown {
  if (plan.validate && plan.validate(record)) return INVALID;
  const instance = new plan.make();
  register(instance);
  fillFields(plan, instance, record);
  for (const field of plan.schemaFields) {
    const raw = record[field.name];
    if (raw === undefined || raw === null) continue;
    const value = ctx.unvisit(field.schema, raw);
    if (value === INVALID) {
      if (field.required) return INVALID;
      instance[field.name] = undefined;
    } else {
      instance[field.name] = value;
    }
  }
  return instance;
}

/**
 * The depth limit: an entity read past its `maxEntityDepth` is read shallow, with its own fields and
 * deserialized values and its nested schema fields left as stored (pks).
 */
export function shallowEntity(plan: EntityPlan, record: Record<string, unknown>): object {
  return fillFields(plan, new plan.make(), record);
}

/** Marks a dependency read shallow (past the depth limit), so that validating it reads it shallow again. */
export class ShallowMarker {
  declare readonly schema: typeof Entity;
  constructor(schema: typeof Entity) {
    this.schema = schema;
  }
}

const shallowMarkers = new WeakMap<Function, ShallowMarker>();

/** The one marker of `schema`'s shallow reads. */
export function shallowMarker(schema: typeof Entity): ShallowMarker {
  let marker = shallowMarkers.get(schema);
  if (!marker) shallowMarkers.set(schema, (marker = new ShallowMarker(schema)));
  return marker;
}

/**
 * The class's fields (the stored value, else the default) in declaration order, then the other stored
 * fields, then deserializers (skipping null/undefined) into `instance`.
 */
function fillFields(
  plan: EntityPlan,
  instance: Record<string, unknown>,
  record: Record<string, unknown>,
): Record<string, unknown> {
  const { defaults, fields } = plan;
  let taken = 0;
  if (fields === undefined) Object.assign(instance, defaults);
  else {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as string;
      const value = record[field];
      if (value === undefined) instance[field] = defaults[field];
      else {
        instance[field] = value;
        taken++;
      }
    }
    // a record of only the class's fields (the usual one) has nothing more to copy
    for (const _ in record) taken--;
  }
  if (taken !== 0 || fields === undefined) {
    for (const field in record) {
      const value = record[field];
      if (value !== undefined && !(fields !== undefined && hasOwn.call(defaults, field)) && !plan.reserved.has(field))
        assignField(instance, field, value);
    }
  }
  for (const field of plan.deserializers) {
    const raw = record[field.name];
    if (raw === null || raw === undefined) continue;
    try {
      instance[field.name] = field.deserialize(raw);
    } catch (cause) {
      throw new DeserializeError(plan.key, field.name, raw, cause);
    }
  }
  return instance;
}
