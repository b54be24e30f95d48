import { NormalizeError, describeKind, preview } from '../errors.js';
import { forgetDerived } from './tableDerived.js';
import { Entity, plainPk, usablePk } from './Entity.js';
import { assertPkFields, planOf, type EntityPlan, type SchemaFieldPlan } from './entityPlan.js';
import { normalizeList } from './Array.js';
import { normalizeMembers } from './Object.js';
import { SchemaNode, type NormalizeContext } from './SchemaNode.js';
import { arrayItemSchema, schemaLabel } from './schemaKind.js';
import { copyTable, emptyTable, hasCycle, hasOwn, isPlainObject, jsonEqual } from './safeObject.js';
import { keepShape } from './shapeKeeper.js';
import { validated } from './standard.js';
import { INVALID } from './special.js';
import { logEdits, replayEdits } from './listEdits.js';
import type {
  ListEdit,
  EntityMeta,
  EntityMetaTables,
  EntityTable,
  EntityTables,
  NormalizeResult,
  NormalizedTables,
} from './types.js';

/** The default merge as one function (no closure per written record). */
const defaultMergeOf = (existing: unknown, incoming: unknown): unknown =>
  Entity.merge(existing as Record<string, unknown>, incoming as Record<string, unknown>);

/** Entity nesting depth from which cycles in the input are tracked (see `Normalizer.path`). */
const DEEP = 32;

/** Reads `table[key]` as data only (never from `Object.prototype`). */
export function ownValue<T>(table: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  if (table === undefined) return undefined;
  const value = table[key];
  return value !== undefined && hasOwn.call(table, key) ? value : undefined;
}

/** What the writer knows about one table during a normalize: its copies (made on first write) and changes. */
interface TableState {
  readonly key: string;
  /** The table before this normalize. */
  readonly base: EntityTable | undefined;
  /** The table as it is now (the base table until the first write copies it). */
  table: EntityTable | undefined;
  meta: { [pk: string]: EntityMeta | undefined } | undefined;
  copied: boolean;
  metaCopied: boolean;
  /** Both tables are prototype-free (or absent): a plain read finds only own records. */
  readonly bare: boolean;
  /** Neither table existed before this normalize: each record in it was written now, with its meta. */
  readonly fresh: boolean;
  /** Records written by this normalize and met again, by pk (see `Normalizer.#holdsAlready`). */
  repeats: Map<string, Repeated> | undefined;
}

/** A record written by this normalize and met again: its fields in order, to compare its next repeats by position. */
interface Repeated {
  readonly record: object;
  readonly fields: readonly string[];
  readonly values: readonly unknown[];
}

function repeatedOf(record: object): Repeated {
  const fields = Object.keys(record);
  const values = new Array<unknown>(fields.length);
  for (let i = 0; i < fields.length; i++) values[i] = (record as Record<string, unknown>)[fields[i] as string];
  return { record, fields, values };
}

/**
 * Whether every field of `incoming` equals the repeated record's, comparing by position; `undefined` when
 * its fields do not come in the record's order.
 */
function sameAsRepeated(seen: Repeated, incoming: Record<string, unknown>): boolean | undefined {
  const fields = seen.fields;
  const values = seen.values;
  let i = 0;
  for (const field in incoming) {
    if (field !== fields[i]) return undefined;
    const value = incoming[field];
    const stored = values[i++];
    if (value !== stored && (typeof value !== 'object' || value === null || !jsonEqual(value, stored))) return false;
  }
  return true;
}

/** Whether `table` has no prototype, so that `table[pk]` can only be an own record (or absent). */
const bare = (table: object | undefined) => table === undefined || Object.getPrototypeOf(table) === null;

/** The record of `pk` in `state`'s table, as it is now. */
function recordOf(state: TableState, pk: string): unknown {
  return state.bare ? state.table?.[pk] : ownValue(state.table, pk);
}

/** The meta of `pk` in `state`'s meta table, as it is now. */
function metaOf(state: TableState, pk: string): EntityMeta | undefined {
  return state.bare ? state.meta?.[pk] : ownValue(state.meta, pk);
}

/**
 * Copy-on-write writer over the entity tables: the first write to a table copies that table (and the
 * root once); everything else keeps its identity. A table in `owned` is seen by no one but the store
 * (no snapshot was handed out since it was made), so it is written in place: a single-record write then
 * costs the same in a table of ten records as in one of ten thousand. Copies are added to `owned`.
 * A normalize that fails undoes its in-place writes (`undo`): a write is all or nothing.
 */
class TableWriter {
  declare entities: EntityTables;
  declare entitiesMeta: EntityMetaTables;
  readonly changed: [key: string, pk: string][] = [];
  readonly #tables = new Map<string, TableState>();
  readonly #owned: WeakSet<object> | undefined;
  #last: TableState | undefined;
  #previous: TableState | undefined;
  #rootCopied = false;
  #metaRootCopied = false;
  /** In-place writes, as (table, pk, the value before) triples, to undo if the normalize fails. */
  readonly #undo: unknown[] = [];

  constructor(state: NormalizedTables, owned: WeakSet<object> | undefined) {
    this.entities = state.entities;
    this.entitiesMeta = state.entitiesMeta;
    this.#owned = owned;
  }

  /** `table` itself when the store owns it, else a copy (owned from now on). */
  #writable<T extends { readonly [key: string]: unknown }>(table: T | undefined): T {
    const owned = this.#owned;
    if (table !== undefined && owned?.has(table)) {
      forgetDerived(table); // its cached pks and indexes are about to go stale
      return table;
    }
    const copy = copyTable(table) as T;
    owned?.add(copy);
    return copy;
  }

  /** Puts back what the in-place writes replaced, latest first: the store's tables are as they were. */
  undo(): void {
    const undo = this.#undo;
    for (let i = undo.length - 3; i >= 0; i -= 3) {
      const table = undo[i] as Record<string, unknown>;
      const pk = undo[i + 1] as string;
      const value = undo[i + 2];
      if (value === undefined) delete table[pk];
      else table[pk] = value;
      forgetDerived(table);
    }
    undo.length = 0;
  }

  /** The state of table `key` (the last two at hand: writes mostly alternate between a record and a nested one). */
  state(key: string): TableState {
    const last = this.#last;
    if (last !== undefined && last.key === key) return last;
    const previous = this.#previous;
    this.#previous = last;
    if (previous !== undefined && previous.key === key) return (this.#last = previous);
    let state = this.#tables.get(key);
    if (!state) {
      const base = ownValue(this.entities, key);
      const meta = ownValue(this.entitiesMeta, key);
      state = {
        key,
        base,
        table: base,
        meta,
        copied: false,
        metaCopied: false,
        bare: bare(base) && bare(meta),
        fresh: base === undefined && meta === undefined,
        repeats: undefined,
      };
      this.#tables.set(key, state);
    }
    this.#last = state;
    return state;
  }

  get(key: string, pk: string): unknown {
    return recordOf(this.state(key), pk);
  }

  pks(key: string): string[] {
    const table = this.state(key).table;
    return table ? Object.keys(table) : [];
  }

  /** Stores `value` (not the current record) under `pk` in `state`'s table, with `meta`. */
  set(state: TableState, pk: string, current: unknown, value: unknown, meta: EntityMeta): void {
    if (value !== current) {
      // reported on the first write (when the record is still the base table's), not on later ones; a
      // table written in place is its own base, so a record written twice there is listed twice (stored at
      // the end: a push is a call into the engine)
      if (current === undefined || current === ownValue(state.base, pk))
        this.changed[this.changed.length] = [state.key, pk];
      if (!state.copied) {
        if (!this.#rootCopied) {
          this.entities = copyTable(this.entities);
          this.#rootCopied = true;
        }
        state.table = this.entities[state.key] = this.#writable(state.table);
        state.copied = true;
      }
      this.#write(state.table as EntityTable, pk, value);
    }
    if (!state.metaCopied) {
      if (!this.#metaRootCopied) {
        this.entitiesMeta = copyTable(this.entitiesMeta);
        this.#metaRootCopied = true;
      }
      state.meta = this.entitiesMeta[state.key] = this.#writable(state.meta);
      state.metaCopied = true;
    }
    this.#write(state.meta as EntityTable, pk, meta);
  }

  /**
   * `table[pk] = value` (the table is a copy or the store's own, prototype-free either way); for the
   * store (`owned`), what it held is kept to undo (in a copy that is harmless: the copy is dropped).
   */
  #write(table: EntityTable, pk: string, value: unknown): void {
    if (this.#owned) {
      const undo = this.#undo;
      const at = undo.length; // stored at the end: a push is a call into the engine
      undo[at] = table;
      undo[at + 1] = pk;
      undo[at + 2] = table[pk];
    }
    table[pk] = value;
  }
}

class Normalizer implements NormalizeContext {
  declare readonly args: readonly unknown[];
  declare readonly meta: EntityMeta;
  declare readonly writer: TableWriter;
  /** Entities' `static validator`s run (not for an optimistic layer: the expected response is the app's own guess). */
  declare readonly validates: boolean;
  /**
   * Entities on the current path past DEEP levels: a cyclic input recurses forever, so it is bound to
   * pass that depth and meet itself there; JSON input (acyclic) rarely gets that deep, and pays nothing.
   */
  readonly #path = new Set<object>();
  /** How many entities enclose the current value: `#entityKeys` and `#entityPks` hold them up to this index. */
  #depth = 0;
  readonly #entityKeys: string[] = [];
  readonly #entityPks: string[] = [];
  /** A whole list of the input was not written: a newer one is stored (see `writeList`). */
  keptNewerList = false;

  constructor(
    state: NormalizedTables,
    args: readonly unknown[],
    meta: EntityMeta,
    owned?: WeakSet<object>,
    validates = true,
  ) {
    this.writer = new TableWriter(state, owned);
    this.args = args;
    this.meta = meta;
    this.validates = validates;
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
    if (existingMeta !== undefined && this.meta.fetchedAt < existingMeta.fetchedAt) return; // an older change is not written
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

  /** Writes `incoming` at `pk` over `existing`, the record stored there now. */
  #writeIn(
    state: TableState,
    pk: string,
    existing: unknown,
    incoming: unknown,
    merge: ((existing: unknown, incoming: unknown) => unknown) | undefined,
  ): void {
    const existingMeta = this.#metaOf(state, pk, existing);
    const newer = existingMeta === undefined || this.meta.fetchedAt >= existingMeta.fetchedAt;
    if (existing === undefined) {
      // a new record: nothing to merge with or to share
      if (newer) this.writer.set(state, pk, undefined, incoming, this.meta);
      return;
    }
    let next: unknown;
    if (existing === INVALID || incoming === INVALID || !merge) {
      if (!newer) return; // a response to an older request never overwrites a newer write
      next = incoming;
    } else {
      next = newer ? merge(existing, incoming) : merge(incoming, existing);
    }
    next = shareUnchanged(next, existing);
    this.writer.set(state, pk, existing, next, newer || existingMeta === undefined ? this.meta : existingMeta);
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
    } else if (meta === undefined || this.meta.fetchedAt > meta.fetchedAt) {
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
    const writes = field.writes === undefined ? (field.writes = writesOf(field.schema)) : field.writes;
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
        `expected an object but got ${describeKind(input)}. Use [${plan.key}] (or new schema.Array(${plan.key})) ` +
        `for a list, or a static process() that turns it into an object.`;
      if (plan.automaticValidation !== 'warn') throw new NormalizeError(plan.key, message, input);
      console.warn(`${plan.key}: ${message} (static automaticValidation = 'silent' turns this warning off)`);
    }
    const tracked = this.#depth >= DEEP;
    if (tracked) {
      if (this.#path.has(input)) {
        throw new NormalizeError(
          plan.key,
          'the input contains a cycle: an object refers back to one of its ancestors.',
          input,
        );
      }
      this.#path.add(input);
    }
    const args = this.args;
    // With the default process (a shallow copy), pk and equality can be read off the input itself:
    // a leaf entity that the store already holds unchanged costs no copy at all.
    let processed = (customProcess ? Cls.process(input, parent, fieldKey, args) : input) as Record<string, unknown>;
    if (customProcess && (typeof processed !== 'object' || processed === null || Array.isArray(processed))) {
      throw new NormalizeError(
        plan.key,
        `process() must return an object, but it returned ${describeKind(processed)} for ${preview(input)}.`,
        input,
      );
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
          "static validator answered with a Promise: it must be synchronous (async checks go in the endpoint's responseSchema)",
          input,
        );
      }
      // the validator's output is stored: a copy of it, ours to change (the input stays the caller's)
      if (output !== processed) processed = { ...(output as object) } as Record<string, unknown>;
    }
    const rawPk = plan.defaultPk
      ? plan.pkMethod.call(processed, parent, fieldKey, args)
      : Cls.pk(processed, parent, fieldKey, args);
    const pk = typeof rawPk === 'string' && plainPk(rawPk) ? rawPk : usablePk(plan.key, rawPk ?? undefined, input);
    assertPkFields(Cls, plan, processed, input, args, parent, fieldKey);
    if (plan.validate) {
      const message = plan.validate(processed);
      if (message) throw new NormalizeError(plan.key, `validate() rejected ${preview(input)}: ${message}`, input);
    }
    const defaultMerge = plan.defaultMerge;
    const state = this.writer.state(plan.key);
    const schemaFields = plan.schemaFields;
    let existing: unknown;
    if (schemaFields.length === 0) {
      existing = recordOf(state, pk);
      if (defaultMerge && this.#holdsAlready(state, pk, existing, processed)) {
        if (tracked) this.#path.delete(input);
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
        if (tracked) this.#path.delete(input);
        return pk;
      }
    }
    if (tracked) this.#path.delete(input);
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
        ? defaultMergeOf
        : (existing, incoming) => Cls.merge(existing as Record<string, unknown>, incoming as Record<string, unknown>),
    );
    return pk;
  }
}

/** What `Normalizer.#visitField` needs of a field's schema (see `SchemaFieldPlan.writes`). */
function writesOf(schema: unknown): Exclude<SchemaFieldPlan['writes'], undefined> {
  const plan = planOf(schema);
  if (plan) return { Cls: schema as typeof Entity, plan, list: false };
  const item = Array.isArray(schema) && schema.length === 1 ? (schema[0] as unknown) : undefined;
  const itemPlan = planOf(item);
  return itemPlan ? { Cls: item as typeof Entity, plan: itemPlan, list: true } : null;
}

/**
 * A nested entity given as its pk (`author: 23`, `todos: ['5', '6']`) is kept as that reference; `false`
 * and `''` stand for "no entity" and pass through. Anything else cannot name an entity.
 */
function referenceTo(plan: EntityPlan, input: unknown): unknown {
  if (input === false || input === '') return input;
  if ((typeof input === 'string' && plainPk(input)) || (typeof input === 'number' && Number.isFinite(input))) {
    return String(input);
  }
  throw new NormalizeError(
    plan.key,
    `expected an object or a pk (a string or a finite number) but got ${describeKind(input)}.`,
    input,
  );
}

/** The pk of a record a validator refused, if `pk()` can make one of it (for the error's message). */
function pkOf(
  Cls: typeof Entity,
  record: object,
  parent: unknown,
  key: string | undefined,
  args: readonly unknown[],
): string | undefined {
  try {
    return Cls.pk(record, parent, key, args);
  } catch {
    return undefined;
  }
}

/** Whether `field` is one of the plan's nested-schema fields (a scan: they are few, and their names are interned). */
function isSchemaField(plan: EntityPlan, field: string): boolean {
  const fields = plan.schemaFields;
  for (let i = 0; i < fields.length; i++) if ((fields[i] as SchemaFieldPlan).name === field) return true;
  return false;
}

/** Plain (non-schema) values must be trees too: the store has to survive JSON.stringify. */
function checkPlainFields(plan: EntityPlan, processed: Record<string, unknown>): void {
  for (const field in processed) {
    const value = processed[field];
    if (typeof value === 'object' && value !== null && !isSchemaField(plan, field) && hasCycle(value)) {
      throw new NormalizeError(
        plan.key,
        'the input contains a cycle: a field refers back to an object that contains it.',
        value,
      );
    }
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
      if (
        typeof value === 'object' &&
        value !== null &&
        hasOwn.call(existing, key) &&
        jsonEqual(value, existing[key])
      ) {
        next[key] = existing[key];
      }
    }
  }
  return next;
}

/** Whether `error` is the engine's stack overflow (an input nested tens of thousands of levels deep). */
export function tooDeep(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** The idle Normalizer kept for V8's sake (see shapeKeeper.ts). */
let shapeKeeper: Normalizer | undefined;

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
  return normalizeInto<R>(schema, input, args, state, meta, undefined);
}

/**
 * `normalize` for the store: tables in `owned` are written in place (see `TableWriter`), the
 * roots are always new objects. `validates: false` skips the entities' validators (an optimistic layer).
 */
export function normalizeInto<R = unknown>(
  schema: unknown,
  input: unknown,
  args: readonly unknown[],
  state: NormalizedTables,
  meta: Partial<EntityMeta> | undefined,
  owned: WeakSet<object> | undefined,
  validates = true,
): NormalizeResult<R> {
  shapeKeeper ??= keepShape(new Normalizer(emptyTables(), [], { date: 0, fetchedAt: 0, expiresAt: 0 }));
  const now = Date.now();
  const date = meta?.date ?? now;
  const fullMeta: EntityMeta = { date, fetchedAt: meta?.fetchedAt ?? date, expiresAt: meta?.expiresAt ?? date };
  const normalizer = new Normalizer(state, args, fullMeta, owned, validates);
  let result: R;
  try {
    // at the top level the input is its own parent (as in data-client): pk(parent), process(input, parent)
    // and a polymorphic attribute (value, parent) see it
    result = normalizer.visit(schema, input, input, undefined) as R;
  } catch (error) {
    normalizer.writer.undo(); // all or nothing: the store's own tables are put back as they were
    throw tooDeep(error)
      ? new NormalizeError(
          schemaLabel(schema),
          'the input is nested too deeply to normalize (the stack ran out).',
          input,
        )
      : error;
  }
  const { entities, entitiesMeta, changed } = normalizer.writer;
  return { result, entities, entitiesMeta, changed, keptNewerList: normalizer.keptNewerList };
}
