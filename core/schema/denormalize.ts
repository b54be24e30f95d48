import { DeserializeError, NormalizeError } from '../errors.js';
import { tablePks } from './tableDerived.js';
import type { Entity } from './Entity.js';
import { planOf, type EntityPlan } from './entityPlan.js';
import { denormalizeList } from './Array.js';
import { denormalizeMembers } from './Object.js';
import { ownValue, tooDeep } from './normalize.js';
import { SchemaNode, type DenormalizeContext, type TableSchema } from './SchemaNode.js';
import { arrayItemSchema, schemaLabel } from './schemaKind.js';
import { assignField, emptyTable, hasOwn, isPlainObject } from './safeObject.js';
import { keepShape } from './shapeKeeper.js';
import { INVALID } from './special.js';
import type { Denormalize, EntityTables } from './types.js';

/**
 * The records read while building a value, flat: `[schema, key, pk, value, schema, key, pk, value, ...]`
 * (one array per node instead of an object per read). Re-reading each must give the same value for the
 * built value to stay valid.
 */
type Dependencies = readonly unknown[];
const STRIDE = 4;
const NO_DEPS: Dependencies = Object.freeze([]);
const NO_TABLES = Object.freeze(emptyTable()) as EntityTables;

/** The memo of one stored record: the value built from it and the records that value read. */
interface RecordNode {
  readonly schema: unknown;
  /** The record the value was built from (a node stands for its record only while the table holds it). */
  readonly record: object;
  value: unknown;
  /** `undefined` forces a rebuild. */
  deps: Dependencies | undefined;
  /** The pass that resolved it last: its number once built or validated (or while building), minus it while validating. */
  pass: number;
}

/** A new node map of the nodes in `nodes` whose records `table` still holds (the same objects). */
function nodesStillIn(table: EntityTables[string], nodes: Map<string, RecordNode>): Map<string, RecordNode> {
  const kept = new Map<string, RecordNode>();
  for (const [pk, node] of nodes) if (ownValue(table, pk) === node.record) kept.set(pk, node);
  return kept;
}

interface StableEntry {
  readonly shape: string;
  readonly parts: readonly unknown[];
  readonly value: unknown;
}

/** What a memoized read returns: the data, or `invalid` when a required entity is missing or INVALID. */
export interface DenormalizeResult<T> {
  readonly data: T | undefined;
  readonly invalid: boolean;
  /**
   * Every record the read depended on (`key + '\u0000' + pk`), including missing ones it looked for:
   * a write to any other record cannot change this result.
   */
  readonly paths: ReadonlySet<string>;
}

interface ResultEntry {
  readonly entities: EntityTables;
  readonly result: ReadResult;
  /** The records the result read directly (its `paths` follow them through the memo's nodes). */
  readonly roots: Dependencies;
}

/** Whether two dependency lists read the same records in the same order (their values aside). */
function sameRecords(a: Dependencies, b: Dependencies): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += STRIDE) {
    if (a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) return false;
  }
  return true;
}

function sameParts(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A read's result (a class, so that every result has one shape and `paths` is a prototype getter). */
class ReadResult implements DenormalizeResult<unknown> {
  declare readonly data: unknown;
  declare readonly invalid: boolean;
  #paths: ReadonlySet<string> | undefined;
  readonly #memo: MemoCache;
  readonly #roots: Dependencies;
  readonly #entities: EntityTables;

  constructor(
    value: unknown,
    paths: ReadonlySet<string> | undefined,
    memo: MemoCache,
    roots: Dependencies,
    entities: EntityTables,
  ) {
    this.data = value === INVALID ? undefined : value;
    this.invalid = value === INVALID;
    this.#paths = paths;
    this.#memo = memo;
    this.#roots = roots;
    this.#entities = entities;
  }

  /** Computed on first use (unless the previous read's still hold): a plain read never pays for it. */
  /** The paths if they have been computed (or handed over), without computing them. */
  get knownPaths(): ReadonlySet<string> | undefined {
    return this.#paths;
  }

  get paths(): ReadonlySet<string> {
    return (this.#paths ??= this.#memo.pathsOf(this.#roots, this.#entities));
  }
}

/**
 * Keeps denormalized values referentially stable across reads: an entity whose stored record and nested
 * entities are unchanged comes back as the same instance, a list or object whose members are unchanged
 * as the same object, and reading the same result from the same tables costs O(1). What it keeps of a
 * table goes with the table (besides the last version read of each table, until a newer one is read), so
 * dropped records and states are collected.
 *
 * @example
 * const memo = new MemoCache();
 * const first = memo.denormalize([Todo], result, state.entities).data;
 * memo.denormalize([Todo], result, state.entities).data === first; // true
 */
export class MemoCache {
  /**
   * @internal The nodes of each table's records by pk (of an inline entity, by the object: pk ''), held as
   * long as the table is. Not one `WeakMap` entry
   * per record: V8 makes those costly to insert and to collect (a first read of 3,000 records spent more time
   * on them than on building the instances).
   */
  readonly tables = new WeakMap<object, Map<string, RecordNode>>();
  /** @internal The node map made last for each table key: a new version of the table starts from its nodes. */
  readonly latest = new Map<string, Map<string, RecordNode>>();
  /** @internal */ readonly stableByInput = new WeakMap<object, StableEntry>();
  /** @internal Entities read past the depth limit, by record. */ readonly shallow = new WeakMap<object, object>();
  #objectResults = new WeakMap<object, Map<unknown, ResultEntry>>();
  #pkResults = new WeakMap<object, Map<string, ResultEntry>>();
  #passes = 0;
  /** The pass of the last read, kept for the next one. */
  #idle: ReadPass | undefined;

  /**
   * @internal Lets go of what the memo holds beyond the tables it was given: the last result read per schema
   * and input (each holds the tables it was read from), and of the last version read of each table either
   * all (no `entities`: a reset) or the records `entities` no longer holds (a garbage collection: the others
   * keep their instances when a newer version of their table is read). So nothing of dropped data stays
   * reachable from the memo.
   */
  forget(entities?: EntityTables): void {
    this.#objectResults = new WeakMap();
    this.#pkResults = new WeakMap();
    if (entities === undefined) {
      this.latest.clear();
      return;
    }
    for (const [key, nodes] of this.latest) {
      const table = ownValue(entities, key);
      if (table === undefined) {
        this.latest.delete(key);
        continue;
      }
      // a new map: the one given is still the node map of its own (older) table version
      this.latest.set(key, nodesStillIn(table, nodes));
    }
  }

  /** Reads `input` (a normalized result of `schema`) from `entities`. */
  denormalize<S>(
    schema: S,
    input: unknown,
    entities: EntityTables,
    args: readonly unknown[] = [],
  ): DenormalizeResult<Denormalize<S>> {
    keepShapes();
    const cached = this.#cachedResult(schema, input);
    if (cached?.entities === entities) return cached.result as DenormalizeResult<Denormalize<S>>;
    let value: unknown;
    let roots: Dependencies;
    let reshaped: boolean;
    // the last read's pass, unless a read is running (a deserializer that reads gets a pass of its own)
    const pass = this.#idle ?? new ReadPass(this);
    this.#idle = undefined;
    try {
      for (;;) {
        pass.start(++this.#passes, entities, args);
        value = pass.unvisit(schema, input);
        if (pass.settled()) break;
      }
      roots = pass.rootDeps();
      reshaped = pass.reshaped;
    } catch (error) {
      if (!tooDeep(error)) throw error;
      throw new NormalizeError(
        schemaLabel(schema),
        'the stored data is nested too deeply to read (the stack ran out).',
        input,
      );
    } finally {
      pass.end();
      this.#idle = pass;
    }
    // when no record read gained or lost a dependency, the previous read's paths are still exact
    const paths = cached && !reshaped && sameRecords(cached.roots, roots) ? cached.result.knownPaths : undefined;
    const result = new ReadResult(value, paths, this, roots, entities);
    this.#storeResult(schema, input, { entities, result, roots });
    return result as DenormalizeResult<Denormalize<S>>;
  }

  /** @internal The transitive records read from `roots`, following the memo's nodes. */
  pathsOf(roots: Dependencies, entities: EntityTables): Set<string> {
    const paths = new Set<string>();
    const seen = new Set<object>();
    const pending: Dependencies[] = [roots];
    for (let deps = pending.pop(); deps !== undefined; deps = pending.pop()) {
      for (let i = 0; i < deps.length; i += STRIDE) {
        const key = deps[i + 1] as string;
        const pk = deps[i + 2] as string;
        paths.add(`${key}\u0000${pk}`);
        const table = ownValue(entities, key);
        const record = ownValue(table, pk);
        if (typeof record !== 'object' || record === null || seen.has(record)) continue;
        seen.add(record);
        const node = this.tables.get(table as object)?.get(pk);
        const children = node?.record === record ? node.deps : undefined;
        if (children && children.length) pending.push(children);
      }
    }
    return paths;
  }

  #cachedResult(schema: unknown, input: unknown): ResultEntry | undefined {
    if (typeof input === 'object' && input !== null) return this.#objectResults.get(input)?.get(schema);
    if (
      (typeof input === 'string' || typeof input === 'number') &&
      (typeof schema === 'object' || typeof schema === 'function') &&
      schema !== null
    ) {
      return this.#pkResults.get(schema)?.get(String(input));
    }
    return undefined;
  }

  #storeResult(schema: unknown, input: unknown, entry: ResultEntry): void {
    if (typeof input === 'object' && input !== null) {
      let bySchema = this.#objectResults.get(input);
      if (!bySchema) this.#objectResults.set(input, (bySchema = new Map()));
      bySchema.set(schema, entry);
    } else if (
      (typeof input === 'string' || typeof input === 'number') &&
      (typeof schema === 'object' || typeof schema === 'function') &&
      schema !== null
    ) {
      let byPk = this.#pkResults.get(schema);
      if (!byPk) this.#pkResults.set(schema, (byPk = new Map()));
      byPk.set(String(input), entry);
    }
  }
}

/** Whether an idle instance of each class a read creates is kept for V8's sake (see shapeKeeper.ts). */
let shapesKept = false;

function keepShapes(): void {
  if (shapesKept) return;
  shapesKept = true;
  const memo = keepShape(new MemoCache());
  keepShape(new ReadPass(memo));
  keepShape(new ReadResult(undefined, undefined, memo, [], emptyTable()));
}

/**
 * One read over fixed tables. Each stored record is resolved at most once per pass: its node is either
 * validated (same record, and every record it read still gives the same value) or rebuilt.
 */
class ReadPass implements DenormalizeContext {
  /**
   * Whether a record built in this pass read other records than its previous build did (or has no
   * previous build to compare with): then the set of paths must be computed anew.
   */
  reshaped = false;
  /**
   * The dependencies being recorded, of every node being built, one after the other: a nested build
   * finishes (and takes its part off the end) before its parent records it, so each node's list is
   * copied out once at its exact length instead of growing an array of its own.
   */
  readonly #recorded: unknown[] = [];
  /** The end of the recording in `#recorded` (slots past it are left to be overwritten, not cut off). */
  #top = 0;
  /** How far this read's recording reached (`end` clears up to there). */
  #high = 0;
  /** Where the recording of each node being built starts in `#recorded` (-1: not recording, validating). */
  readonly #starts: number[] = [0];
  /** Nodes reached again while being validated (a cycle): their old value was handed out on trust. */
  readonly #presumed: { node: RecordNode; value: unknown }[] = [];
  /**
   * Nodes resolved since the first value was handed out on trust: only they can have seen one (a node
   * is resolved once per pass, and one reached while validating is presumed before its reader finishes).
   */
  readonly #finished: RecordNode[] = [];
  /** Nodes being built, innermost last: `register` hands out the innermost one's value early (cycles). */
  readonly #building: RecordNode[] = [];
  readonly #register = (value: unknown): void => {
    (this.#building[this.#building.length - 1] as RecordNode).value = value;
  };

  /**
   * The tables this read has used: `[key, table, node map, key, ...]` (a few: a scan beats a lookup), up
   * to `#used`; the slots past it are cleared and kept for the next read.
   */
  readonly #slots: unknown[] = [];
  #used = 0;

  /** Records being resolved (built or validated) on the stack: past an entity's maxEntityDepth, it reads shallow. */
  #depth = 0;
  readonly #memo: MemoCache;
  #id = 0;
  #entities: EntityTables = NO_TABLES;
  args: readonly unknown[] = NO_DEPS;

  constructor(memo: MemoCache) {
    this.#memo = memo;
  }

  /** Starts pass number `id` over `entities`, dropping what a pass before it left (thrown, or not settled). */
  start(id: number, entities: EntityTables, args: readonly unknown[]): void {
    this.#id = id;
    if (entities !== this.#entities) this.#forgetTables();
    this.#entities = entities;
    this.args = args;
    this.reshaped = false;
    this.#top = 0;
    this.#depth = 0;
    // setting an array's length is a call into the engine: only when there is something to drop
    if (this.#starts.length !== 1) this.#starts.length = 1;
    if (this.#presumed.length !== 0) this.#presumed.length = 0;
    if (this.#finished.length !== 0) this.#finished.length = 0;
    if (this.#building.length !== 0) this.#building.length = 0;
  }

  /** The read is over: the pass keeps nothing of it. */
  end(): void {
    this.#recorded.fill(undefined, 0, Math.max(this.#top, this.#high));
    this.#high = 0;
    this.start(0, NO_TABLES, NO_DEPS);
  }

  #forgetTables(): void {
    this.#slots.fill(undefined, 0, this.#used);
    this.#used = 0;
  }

  unvisit(schema: unknown, input: unknown): unknown {
    if (input === null || input === undefined) return input;
    const plan = planOf(schema);
    if (plan) {
      if (typeof input === 'string' || typeof input === 'number') {
        const pk = typeof input === 'string' ? input : String(input);
        if (this.#depth >= plan.maxEntityDepth) return this.#shallowRecord(schema as typeof Entity, plan, pk);
        return this.unvisitRecord(schema as typeof Entity, plan.key, pk, plan);
      }
      return this.#inline(schema as typeof Entity, plan, input);
    }
    if (schema instanceof SchemaNode) return schema.denormalize(input, this);
    if (Array.isArray(schema)) return denormalizeList(arrayItemSchema(schema), input, this);
    if (isPlainObject(schema)) return denormalizeMembers(schema, input, this);
    return input;
  }

  /**
   * An entity given inline where its pk was expected (an already denormalized value, or data written
   * around the normalizer): read from the object itself, not from the table. `false`/`''` mean no entity.
   */
  #inline(schema: typeof Entity, plan: EntityPlan, input: unknown): unknown {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
    if (input instanceof schema) return input;
    const tables = this.#memo.tables;
    let nodes = tables.get(input);
    if (nodes === undefined) tables.set(input, (nodes = new Map()));
    return this.#resolve(schema, input, plan, nodes, '');
  }

  /**
   * The entity `pk` past the depth limit: its own fields and deserializers, nested schema fields left as
   * stored (pks). Kept per record, so that repeated reads give the same object.
   */
  #shallowRecord(schema: typeof Entity, plan: EntityPlan, pk: string): unknown {
    const record = ownValue(ownValue(this.#entities, plan.key), pk);
    let value: unknown = INVALID;
    if (typeof record === 'object' && record !== null) {
      const shallow = this.#memo.shallow;
      value = shallow.get(record);
      if (value === undefined) {
        value = shallowEntity(plan, record as Record<string, unknown>);
        shallow.set(record, value as object);
      }
    }
    this.#record(shallowMarker(schema), plan.key, pk, value);
    return value;
  }

  /** `plan`: the schema's plan if known (else found when the record is built). */
  unvisitRecord(schema: TableSchema | Function, key: string, pk: string, plan?: EntityPlan): unknown {
    const slot = this.#slotOf(key);
    const record = slot < 0 ? undefined : ownValue(this.#slots[slot + 1] as EntityTables[string], pk);
    const value =
      typeof record === 'object' && record !== null
        ? this.#resolve(
            schema as TableSchema | typeof Entity,
            record,
            plan,
            this.#slots[slot + 2] as Map<string, RecordNode>,
            pk,
          )
        : INVALID;
    this.#record(schema, key, pk, value);
    return value;
  }

  /**
   * Where table `key` is in `#slots` (added on first use); -1 when there is no such table. A table the memo
   * has not seen yet (a new version of it) takes over the nodes of the previous version's records it still holds.
   */
  #slotOf(key: string): number {
    const slots = this.#slots;
    const used = this.#used;
    for (let i = 0; i < used; i += 3) if (slots[i] === key) return i;
    const table = ownValue(this.#entities, key);
    if (table === undefined) return -1;
    const memo = this.#memo;
    let nodes = memo.tables.get(table);
    if (nodes === undefined) {
      const previous = memo.latest.get(key);
      nodes = previous ? nodesStillIn(table, previous) : new Map<string, RecordNode>();
      memo.tables.set(table, nodes);
      memo.latest.set(key, nodes);
    }
    slots[used] = key;
    slots[used + 1] = table;
    slots[used + 2] = nodes;
    this.#used = used + 3;
    return used;
  }

  tablePks(key: string): readonly string[] | undefined {
    const table = ownValue(this.#entities, key);
    if (table === undefined) return undefined;
    let pks = tablePks.get(table);
    if (!pks) tablePks.set(table, (pks = Object.keys(table)));
    return pks;
  }

  /** The records read directly by the top-level result (not through another record), once it is read. */
  rootDeps(): Dependencies {
    return this.#take(0);
  }

  /** Records a read of `key`/`pk` that gave `value`, unless validating. */
  #record(schema: unknown, key: string, pk: string, value: unknown): void {
    if ((this.#starts[this.#starts.length - 1] as number) < 0) return;
    const recorded = this.#recorded;
    const top = this.#top;
    recorded[top] = schema;
    recorded[top + 1] = key;
    recorded[top + 2] = pk;
    recorded[top + 3] = value;
    this.#top = top + STRIDE;
  }

  /** The dependencies recorded from `start` on, taken off the recording. */
  #take(start: number): Dependencies {
    const top = this.#top;
    if (top === start) return NO_DEPS;
    if (top > this.#high) this.#high = top;
    this.#top = start;
    return this.#recorded.slice(start, top);
  }

  stable<T>(input: object, shape: string, parts: readonly unknown[], build: () => T): T {
    const entry = this.#memo.stableByInput.get(input);
    if (entry && entry.shape === shape && sameParts(entry.parts, parts)) return entry.value as T;
    const value = build();
    this.#memo.stableByInput.set(input, { shape, parts, value });
    return value;
  }

  /** True when every value handed out on trust turned out right; otherwise marks what to rebuild. */
  settled(): boolean {
    if (this.#presumed.length === 0 || this.#presumed.every(({ node, value }) => node.value === value)) return true;
    // A node handed out on trust then rebuilt: rebuild it from scratch next pass (while building, it
    // hands out its new value to the cycle), along with everything that saw a value that changed.
    for (const { node, value } of this.#presumed) if (node.value !== value) node.deps = undefined;
    for (const node of this.#finished) {
      const deps = node.deps;
      if (!deps) continue;
      for (let i = 0; i < deps.length; i += STRIDE) {
        if (this.#currentValue(deps[i + 1] as string, deps[i + 2] as string) !== deps[i + 3]) {
          node.deps = undefined;
          break;
        }
      }
    }
    return false;
  }

  #currentValue(key: string, pk: string): unknown {
    const slot = this.#slotOf(key);
    const record = slot < 0 ? undefined : ownValue(this.#slots[slot + 1] as EntityTables[string], pk);
    if (typeof record !== 'object' || record === null) return INVALID;
    const node = (this.#slots[slot + 2] as Map<string, RecordNode>).get(pk);
    return node !== undefined && node.record === record ? node.value : undefined;
  }

  /** Validates or builds the node of `record`, the one at `pk` in `nodes`. */
  #resolve(
    schema: TableSchema | typeof Entity,
    record: object,
    plan: EntityPlan | undefined,
    nodes: Map<string, RecordNode>,
    pk: string,
  ): unknown {
    let node = nodes.get(pk);
    if (node !== undefined && node.record === record && node.schema === schema) {
      const id = this.#id;
      if (node.pass === id || node.pass === -id) {
        if (node.pass !== id) this.#presumed.push({ node, value: node.value });
        return node.value;
      }
      if (node.deps && this.#stillValid(node, node.deps)) {
        node.pass = id;
        if (this.#presumed.length !== 0) this.#finished.push(node);
        return node.value;
      }
    } else {
      node = { schema, record, value: undefined, deps: undefined, pass: 0 };
      nodes.set(pk, node);
    }
    const built = node;
    const before = built.deps;
    built.pass = this.#id;
    built.deps = undefined;
    const entityPlan = plan ?? planOf(schema);
    const start = this.#top;
    this.#starts.push(start);
    this.#building.push(built);
    this.#depth++;
    try {
      built.value = entityPlan
        ? buildEntity(entityPlan, record as Record<string, unknown>, this, this.#register)
        : (schema as TableSchema).build(record, this, this.#register);
    } catch (error) {
      this.#top = start;
      built.pass = 0;
      throw error;
    } finally {
      this.#depth--;
      this.#starts.pop();
      this.#building.pop();
    }
    built.deps = this.#take(start);
    if (!this.reshaped && built.deps.length > 0 && (before === undefined || !sameRecords(before, built.deps)))
      this.reshaped = true;
    if (this.#presumed.length !== 0) this.#finished.push(built);
    return built.value;
  }

  #stillValid(node: RecordNode, deps: Dependencies): boolean {
    node.pass = -this.#id;
    this.#starts.push(-1);
    this.#depth++;
    try {
      for (let i = 0; i < deps.length; i += STRIDE) {
        const schema = deps[i];
        const value =
          typeof schema !== 'function' && schema instanceof ShallowMarker
            ? this.#shallowRecord(schema.schema, planOf(schema.schema) as EntityPlan, deps[i + 2] as string)
            : this.unvisitRecord(schema as TableSchema, deps[i + 1] as string, deps[i + 2] as string);
        if (value !== deps[i + 3]) return false;
      }
      return true;
    } finally {
      this.#depth--;
      this.#starts.pop();
    }
  }
}

/** Marks a dependency read shallow (past the depth limit), so that validating it reads it shallow again. */
class ShallowMarker {
  declare readonly schema: typeof Entity;
  constructor(schema: typeof Entity) {
    this.schema = schema;
  }
}

const shallowMarkers = new WeakMap<Function, ShallowMarker>();

function shallowMarker(schema: typeof Entity): ShallowMarker {
  let marker = shallowMarkers.get(schema);
  if (!marker) shallowMarkers.set(schema, (marker = new ShallowMarker(schema)));
  return marker;
}

/** An entity's own fields and deserialized values, its nested schema fields left as stored. */
function shallowEntity(plan: EntityPlan, record: Record<string, unknown>): object {
  return fillFields(plan, new plan.make(), record);
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

/**
 * Builds an Entity instance from its stored record: class defaults, then the stored fields, then
 * deserializers (skipping null/undefined), then nested schemas. A required nested entity that is INVALID
 * or missing makes the whole entity INVALID; an optional one becomes `undefined`.
 */
function buildEntity(
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
 * Reads a normalized `result` of `schema` back from `state.entities` as Entity instances. Returns
 * `undefined` when a required entity is missing or INVALID. For referential stability across reads, keep
 * a `MemoCache` and call its `denormalize`.
 *
 * @example
 * const todos = denormalize([Todo], ['1', '2'], state); // Todo[]
 */
export function denormalize<S>(
  schema: S,
  result: unknown,
  state: { readonly entities: EntityTables },
  args: readonly unknown[] = [],
): Denormalize<S> | undefined {
  return new MemoCache().denormalize(schema, result, state.entities, args).data;
}
