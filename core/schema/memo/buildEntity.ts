import { DeserializeError } from '../../errors.js';
import type { Entity } from '../Entity.js';
import { copyDefault } from '../defaultCopies.js';
import { fieldEntity, planOf, type EntityPlan, type SchemaFieldPlan } from '../entityPlan.js';
import type { DenormalizeContext } from '../SchemaNode.js';
import { assignField, hasOwn, ownValue } from '../safeObject.js';
import { INVALID } from '../special.js';
import type { EntityTables } from '../types.js';
import { NO_DEPS, newNode, sameList, type RecordNode } from './dependencies.js';
import type { Recording } from './Recording.js';

/** What a build reads nested values with: `plan`, when given, is the plan of `schema` (an Entity class). */
export interface EntityReader extends DenormalizeContext {
  unvisit(schema: unknown, input: unknown, plan?: EntityPlan): unknown;
}

/**
 * Builds an Entity instance from its stored record: class defaults, then the stored fields, then
 * deserializers (skipping null/undefined), then nested schemas. A required nested entity that is INVALID
 * or missing makes the whole entity INVALID; an optional one becomes `undefined`. `node` (the record's memo
 * node) holds the instance as soon as it exists, for a cycle back to the record. `previous` is the value
 * the record's node held before (its last build, if any): a list of entities that reads the same
 * entities again is that build's list (the same array).
 */
export function buildEntity(
  plan: EntityPlan,
  record: Record<string, unknown>,
  ctx: EntityReader,
  node: { value: unknown; readonly prior?: unknown },
  previous: unknown,
): unknown {
  if (plan.validate && plan.validate(record)) return INVALID;
  const instance = new plan.make();
  node.value = instance; // handed out early: a cycle back to this record reads it
  fillFields(plan, instance, record);
  const schemaFields = plan.schemaFields;
  for (let i = 0; i < schemaFields.length; i++) {
    const field = schemaFields[i] as SchemaFieldPlan;
    const raw = record[field.name];
    if (raw === undefined || raw === null) continue;
    const entity = fieldEntity(field);
    const value =
      entity === null
        ? ctx.unvisit(field.schema, raw)
        : !entity.list
          ? ctx.unvisit(entity.Cls, raw, entity.plan)
          : Array.isArray(raw)
            ? entityList(entity.Cls, entity.plan, raw, ctx, previous, field.name, node.prior)
            : raw;
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
 * The `[Entity]` field `name` read from its stored pks: items that are invalid or missing are dropped (as
 * `denormalizeList` does). When `previous` (the last build of the record) holds the same entities in that
 * field, its list comes back (or the list of the build before it, `prior`: a change undone); a record's first build
 * has nothing to compare with and no lookup to make.
 */
function entityList(
  Cls: typeof Entity,
  plan: EntityPlan,
  raw: readonly unknown[],
  ctx: EntityReader,
  previous: unknown,
  name: string,
  prior: unknown,
): unknown[] {
  // a copy of the pks, overwritten: the list is made at its length (a list grown by `push` holds at least 16 slots)
  const out = raw.slice();
  let kept = 0;
  for (let i = 0; i < raw.length; i++) {
    const part = ctx.unvisit(Cls, raw[i], plan);
    if (part !== INVALID && part !== undefined) out[kept++] = part;
  }
  out.length = kept;
  if (typeof previous !== 'object' || previous === null) return out;
  const before = (previous as Record<string, unknown>)[name];
  if (sameList(before, out)) return before as unknown[];
  const older = typeof prior === 'object' && prior !== null ? (prior as Record<string, unknown>)[name] : undefined;
  return sameList(older, out) ? (older as unknown[]) : out;
}

/**
 * The list `input` of the entity class `schema` read by pk into `parts`; returns how many items it drops (INVALID
 * or `undefined`). With the table at `at` in `slots` (given for a first read: no readers index, nothing handed out
 * on trust; else `[]`), a record that has no
 * node yet, of a class that nests no other and has no validator, is built here and recorded as `ReadPass#resolve`
 * would (its node reads nothing) in one loop; any other item goes through `ctx.unvisitRecord` or `ctx.unvisit`.
 */
export function readRows(
  ctx: EntityReader,
  schema: typeof Entity,
  plan: EntityPlan,
  input: readonly unknown[],
  parts: unknown[],
  slots: readonly unknown[],
  at: number,
  id: number,
  rec: Recording,
): number {
  const table = slots[at + 1] as EntityTables[string] | undefined;
  const nodes = slots[at + 2] as Map<string, RecordNode>;
  const key = plan.key;
  const flat = table !== undefined && plan.schemaFields.length === 0 && !plan.validate;
  let dropped = 0;
  for (let i = 0; i < input.length; i++) {
    const raw = input[i];
    let value: unknown;
    if (typeof raw === 'string' || typeof raw === 'number') {
      const pk = typeof raw === 'string' ? raw : String(raw);
      const record = flat ? ownValue(table, pk) : undefined;
      if (typeof record === 'object' && record !== null && !nodes.has(pk)) {
        value = fillFields(plan, new plan.make(), record as Record<string, unknown>);
        // a build that throws (a deserializer) leaves no node
        const node = newNode(schema, key, pk, record);
        node.value = value;
        node.deps = NO_DEPS;
        node.pass = id;
        nodes.set(pk, node);
        rec.record(schema, key, pk, value, node);
      } else value = ctx.unvisitRecord(schema, key, pk, plan);
    } else value = ctx.unvisit(schema, raw);
    parts[i] = value;
    if (value === INVALID || value === undefined) dropped++;
  }
  return dropped;
}

/**
 * The entity `pk` of `schema` past the depth limit, from the tables `entities` (INVALID without a record), kept
 * per record in `kept` so that repeated reads give the same object; recorded in `rec` under the class's shallow
 * marker, so that validating the read reads it shallow again.
 */
export function shallowRead(
  kept: WeakMap<object, object>,
  entities: EntityTables,
  rec: Recording,
  schema: typeof Entity,
  pk: string,
  plan = planOf(schema) as EntityPlan,
): unknown {
  const record = ownValue(ownValue(entities, plan.key), pk);
  let value: unknown = INVALID;
  // a record the class's checks refuse (restored before the class was used) reads as missing, as within the limit
  if (typeof record === 'object' && record !== null && !plan.validate?.(record as Record<string, unknown>)) {
    value = kept.get(record);
    // read shallow: its own fields and deserialized values, its nested schema fields left as stored (pks)
    if (value === undefined)
      kept.set(record, (value = fillFields(plan, new plan.make(), record as Record<string, unknown>)));
  }
  rec.record(shallowMarker(schema), plan.key, pk, value);
  return value;
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
  const { defaults, fields, copied } = plan;
  if (fields !== undefined && holdsExactly(record, fields)) {
    // the usual record: the class's fields in declaration order, each set (none is reserved or
    // `__proto__`, see EntityPlan.fields), so one copy gives the instance its fields in that order
    Object.assign(instance, record);
  } else {
    let taken = 0;
    if (fields === undefined) {
      Object.assign(instance, defaults);
      if (copied !== undefined) {
        for (const field of copied) {
          if (ownValue(record, field) === undefined) assignField(instance, field, copyDefault(defaults[field]));
        }
      }
    } else {
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i] as string;
        const value = record[field];
        if (value === undefined) {
          const fallback = defaults[field];
          instance[field] = copied !== undefined && copied.has(field) ? copyDefault(fallback) : fallback;
        } else {
          instance[field] = value;
          taken++;
        }
      }
      // a record of only the class's fields has nothing more to copy
      for (const _ in record) taken--;
    }
    if (taken !== 0 || fields === undefined) {
      for (const field in record) {
        const value = record[field];
        if (value !== undefined && !(fields !== undefined && hasOwn.call(defaults, field)) && !plan.reserved.has(field))
          assignField(instance, field, value);
      }
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

/** Whether `record`'s enumerable fields are exactly `fields`, in that order, none of them `undefined`. */
function holdsExactly(record: Record<string, unknown>, fields: readonly string[]): boolean {
  let i = 0;
  for (const field in record) {
    if (field !== fields[i] || record[field] === undefined) return false;
    i++;
  }
  return i === fields.length;
}
