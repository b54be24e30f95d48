/**
 * The normalizer: a visitor over a schema and its input that writes each entity through the table writer
 * (merging with what is stored, newest request first) and returns the input with entities replaced by pks.
 */
import { NormalizeError, describeKind, preview } from '../../errors.js';
import { Entity, plainPk, usablePk } from '../Entity.js';
import { assertPkFields, fieldEntity, planOf, type EntityPlan, type SchemaFieldPlan } from '../entityPlan.js';
import { normalizeList } from '../ArraySchema.js';
import { normalizeMembers } from '../ObjectSchema.js';
import { SchemaNode, type NormalizeContext } from '../SchemaNode.js';
import { arrayItemSchema, schemaLabel } from '../schemaKind.js';
import { assignField, hasOwn, isPlainObject, jsonEqual } from '../safeObject.js';
import { validated } from '../standard.js';
import { INVALID } from '../special.js';
import { logEdits, olderEdit, replayEdits } from '../listEdits.js';
import type { ListEdit, EntityMeta, NormalizedTables } from '../types.js';
import { TableWriter, metaOf, recordOf, type TableState } from './TableWriter.js';
import { repeatedOf, sameAsRepeated, shareUnchanged } from './unchanged.js';
import { checkPlainFields, pkOf, referenceTo } from './inputChecks.js';

/** Entity nesting depth from which cycles in the input are tracked (see `Normalizer.path`). */
const DEEP = 32;

/**
 * Field stamps, kept while a mutation is in flight (see `Normalizer`'s `since`): for a record's meta, the stamp
 * of each field written before the meta's `fetchedAt` (a field not listed has that stamp). A write that
 * started earlier (the mutation's answer, its optimistic layer) then still writes the fields that no later
 * write touched. Beside the meta, not in it: snapshots, persist and other tabs see the record's stamp only.
 */
const fieldStamps = new WeakMap<EntityMeta, { readonly [field: string]: number }>();

type Fields = Record<string, unknown>;

/** Normalizes one input (see `normalizeInto`): the visitor the schemas call back (`NormalizeContext`). */
export class Normalizer implements NormalizeContext {
  declare readonly args: readonly unknown[];
  declare readonly meta: EntityMeta;
  declare readonly writer: TableWriter;
  /** Entities' `static validator`s run (not for an optimistic layer: the expected response is the app's own guess). */
  declare readonly validates: boolean;
  /**
   * Entities on the current path past DEEP levels: a cyclic input recurses forever, so it is bound to
   * pass that depth and meet itself there; JSON input (acyclic) rarely gets that deep, and pays nothing (the set is made on first use).
   */
  #path: Set<object> | undefined = undefined;
  /** How many entities enclose the current value: `#entityKeys` and `#entityPks` hold them up to this index. */
  #depth = 0;
  readonly #entityKeys: string[] = [];
  readonly #entityPks: string[] = [];
  /** A whole list of the input was not written: a newer one is stored (see `writeList`). */
  keptNewerList = false;
  /** A mutation in flight started before this write: the fields of a record it leaves keep their stamps (`fieldStamps`). */
  declare readonly stampsFields: boolean;

  /** `since`: the first stamp of the oldest mutation in flight, if any. */
  constructor(
    state: NormalizedTables,
    args: readonly unknown[],
    meta: EntityMeta,
    owned?: WeakSet<object>,
    validates = true,
    since?: number,
  ) {
    this.writer = new TableWriter(state, owned);
    this.args = args;
    this.meta = meta;
    this.validates = validates;
    this.stampsFields = since !== undefined && since < meta.fetchedAt;
  }

  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown {
    if (value === null || value === undefined) return value;
    const plan = planOf(schema);
    if (plan) return this.#visitEntity(schema as typeof Entity, plan, value, parent, key);
    if (schema instanceof SchemaNode) return schema.normalize(value, parent, key, this);
    if (Array.isArray(schema)) return normalizeList(arrayItemSchema(schema), value, parent, key, this, schema);
    if (isPlainObject(schema)) return normalizeMembers(schema, value, this, schemaLabel(schema));
    return value;
  }

  currentEntity(): { key: string; pk: string } | undefined {
    const top = this.#depth - 1;
    return top < 0 ? undefined : { key: this.#entityKeys[top] as string, pk: this.#entityPks[top] as string };
  }

  get(key: string, pk: string): unknown {
    return this.writer.get(key, pk);
  }

  pks(key: string): string[] {
    return this.writer.pks(key);
  }

  write(key: string, pk: string, incoming: unknown, merge?: (existing: unknown, incoming: unknown) => unknown): void {
    const state = this.writer.state(key);
    this.#writeIn(state, pk, recordOf(state, pk), incoming, merge);
  }

  writeMerged(key: string, pk: string, existing: unknown, merged: unknown): void {
    const state = this.writer.state(key);
    const existingMeta = this.#metaOf(state, pk, existing);
    if (existingMeta !== undefined && this.meta.fetchedAt < existingMeta.fetchedAt) return; // a newer write holds
    this.writer.set(state, pk, existing, merged, this.meta);
  }

  writeList(key: string, pk: string, pks: readonly string[]): void {
    const state = this.writer.state(key);
    const existing = recordOf(state, pk);
    const existingMeta = this.#metaOf(state, pk, existing);
    if (existingMeta === undefined || !Array.isArray(existing) || this.meta.fetchedAt >= existingMeta.fetchedAt) {
      this.#writeIn(state, pk, existing, pks, undefined);
      return;
    }
    // changed since this write's request started: its answer with those changes replayed, unless a newer whole list holds
    const replayed = replayEdits(pks, existingMeta, this.meta.fetchedAt);
    if (replayed === undefined) {
      this.keptNewerList = true;
      return;
    }
    this.writer.set(state, pk, existing, shareUnchanged(replayed.list, existing), replayed.meta);
  }

  editList(key: string, pk: string, next: readonly string[], pks: readonly string[], op: ListEdit[2]): void {
    const state = this.writer.state(key);
    const existing = recordOf(state, pk);
    const existingMeta = this.#metaOf(state, pk, existing);
    if (existingMeta === this.meta || existing === undefined) {
      this.#writeIn(state, pk, existing, next, undefined); // a list this write made: nothing older to replay over it
      return;
    }
    if (existingMeta !== undefined && this.meta.fetchedAt < existingMeta.fetchedAt) {
      // the list changed since this write's request started (a page answered after a push joined the
      // list): this change still applies, but not to what changed later, nor over a newer whole list
      const older = Array.isArray(existing)
        ? olderEdit(existing as string[], next, existingMeta, this.meta.fetchedAt, pks, op)
        : undefined;
      if (older !== undefined) this.writer.set(state, pk, existing, shareUnchanged(older.list, existing), older.meta);
      return;
    }
    this.writer.set(state, pk, existing, shareUnchanged(next, existing), logEdits(this.meta, existingMeta, pks, op));
  }

  /**
   * The meta of `pk`, whose record is `existing`: in a table this normalize made, that of this write
   * exactly when it holds the record (no lookup).
   */
  #metaOf(state: TableState, pk: string, existing: unknown): EntityMeta | undefined {
    if (state.fresh) return existing === undefined ? undefined : this.meta;
    return metaOf(state, pk);
  }

  /**
   * Writes `incoming` at `pk` over `existing`, the record stored there now: merged with `merge`, with
   * `Entity.merge`'s spread when `true` (here, not through a call: a write's first runs are then as fast as
   * a response's), replacing it when `undefined`.
   */
  #writeIn(
    state: TableState,
    pk: string,
    existing: unknown,
    incoming: unknown,
    merge: ((existing: unknown, incoming: unknown) => unknown) | true | undefined,
  ): void {
    const existingMeta = this.#metaOf(state, pk, existing);
    const newer = existingMeta === undefined || this.meta.fetchedAt >= existingMeta.fetchedAt;
    if (existing === undefined) {
      // a new record: nothing to merge with or to share
      if (newer) this.writer.set(state, pk, undefined, incoming, this.meta);
      return;
    }
    let next: unknown;
    let meta = newer || existingMeta === undefined ? this.meta : existingMeta;
    if (existing === INVALID || incoming === INVALID || !merge) {
      if (!newer) {
        // a delete answered over a record that a later write changed only in part (field stamps): the server removed
        // it, and no later write made it whole again (it stays deleted, as a later arrival of the record's stamp)
        if (incoming === INVALID && fieldStamps.has(existingMeta!))
          this.writer.set(state, pk, existing, INVALID, this.#laterArrival(existingMeta!));
        return; // a response to an older request never overwrites a newer write
      }
      next = incoming;
    } else if (existingMeta !== undefined && (newer ? this.stampsFields : fieldStamps.has(existingMeta))) {
      // field by field: a newer write while a mutation is in flight, an older one over a record with field stamps;
      // a class's own merge takes the stored record with the fields that apply, as a newer write
      meta = this.#byField((next = { ...existing }) as Fields, incoming as Fields, existingMeta);
      if (merge !== true) next = merge(existing, next);
    } else if (merge === true) {
      next = newer ? { ...(existing as object), ...(incoming as object) } : { ...(incoming as object), ...existing };
    } else {
      next = newer ? merge(existing, incoming) : merge(incoming, existing);
    }
    next = shareUnchanged(next, existing);
    // written again by this normalize (a pk twice in a batch): back as it was before it, the same record
    if (existingMeta === this.meta && next !== existing) next = shareUnchanged(next, this.writer.original(state, pk));
    this.writer.set(state, pk, existing, next, meta);
  }

  /**
   * The default merge field by field (see `fieldStamps`) into `next`, a copy of the stored record whose meta is
   * `old`: each field keeps the later of its own stamp and this write's. Returns the record's meta: this write's
   * when it is the later one and wrote every field; else with the fields' stamps, and for an older write the
   * record's stamp with a later arrival (so that snapshots and other tabs take the merged record over the one
   * before it).
   */
  #byField(next: Fields, incoming: Fields, old: EntityMeta): EntityMeta {
    const at = this.meta.fetchedAt;
    const newer = at >= old.fetchedAt;
    const before = fieldStamps.get(old);
    const stamps = Object.create(null) as { [field: string]: number };
    let listed = !newer;
    for (const field in next) {
      const stamp = (stamps[field] = before?.[field] ?? old.fetchedAt);
      if (stamp < at && !hasOwn.call(incoming, field)) listed = true;
    }
    for (const field in incoming)
      if (!(stamps[field]! > at)) {
        assignField(next, field, incoming[field]);
        stamps[field] = at;
      }
    if (!listed) return this.meta;
    const meta = newer ? { ...this.meta } : this.#laterArrival(old);
    fieldStamps.set(meta, stamps);
    return meta;
  }

  /** The meta `old` (the record's stamp) arriving with this older write: snapshots and other tabs take its record. */
  #laterArrival(old: EntityMeta): EntityMeta {
    return {
      date: this.meta.date > old.date ? this.meta.date : old.date + 1 / 4096,
      fetchedAt: old.fetchedAt,
      expiresAt: old.expiresAt,
    };
  }

  /** Writes an entity whose class decides with `shouldUpdate` and `shouldReorder` how it meets the stored one. */
  #writeWithPolicy(Cls: typeof Entity, state: TableState, pk: string, incoming: Record<string, unknown>): void {
    const existing = recordOf(state, pk);
    const existingMeta = this.#metaOf(state, pk, existing);
    if (existing === undefined || existing === INVALID || existingMeta === undefined) {
      this.#writeIn(state, pk, existing, incoming, undefined);
      return;
    }
    const stored = existing as Record<string, unknown>;
    if (!Cls.shouldUpdate(existingMeta, this.meta, stored, incoming)) return;
    const reorder = Cls.shouldReorder(existingMeta, this.meta, stored, incoming);
    const next = shareUnchanged(reorder ? Cls.merge(incoming, stored) : Cls.merge(stored, incoming), existing);
    this.writer.set(state, pk, existing, next, reorder ? existingMeta : this.meta);
  }

  /**
   * With the default (spread) merge, a record whose every incoming field equals the stored one merges
   * into the same record: skip the merge, unless this request is newer and its time must be recorded.
   */
  #holdsAlready(state: TableState, pk: string, existing: unknown, incoming: Record<string, unknown>): boolean {
    if (typeof existing !== 'object' || existing === null) return false;
    const meta = this.#metaOf(state, pk, existing);
    if (meta === this.meta) {
      // written by this normalize (a user in every article): from its second repeat on, compared by position
      const repeats = (state.repeats ??= new Map());
      const seen = repeats.get(pk);
      if (seen !== undefined && seen.record === existing) {
        const same = sameAsRepeated(seen, incoming);
        if (same !== undefined) return same;
      } else {
        repeats.set(pk, repeatedOf(existing));
      }
    } else if (meta === undefined || this.meta.fetchedAt > meta.fetchedAt || fieldStamps.has(meta)) {
      // newer: its time is recorded; older over field stamps: the fields it writes take its stamp
      return false;
    }
    for (const field in incoming) {
      const value = incoming[field];
      const stored = (existing as Record<string, unknown>)[field];
      if (value === stored) {
        if (value === undefined && !hasOwn.call(existing, field)) return false;
      } else if (typeof value !== 'object' || value === null || !jsonEqual(value, stored)) {
        return false;
      }
    }
    return true;
  }

  /** Normalizes the value of a nested-schema field: an Entity or a list of one straight, else through `visit`. */
  #visitField(field: SchemaFieldPlan, value: unknown, parent: Record<string, unknown>): unknown {
    const writes = fieldEntity(field);
    if (writes !== null && value !== null) {
      if (!writes.list) return this.#visitEntity(writes.Cls, writes.plan, value, parent, field.name);
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          out[i] =
            item === null || item === undefined
              ? item
              : this.#visitEntity(writes.Cls, writes.plan, item, parent, field.name);
        }
        return out;
      }
    }
    return this.visit(field.schema, value, parent, field.name);
  }

  #visitEntity(
    Cls: typeof Entity,
    plan: EntityPlan,
    input: unknown,
    parent: unknown,
    fieldKey: string | undefined,
  ): unknown {
    if (typeof input !== 'object' || input === null) return referenceTo(plan, input);
    const customProcess = !plan.defaultProcess;
    if (Array.isArray(input) && !customProcess && plan.automaticValidation !== 'silent') {
      const message =
        process.env.NODE_ENV !== 'production'
          ? `expected an object but got ${describeKind(input)}. Use [${plan.key}] (or new schema.Array(${plan.key})) ` +
            `for a list, or a static process() that turns it into an object.`
          : 'array';
      if (plan.automaticValidation !== 'warn') throw new NormalizeError(plan.key, message, input);
      console.warn(
        process.env.NODE_ENV !== 'production'
          ? `${plan.key}: ${message} (static automaticValidation = 'silent' turns this warning off)`
          : `${plan.key}: ${message}`,
      );
    }
    const tracked = this.#depth >= DEEP;
    if (tracked) {
      const path = (this.#path ??= new Set());
      if (path.has(input)) {
        throw new NormalizeError(
          plan.key,
          process.env.NODE_ENV !== 'production'
            ? 'the input contains a cycle: an object refers back to one of its ancestors.'
            : 'cycle',
          input,
        );
      }
      path.add(input);
    }
    const args = this.args;
    // With the default process (a shallow copy), pk and equality can be read off the input itself:
    // a leaf entity that the store already holds unchanged costs no copy at all.
    let processed = (customProcess ? Cls.process(input, parent, fieldKey, args) : input) as Record<string, unknown>;
    if (customProcess && (typeof processed !== 'object' || processed === null || Array.isArray(processed))) {
      throw new NormalizeError(
        plan.key,
        process.env.NODE_ENV !== 'production'
          ? `process() must return an object, but it returned ${describeKind(processed)} for ${preview(input)}.`
          : 'process()',
        input,
      );
    }
    // the class's validator as it is now (one assigned after the class's first use, or replaced): read once per
    // class and write (this write's meta is its own object), not per record
    if (plan.validatorFor !== this.meta) {
      plan.validatorFor = this.meta;
      plan.validator = Cls.validator;
    }
    if (plan.validator && this.validates) {
      const output = validated(plan.validator, processed, () => ({
        entity: plan.key,
        pk: pkOf(Cls, processed, parent, fieldKey, args),
      }));
      if (output instanceof Promise) {
        output.catch(() => undefined); // its own failure is reported by this error
        throw new NormalizeError(
          plan.key,
          process.env.NODE_ENV !== 'production'
            ? "static validator answered with a Promise: it must be synchronous (async checks go in the endpoint's responseSchema; " +
                'zod answers with one also when a transform or a refinement throws)'
            : 'validator',
          input,
        );
      }
      // (development only: in production the record fails later, as one without a usable pk)
      if (
        process.env.NODE_ENV !== 'production' &&
        (typeof output !== 'object' || output === null || Array.isArray(output))
      )
        throw new NormalizeError(
          plan.key,
          `static validator gave ${describeKind(output)}, not an object: a record is stored as an object (check its transforms)`,
          input,
        );
      // the validator's output is stored: a copy of it, ours to change (the input stays the caller's)
      if (output !== processed) processed = { ...(output as object) } as Record<string, unknown>;
    }
    const rawPk = plan.defaultPk
      ? plan.pkMethod.call(processed, parent, fieldKey, args)
      : Cls.pk(processed, parent, fieldKey, args);
    const pk =
      typeof rawPk === 'string' && plainPk(rawPk)
        ? rawPk
        : usablePk(
            plan.key,
            rawPk ?? undefined,
            input,
            // what pk() read when the validator ran: its output (named in the message)
            process.env.NODE_ENV !== 'production' && plan.validator && this.validates ? processed : undefined,
          );
    assertPkFields(Cls, plan, processed, input, args, parent, fieldKey);
    if (plan.validate) {
      const message = plan.validate(processed);
      if (message)
        throw new NormalizeError(
          plan.key,
          process.env.NODE_ENV !== 'production' ? `validate() rejected ${preview(input)}: ${message}` : message,
          input,
        );
    }
    const defaultMerge = plan.defaultMerge;
    const state = this.writer.state(plan.key);
    const schemaFields = plan.schemaFields;
    let existing: unknown;
    if (schemaFields.length === 0) {
      existing = recordOf(state, pk);
      if (defaultMerge && this.#holdsAlready(state, pk, existing, processed)) {
        if (tracked) this.#path!.delete(input);
        return pk;
      }
      if (processed === input) processed = { ...processed };
      checkPlainFields(plan, processed);
    } else {
      if (processed === input) processed = { ...processed };
      checkPlainFields(plan, processed);
      // a stack by index (a push is a call into the engine; the entries past the depth are stale)
      const depth = this.#depth++;
      this.#entityKeys[depth] = plan.key;
      this.#entityPks[depth] = pk;
      try {
        for (let i = 0; i < schemaFields.length; i++) {
          const field = schemaFields[i] as SchemaFieldPlan;
          const value = processed[field.name];
          if (value !== undefined) processed[field.name] = this.#visitField(field, value, processed);
        }
      } finally {
        this.#depth--;
      }
      // the nested visits may have written to this table too (the same record, nested in itself)
      existing = recordOf(state, pk);
      if (defaultMerge && this.#holdsAlready(state, pk, existing, processed)) {
        if (tracked) this.#path!.delete(input);
        return pk;
      }
    }
    if (tracked) this.#path!.delete(input);
    if (plan.writePolicy) {
      this.#writeWithPolicy(plan.writePolicy, state, pk, processed);
      return pk;
    }
    this.#writeIn(
      state,
      pk,
      existing,
      processed,
      defaultMerge
        ? true
        : (existing, incoming) => Cls.merge(existing as Record<string, unknown>, incoming as Record<string, unknown>),
    );
    return pk;
  }
}
