import { NormalizeError, describeKind, preview } from '../errors.js';
import { Entity, isEntityClass, usablePk } from './Entity.js';
import { discoverPkFields, entityPlan } from './entityPlan.js';
import { normalizeList } from './Array.js';
import { normalizeMembers } from './Object.js';
import { SchemaNode, type NormalizeContext } from './SchemaNode.js';
import { arrayItemSchema, schemaLabel } from './schemaKind.js';
import { copyTable, emptyTable, isPlainObject, jsonEqual } from './safeObject.js';
import { INVALID } from './special.js';
import type { EntityMeta, EntityMetaTables, EntityTable, EntityTables, NormalizeResult, NormalizedTables } from './types.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** Reads `table[key]` as data only (never from `Object.prototype`). */
export function ownValue<T>(table: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return table !== undefined && hasOwn.call(table, key) ? table[key] : undefined;
}

/**
 * Copy-on-write writer over the entity tables: the first write to a table copies that table (and the
 * root once); everything else keeps its identity.
 */
class TableWriter {
  entities: EntityTables;
  entitiesMeta: EntityMetaTables;
  readonly changed: [key: string, pk: string][] = [];
  private readonly changedIds = new Set<string>();
  private readonly copied = new Set<string>();
  private readonly copiedMeta = new Set<string>();
  private rootCopied = false;
  private metaRootCopied = false;

  constructor(state: NormalizedTables) {
    this.entities = state.entities;
    this.entitiesMeta = state.entitiesMeta;
  }

  get(key: string, pk: string): unknown {
    return ownValue(ownValue(this.entities, key), pk);
  }

  getMeta(key: string, pk: string): EntityMeta | undefined {
    return ownValue(ownValue(this.entitiesMeta, key), pk);
  }

  pks(key: string): string[] {
    const table = ownValue(this.entities, key);
    return table ? Object.keys(table) : [];
  }

  set(key: string, pk: string, value: unknown, meta: EntityMeta): void {
    const previous = ownValue(ownValue(this.entities, key), pk);
    if (value !== previous) {
      if (!this.rootCopied) {
        this.entities = copyTable(this.entities);
        this.rootCopied = true;
      }
      const id = `${key}\u0000${pk}`;
      if (!this.changedIds.has(id)) {
        this.changedIds.add(id);
        this.changed.push([key, pk]);
      }
      if (!this.copied.has(key)) {
        this.entities[key] = copyTable(ownValue(this.entities, key));
        this.copied.add(key);
      }
      (this.entities[key] as EntityTable)[pk] = value;
    }
    if (!this.metaRootCopied) {
      this.entitiesMeta = copyTable(this.entitiesMeta);
      this.metaRootCopied = true;
    }
    if (!this.copiedMeta.has(key)) {
      this.entitiesMeta[key] = copyTable(ownValue(this.entitiesMeta, key));
      this.copiedMeta.add(key);
    }
    (this.entitiesMeta[key] as Record<string, EntityMeta>)[pk] = meta;
  }
}

class Normalizer implements NormalizeContext {
  readonly args: readonly unknown[];
  readonly meta: EntityMeta;
  readonly writer: TableWriter;
  /** Objects on the current path, to turn a cyclic input into a clear error instead of a stack overflow. */
  private readonly path = new Set<object>();
  private readonly entityStack: { key: string; pk: string }[] = [];

  constructor(state: NormalizedTables, args: readonly unknown[], meta: EntityMeta) {
    this.writer = new TableWriter(state);
    this.args = args;
    this.meta = meta;
  }

  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === null || value === undefined) return value;
    if (isEntityClass(schema)) return this.visitEntity(schema, value, parent, key);
    if (schema instanceof SchemaNode) return schema.normalize(value, parent, key, this);
    if (Array.isArray(schema)) {
      const itemSchema = arrayItemSchema(schema);
      return normalizeList(itemSchema, value, key, this, schemaLabel(schema));
    }
    if (isPlainObject(schema)) return normalizeMembers(schema, value, this, schemaLabel(schema));
    return value;
  }

  currentEntity(): { key: string; pk: string } | undefined {
    return this.entityStack[this.entityStack.length - 1];
  }

  get(key: string, pk: string): unknown {
    return this.writer.get(key, pk);
  }

  pks(key: string): string[] {
    return this.writer.pks(key);
  }

  write(key: string, pk: string, incoming: unknown, merge?: (existing: any, incoming: any) => any): void {
    const existing = this.writer.get(key, pk);
    const existingMeta = this.writer.getMeta(key, pk);
    const newer = existingMeta === undefined || this.meta.fetchedAt >= existingMeta.fetchedAt;
    let next: unknown;
    if (existing === undefined || existing === INVALID || incoming === INVALID || !merge) {
      if (!newer) return; // a response to an older request never overwrites a newer write
      next = incoming;
    } else {
      next = newer ? merge(existing, incoming) : merge(incoming, existing);
    }
    if (existing !== undefined) next = shareUnchanged(next, existing);
    this.writer.set(key, pk, next, newer || existingMeta === undefined ? this.meta : existingMeta);
  }

  /**
   * With the default (spread) merge, a record whose every incoming field equals the stored one merges
   * into the same record: skip the merge, unless this request is newer and its time must be recorded.
   */
  private holdsAlready(key: string, pk: string, incoming: Record<string, unknown>): boolean {
    const existing = this.writer.get(key, pk);
    if (typeof existing !== 'object' || existing === null) return false;
    const meta = this.writer.getMeta(key, pk);
    if (meta !== this.meta && (meta === undefined || this.meta.fetchedAt > meta.fetchedAt)) return false;
    for (const field of Object.keys(incoming)) {
      if (!hasOwn.call(existing, field) || !jsonEqual(incoming[field], (existing as Record<string, unknown>)[field])) return false;
    }
    return true;
  }

  /** Plain (non-schema) values must be trees too: the store has to survive JSON.stringify. */
  private assertAcyclic(value: object, key: string): void {
    if (this.path.has(value)) {
      throw new NormalizeError(key, 'the input contains a cycle: a field refers back to an object that contains it.', value);
    }
    this.path.add(value);
    for (const field of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[field];
      if (typeof child === 'object' && child !== null) this.assertAcyclic(child, key);
    }
    this.path.delete(value);
  }

  private visitEntity(Cls: typeof Entity, input: unknown, parent: unknown, fieldKey: string | undefined): string {
    const plan = entityPlan(Cls);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      const hint = Array.isArray(input) ? ` Use [${plan.key}] (or new schema.Array(${plan.key})) for a list.` : '';
      throw new NormalizeError(plan.key, `expected an object but got ${describeKind(input)}.${hint}`, input);
    }
    if (this.path.has(input)) {
      throw new NormalizeError(plan.key, 'the input contains a cycle: an object refers back to one of its ancestors.', input);
    }
    this.path.add(input);
    let processed = Cls.process(input, parent, fieldKey, this.args) as Record<string, unknown>;
    if (processed === input) processed = { ...processed };
    const pk = usablePk(plan.key, Cls.pk(processed, parent, fieldKey, this.args), input);
    for (const field of plan.pkFields ?? discoverPkFields(Cls, plan, processed, this.args)) {
      const value = processed[field];
      if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
        throw new NormalizeError(plan.key, `the pk field "${field}" must be a string or a number, but it is ${describeKind(value)} in ${preview(input)}.`, input);
      }
    }
    for (const field of Object.keys(processed)) {
      const value = processed[field];
      if (typeof value === 'object' && value !== null && !plan.schemaFieldNames.has(field)) this.assertAcyclic(value, plan.key);
    }
    if (plan.schemaFields.length) {
      this.entityStack.push({ key: plan.key, pk });
      for (const field of plan.schemaFields) {
        const value = processed[field.name];
        if (value !== undefined) processed[field.name] = this.visit(field.schema, value, processed, field.name);
      }
      this.entityStack.pop();
    }
    this.path.delete(input);
    if (Cls.merge === Entity.merge && this.holdsAlready(plan.key, pk, processed)) return pk;
    this.write(plan.key, pk, processed, (existing, incoming) => Cls.merge(existing, incoming));
    return pk;
  }
}

/**
 * Keeps the identity of what did not change: the stored record itself when equal, otherwise its nested
 * values that are equal (so a read of an unchanged nested value stays ===). `next` is ours to change.
 */
function shareUnchanged(next: unknown, existing: unknown): unknown {
  if (jsonEqual(next, existing)) return existing;
  if (isPlainObject(next) && isPlainObject(existing) && next !== existing) {
    for (const key of Object.keys(next)) {
      const value = next[key];
      if (typeof value === 'object' && value !== null && hasOwn.call(existing, key) && jsonEqual(value, existing[key])) {
        next[key] = existing[key];
      }
    }
  }
  return next;
}

/** The empty tables: a store with nothing in it. */
export function emptyTables(): NormalizedTables {
  return { entities: emptyTable(), entitiesMeta: emptyTable() };
}

/**
 * Normalizes `input` (a response) with `schema` into entity tables. Pure: `state` is never changed;
 * the returned tables are copies only along the changed paths (unchanged tables and records keep their
 * identity). `args` are the request's arguments (collections are stored under them). `meta.fetchedAt`
 * is the request's start time: a record written by a newer request is never overwritten.
 *
 * @example
 * const { result, entities } = normalize([Todo], [{ id: 1, title: 'a' }]);
 * // result: ['1'], entities.Todo['1']: { id: 1, title: 'a' }
 */
export function normalize<R = unknown>(
  schema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
  state: NormalizedTables = emptyTables(),
  meta?: Partial<EntityMeta>,
): NormalizeResult<R> {
  const now = Date.now();
  const date = meta?.date ?? now;
  const fullMeta: EntityMeta = { date, fetchedAt: meta?.fetchedAt ?? date, expiresAt: meta?.expiresAt ?? date };
  const normalizer = new Normalizer(state, args, fullMeta);
  const result = normalizer.visit(schema, input, undefined, undefined) as R;
  const { entities, entitiesMeta, changed } = normalizer.writer;
  return { result, entities, entitiesMeta, changed };
}
