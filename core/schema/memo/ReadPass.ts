import type { Entity } from '../Entity.js';
import { planOf, type EntityPlan } from '../entityPlan.js';
import { denormalizeList } from '../ArraySchema.js';
import { denormalizeMembers } from '../ObjectSchema.js';
import { SchemaNode, type DenormalizeContext, type TableSchema } from '../SchemaNode.js';
import { arrayItemSchema } from '../schemaKind.js';
import { emptyTable, isPlainObject, jsonEqual, ownValue } from '../safeObject.js';
import { INVALID } from '../special.js';
import type { EntityTables } from '../types.js';
import { buildEntity, readRows, ShallowMarker, shallowRead } from './buildEntity.js';
import {
  NO_DEPS,
  STRIDE,
  newNode,
  sameList,
  sameRecords,
  sameValue,
  stableValue,
  unsettle,
  type Dependencies,
  type RecordNode,
} from './dependencies.js';
import type { MemoCache } from './MemoCache.js';
import { reached, type ChangeSet, type Readers, type Trust } from './Readers.js';
import { patchList, type PatchHost } from './patchList.js';
import { Recording } from './Recording.js';
import { TableSlots } from './TableSlots.js';
import { versionOf } from '../writeSteps.js';

const NO_TABLES = Object.freeze(emptyTable()) as EntityTables;

/**
 * One read over fixed tables. Each stored record is resolved at most once per pass: its node is either
 * validated (same record, and every record it read still gives the same value) or rebuilt.
 */
export class ReadPass implements DenormalizeContext, PatchHost {
  /** Whether a record built in this pass read other records than its previous build (or had none): paths anew. */
  reshaped = false;
  /** The dependencies being recorded (see Recording.ts). */
  readonly #rec = new Recording();
  /** Nodes reached again while being validated (a cycle): their old value was handed out on trust. */
  readonly #presumed: { node: RecordNode; value: unknown }[] = [];
  /**
   * Nodes resolved since the first value was handed out on trust: only they can have seen one (a node
   * is resolved once per pass, and one reached while validating is presumed before its reader finishes).
   */
  readonly #finished: RecordNode[] = [];
  /**
   * The innermost node being built (`register` hands out its value early: cycles), and what it read before
   * when it is rebuilt from the same record (else undefined). The outer ones wait in `#resolve`'s locals.
   */
  #building: RecordNode | undefined = undefined;
  #before: Dependencies | undefined = undefined;
  /** The write since the last read, when lists may be patched where it changed them (see patchList.ts). */
  #changes: ChangeSet | undefined = undefined;
  /** The top-level result's previous read, when it may be patched: its dependencies and value. */
  #root: { readonly deps: Dependencies; readonly value: unknown } | undefined = undefined;
  /** Whether the top-level result's dependencies are its previous ones, patched (the same records). */
  rootKept = false;
  /** The node `#resolve` returned the value of last. */
  #resolved: RecordNode | undefined = undefined;
  readonly #register = (value: unknown): void => {
    (this.#building as RecordNode).value = value;
  };

  /** The tables this read has used, with their node maps. */
  readonly #tables: TableSlots;
  readonly #slots: unknown[];

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
  args: readonly unknown[] = NO_DEPS;

  constructor(memo: MemoCache) {
    this.#memo = memo;
    this.#tables = new TableSlots(memo);
    this.#slots = this.#tables.slots;
  }

  /** Starts pass number `id` over `entities`, dropping what a pass before it left (thrown, or not settled). */
  start(
    id: number,
    entities: EntityTables,
    args: readonly unknown[],
    trust?: Trust,
    root?: { readonly deps: Dependencies; readonly value: unknown },
  ): void {
    this.#id = id;
    this.#changes = trust?.patch;
    this.#root = trust?.patch === undefined ? undefined : root;
    this.rootKept = false;
    const readers = trust?.readers;
    this.#readers = readers;
    this.#version = readers === undefined ? 0 : versionOf(entities);
    this.#trustFrom = trust?.from ?? 0;
    this.#mark = trust?.mark ?? 0;
    this.#tables.use(entities);
    this.args = args;
    this.reshaped = false;
    this.#resolved = undefined;
    this.#rec.reset();
    this.#depth = 0;
    // setting an array's length is a call into the engine: only when there is something to drop
    if (this.#presumed.length !== 0) this.#presumed.length = 0;
    if (this.#finished.length !== 0) this.#finished.length = 0;
    this.#building = undefined;
    this.#before = undefined;
  }

  /** The read is over: the pass keeps nothing of it. */
  end(): void {
    this.#rec.clear();
    this.start(0, NO_TABLES, NO_DEPS);
  }

  unvisit(schema: unknown, input: unknown, known?: EntityPlan): unknown {
    if (input === null || input === undefined) return input;
    const plan = known ?? planOf(schema);
    if (plan) {
      if (typeof input === 'string' || typeof input === 'number') {
        const pk = typeof input === 'string' ? input : String(input);
        return this.#depth < plan.maxEntityDepth
          ? this.unvisitRecord(schema as typeof Entity, plan.key, pk, plan)
          : shallowRead(this.#memo.shallow, this.#tables.entities, this.#rec, schema as typeof Entity, pk, plan);
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

  /** `plan`: the schema's plan if known (else found when the record is built). */
  unvisitRecord(schema: TableSchema | Function, key: string, pk: string, plan?: EntityPlan): unknown {
    const slot = this.#tables.slotOf(key);
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
    this.#rec.record(schema, key, pk, value, value === INVALID ? undefined : this.#resolved);
    return value;
  }

  tablePks(key: string): readonly string[] | undefined {
    return this.#tables.pks(key);
  }

  /** The records read directly by the top-level result (not through another record), once it is read. */
  rootDeps(): Dependencies {
    this.rootKept = this.#rec.handedOnly(0);
    return this.#rec.take(0);
  }

  /**
   * The list `input` of `itemSchema` patched where the last write changed it, when it is all the node being
   * built (or the top-level result) reads and that read its previous value from the tables the write started
   * from; `undefined` to read it whole.
   */
  patchList(itemSchema: unknown, input: readonly unknown[]): unknown {
    const changes = this.#changes;
    const rec = this.#rec;
    const start = rec.start;
    if (changes === undefined || start < 0 || rec.top !== start) return undefined;
    let before: Dependencies | undefined;
    let previous: unknown;
    const node = this.#building;
    if (node === undefined) {
      before = this.#root?.deps;
      previous = this.#root?.value;
      this.#root = undefined; // the result's own list only, not one nested in it
    } else {
      before = this.#before;
      // a node found valid in the tables the write started from, and listed as a reader since
      if (node.validAt !== this.#trustFrom || node.indexed !== this.#readers) return undefined;
      previous = node.value;
    }
    if (before === undefined) return undefined;
    const patched = patchList(this, itemSchema, input, before, previous, changes);
    if (patched === undefined) return undefined;
    rec.hand(patched.deps, start);
    if (patched.value !== previous)
      this.#memo.stableByInput.set(input, { shape: '[]', parts: patched.value, value: patched.value });
    return patched.value;
  }

  /** See `DenormalizeContext.readList`: an entity class's rows by pk (a plain class's first builds in `readRows`). */
  readList(schema: unknown, input: readonly unknown[], parts: unknown[]): number | undefined {
    const plan = planOf(schema);
    if (plan === undefined || this.#depth >= plan.maxEntityDepth) return undefined;
    const at = this.#tables.slotOf(plan.key);
    // a first read (no readers index) recording into its node, with nothing handed out on trust
    const first = at >= 0 && this.#readers === undefined && this.#presumed.length === 0 && this.#rec.start >= 0;
    const rows = first ? this.#slots : NO_DEPS;
    return readRows(this, schema as typeof Entity, plan, input, parts, rows, at, this.#id, this.#rec);
  }

  readItem(schema: unknown, raw: unknown, into: unknown[], at: number): boolean {
    const top = this.#rec.top;
    this.unvisit(schema, raw);
    return this.#rec.moveOne(top, into, at);
  }

  stable<T>(input: object, shape: string, parts: readonly unknown[], build: () => T): T {
    return stableValue(this.#memo.stableByInput, input, shape, parts, build);
  }

  /** True when every value handed out on trust turned out right; otherwise marks what to rebuild. */
  settled(): boolean {
    if (this.#presumed.length === 0 || this.#presumed.every(({ node, value }) => node.value === value)) return true;
    this.#memo.unsettle();
    unsettle(this.#presumed, this.#finished, this.#tables);
    return false;
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
    // a record rewritten to one equal to what a node of its pk was built from (a change and its revert read once; an
    // optimistic record committed by an equal answer: the node in the layers' table's map) stands for it: the same
    // entity, read as that build unless what it reads changed (a node of another version of the table rebuilds there)
    if (node?.deps !== undefined && node.record !== record && node.schema === schema) {
      const latest = this.#memo.latest.get(key)?.get(pk);
      const equal = jsonEqual(node.record, record)
        ? node
        : latest !== node && latest?.deps !== undefined && latest.schema === schema && jsonEqual(latest.record, record)
          ? latest
          : undefined;
      if (equal !== undefined) nodes.set(pk, (node = equal)).get(pk)!.record = record;
    }
    // what the node read before, when it is rebuilt (or replaced: a new record at the same pk)
    let before: Dependencies | undefined;
    let rebuilt = false;
    const previous = node !== undefined && node.schema === schema ? node.value : undefined;
    if (node !== undefined && node.record === record && node.schema === schema) {
      const id = this.#id;
      this.#resolved = node;
      if (node.pass === id || node.pass === -id) {
        if (node.pass !== id) this.#presumed.push({ node, value: node.value });
        return node.value;
      }
      // a node that read nothing (a row) is valid while its record is the same
      if (
        node.deps &&
        (node.deps.length === 0 ||
          (readers !== undefined && this.#trusted(node, readers)) ||
          (!reached(node, readers, this.#mark, this.#trustFrom) &&
            !this.#patchable(node) &&
            this.#stillValid(node, node.deps)))
      ) {
        node.pass = id;
        return this.#found(node, readers);
      }
      before = node.deps;
      rebuilt = true;
    } else {
      // the node of a record the table no longer holds: it reads nothing any more
      if (node !== undefined && node.schema === schema) {
        // a new record at the same pk: it is the same entity, whose reads compare with the old record's
        before = node.deps;
        if (readers !== undefined && node.indexed === readers && before) readers.remove(node, before);
      }
      node = newNode(schema, key, pk, record);
      const flat = plan ?? planOf(schema);
      if (flat !== undefined && flat.schemaFields.length === 0) {
        // an entity that nests no other (a row of a list): built at once, it reads nothing (a build that throws leaves no node)
        node.value = buildEntity(flat, record as Record<string, unknown>, this, node, undefined);
        node.deps = NO_DEPS;
        node.pass = this.#id;
        nodes.set(pk, node);
        return this.#found(node, readers);
      }
      nodes.set(pk, node);
    }
    const built = node;
    built.pass = this.#id;
    built.deps = undefined;
    built.soleRead = undefined;
    const entityPlan = plan ?? planOf(schema);
    const rec = this.#rec;
    const start = rec.top;
    const outerStart = rec.start;
    const outer = this.#building;
    const outerBefore = this.#before;
    rec.start = start;
    this.#building = built;
    this.#before = rebuilt ? before : undefined;
    this.#depth++;
    try {
      built.value = entityPlan
        ? buildEntity(entityPlan, record as Record<string, unknown>, this, built, previous)
        : (schema as TableSchema).build(record, this, this.#register);
    } catch (error) {
      rec.top = start;
      built.pass = 0;
      this.#memo.unsettle();
      throw error;
    } finally {
      this.#depth--;
      rec.start = outerStart;
      this.#building = outer;
      this.#before = outerBefore;
    }
    const deps = (built.deps = rec.take(start));
    const sameReads = before !== undefined && (rec.kept === deps || sameRecords(before, deps));
    // the same values read again (a node the write `reached`; a patched list), or a list rewritten to the same items
    if (rebuilt ? sameReads && before !== deps && sameRecords(before!, deps, true) : sameList(previous, built.value))
      built.value = previous;
    else if (previous !== undefined && built.value !== previous) {
      // a change undone (a rolled-back layer): the value of before it, which this build can stand for
      const prior = built.prior;
      built.prior = previous;
      if (this.#memo.undoing && prior !== undefined && sameValue(prior, built.value)) built.value = prior;
    }
    if (!this.reshaped && deps.length > 0 && !sameReads) this.reshaped = true;
    if (!sameReads && (rebuilt || before !== undefined)) this.#memo.reshapes++; // another result's paths may go through it
    // a rebuild that read the same records is listed already
    if (readers !== undefined && !sameReads && built.indexed === readers) {
      if (before !== undefined) readers.remove(built, before);
      built.indexed = undefined;
    }
    return this.#found(built, readers);
  }

  /** `node` is resolved in this pass: listed in `readers` (when there is an index) as a reader of its dependencies. */
  #found(node: RecordNode, readers: Readers | undefined): unknown {
    if (readers !== undefined) {
      if (node.indexed !== readers) {
        readers.add(node, node.deps as Dependencies);
        node.indexed = readers;
      }
      node.validAt = this.#version;
    }
    if (this.#presumed.length !== 0) this.#finished.push(node);
    this.#resolved = node;
    return node.value;
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

  /** Whether `node` (a list, marked dirty) is better rebuilt, patching its previous list, than walked. */
  #patchable(node: RecordNode): boolean {
    return this.#changes !== undefined && node.validAt === this.#trustFrom && Array.isArray(node.value);
  }

  #stillValid(node: RecordNode, deps: Dependencies): boolean {
    node.pass = -this.#id;
    const rec = this.#rec;
    const outerStart = rec.start;
    rec.start = -1;
    this.#depth++;
    try {
      for (let i = 0; i < deps.length; i += STRIDE) {
        const schema = deps[i];
        const value =
          typeof schema !== 'function' && schema instanceof ShallowMarker
            ? shallowRead(this.#memo.shallow, this.#tables.entities, this.#rec, schema.schema, deps[i + 2] as string)
            : this.unvisitRecord(schema as TableSchema, deps[i + 1] as string, deps[i + 2] as string);
        if (value !== deps[i + 3]) return false;
      }
      return true;
    } finally {
      this.#depth--;
      rec.start = outerStart;
    }
  }
}
