import type { Entity } from '../Entity.js';
import { planOf, type EntityPlan } from '../entityPlan.js';
import { denormalizeList } from '../ArraySchema.js';
import { denormalizeMembers } from '../ObjectSchema.js';
import { ownValue } from '../safeObject.js';
import { SchemaNode, type DenormalizeContext, type TableSchema } from '../SchemaNode.js';
import { arrayItemSchema } from '../schemaKind.js';
import { emptyTable, isPlainObject } from '../safeObject.js';
import { INVALID } from '../special.js';
import { tablePks } from '../tableDerived.js';
import type { EntityTables } from '../types.js';
import { buildEntity, shallowEntity, shallowMarker, ShallowMarker } from './buildEntity.js';
import {
  NO_DEPS,
  STRIDE,
  nodesStillIn,
  sameParts,
  sameRecords,
  type Dependencies,
  type RecordNode,
} from './dependencies.js';
import type { MemoCache } from './MemoCache.js';
import type { Readers, Trust } from './Readers.js';
import { versionOf } from '../writeSteps.js';

const NO_TABLES = Object.freeze(emptyTable()) as EntityTables;

/**
 * One read over fixed tables. Each stored record is resolved at most once per pass: its node is either
 * validated (same record, and every record it read still gives the same value) or rebuilt.
 */
export class ReadPass implements DenormalizeContext {
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
  /** The readers index of the memo, when it keeps one: every node this pass builds or validates is listed in it. */
  #readers: Readers | undefined = undefined;
  /** The version of the tables read (while there is an index): nodes found valid in it are trusted. */
  #version = 0;
  /** The version of the tables the last read was made from, when this read follows one write after it. */
  #trustFrom = 0;
  /** The dirty mark of the nodes that write may have changed. */
  #mark = 0;
  #entities: EntityTables = NO_TABLES;
  args: readonly unknown[] = NO_DEPS;

  constructor(memo: MemoCache) {
    this.#memo = memo;
  }

  /** Starts pass number `id` over `entities`, dropping what a pass before it left (thrown, or not settled). */
  start(id: number, entities: EntityTables, args: readonly unknown[], trust?: Trust): void {
    this.#id = id;
    const readers = trust?.readers;
    this.#readers = readers;
    this.#version = readers === undefined ? 0 : versionOf(entities);
    this.#trustFrom = trust?.from ?? 0;
    this.#mark = trust?.mark ?? 0;
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
    return this.#resolve(schema, input, plan, nodes, '', '');
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
            key,
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

  /** Validates or builds the node of `record`, the one at `pk` in `nodes` (of table `key`). */
  #resolve(
    schema: TableSchema | typeof Entity,
    record: object,
    plan: EntityPlan | undefined,
    nodes: Map<string, RecordNode>,
    key: string,
    pk: string,
  ): unknown {
    let node = nodes.get(pk);
    const readers = this.#readers;
    if (node !== undefined && node.record === record && node.schema === schema) {
      const id = this.#id;
      if (node.pass === id || node.pass === -id) {
        if (node.pass !== id) this.#presumed.push({ node, value: node.value });
        return node.value;
      }
      if (node.deps && ((readers !== undefined && this.#trusted(node, readers)) || this.#stillValid(node, node.deps))) {
        node.pass = id;
        if (readers !== undefined) {
          if (node.indexed !== readers) {
            readers.add(node, node.deps);
            node.indexed = readers;
          }
          node.validAt = this.#version;
        }
        if (this.#presumed.length !== 0) this.#finished.push(node);
        return node.value;
      }
    } else {
      // the node of a record the table no longer holds: it reads nothing any more
      if (node !== undefined && readers !== undefined && node.indexed === readers && node.deps)
        readers.remove(node, node.deps);
      node = {
        schema,
        key,
        pk,
        record,
        value: undefined,
        deps: undefined,
        pass: 0,
        dirty: 0,
        validAt: 0,
        indexed: undefined,
      };
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
    const deps = (built.deps = this.#take(start));
    const sameReads = before !== undefined && sameRecords(before, deps);
    if (!this.reshaped && deps.length > 0 && !sameReads) this.reshaped = true;
    if (readers !== undefined) {
      // a rebuild that read the same records is listed already
      if (!sameReads || built.indexed !== readers) {
        if (before !== undefined && built.indexed === readers) readers.remove(built, before);
        readers.add(built, deps);
        built.indexed = readers;
      }
      built.validAt = this.#version;
    }
    if (this.#presumed.length !== 0) this.#finished.push(built);
    return built.value;
  }

  /**
   * Whether `node` is valid without walking its dependencies: found valid in the tables read now, or in
   * those of the read before the one write since, which changed none of the records it reads (no dirty
   * mark: it is listed as a reader of each of them, and so is every node it reads).
   */
  #trusted(node: RecordNode, readers: Readers): boolean {
    if (node.indexed !== readers) return false;
    const validAt = node.validAt;
    return validAt === this.#version || (validAt === this.#trustFrom && node.dirty !== this.#mark);
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
