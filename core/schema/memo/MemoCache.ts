import { NormalizeError } from '../../errors.js';
import { ownValue } from '../safeObject.js';
import { tooDeep } from '../tooDeep.js';
import { schemaLabel } from '../schemaKind.js';
import { emptyTable } from '../safeObject.js';
import { keepShape } from '../shapeKeeper.js';
import type { Denormalize, DenormalizeResult, EntityTables } from '../types.js';
import { STRIDE, nodesStillIn, sameRecords, type Dependencies, type RecordNode } from './dependencies.js';
import { ReadPass } from './ReadPass.js';
import { Readers, type ChangeSet, type Trust } from './Readers.js';
import { stepOf, versionOf, type WriteStep } from '../writeSteps.js';
import { ReadResult } from './ReadResult.js';

/**
 * A result that reads at least this many records of one table directly (a list's rows) is indexed by that table
 * (`MemoCache.indexOf`); a shorter one record by record.
 */
export const LONG_READ = 64;

/** @internal What `stable` kept for one input: the value built from its parts. */
export interface StableEntry {
  readonly shape: string;
  readonly parts: readonly unknown[];
  readonly value: unknown;
  /**
   * The entry this one replaced (without its own prior): the value of before a change that was then undone (a
   * rolled-back optimistic layer) is given back, not an equal new one.
   */
  readonly prior?: StableEntry | undefined;
}

interface ResultEntry {
  readonly entities: EntityTables;
  readonly result: ReadResult;
  /** The records the result read directly (its `paths` follow them through the memo's nodes). */
  readonly roots: Dependencies;
  /** The memo's epoch when it was read (see `MemoCache.#epoch`). */
  readonly epoch: number;
  /** `MemoCache.reshapes` after it was read. */
  readonly reshapes: number;
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
  /**
   * @internal The last write took optimistic layers away (a rolled-back or answered mutation): a rebuilt value is
   * compared with the one of before its last change, and that one is given back when it reads the same (`prior`).
   * Off otherwise, so that writes do not pay for the comparison.
   */
  undoing = false;
  /** @internal Entities read past the depth limit, by record. */ readonly shallow = new WeakMap<object, object>();
  /** The last write whose changes were marked dirty, the mark, and what it changed. */
  #marked:
    | { readonly step: WriteStep; readonly readers: Readers; readonly mark: number; readonly changes: ChangeSet }
    | undefined = undefined;
  /**
   * Counts what may leave a node's value out of step with the reads its readers index lists (a read of
   * other tables than the last ones read or one write past them, a build that failed or was redone): a
   * list is patched only when nothing of it happened since its previous read (see patchList.ts).
   */
  #epoch = 0;
  /** The version of the tables read last, and the epoch when it was first read. */
  #head = 0;
  #headEpoch = 0;
  /** The version read before `#head`, when `#head` is one write past it, and the epoch when it was first read. */
  #prev = 0;
  #prevEpoch = -1;
  /** @internal Which nodes read each record, kept once the memo reads tables a write made (see `#trust`). */
  readers: Readers | undefined = undefined;
  /** The last result read of each input object (by schema) and of each pk of a schema (by pk, see `pkOf`). */
  #results = new WeakMap<object, Map<unknown, ResultEntry>>();
  #passes = 0;
  /**
   * @internal Counts the rebuilds of a record's node that read other records than its build before (in any read):
   * a result read before one may reach other records now, though its own read rebuilt nothing.
   */
  reshapes = 0;
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
    this.unsettle();
    this.readers = undefined;
    this.#marked = undefined;
    this.#results = new WeakMap();
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
  ): DenormalizeResult<Denormalize<S>> & { readonly index: ReadonlySet<string> } {
    keepShapes();
    const cached = this.#cachedResult(schema, input);
    if (cached?.entities === entities) return cached.result as DenormalizeResult<Denormalize<S>> & ReadResult;
    let value: unknown;
    let roots: Dependencies;
    let reshaped: boolean;
    let kept: boolean;
    // the last read's pass, unless a read is running (a deserializer that reads gets a pass of its own)
    const pass = this.#idle ?? new ReadPass(this);
    this.#idle = undefined;
    this.#follow(entities);
    const trust = cached === undefined ? this.#trust(entities) : this.#trust(entities, cached.entities);
    // the result's previous read, to patch where the write changed it
    const root =
      trust?.patch !== undefined && cached?.epoch === this.#epoch
        ? { deps: cached.roots, value: cached.result.data }
        : undefined;
    try {
      for (;;) {
        pass.start(++this.#passes, entities, args, trust, root);
        value = pass.unvisit(schema, input);
        if (pass.settled()) break;
      }
      roots = pass.rootDeps();
      reshaped = pass.reshaped;
      kept = pass.rootKept;
    } catch (error) {
      if (!tooDeep(error)) throw error;
      throw new NormalizeError(
        schemaLabel(schema),
        process.env.NODE_ENV !== 'production'
          ? 'the stored data is nested too deeply to read (the stack ran out).'
          : 'depth',
        input,
      );
    } finally {
      pass.end();
      this.#idle = pass;
    }
    // when no record read gained or lost a dependency (in this read, or in another since the last one: a record
    // both read, rebuilt by the other), the previous read's paths and index are still exact
    const same =
      cached && !reshaped && cached.reshapes === this.reshapes && (kept || sameRecords(cached.roots, roots))
        ? cached.result
        : undefined;
    const result = new ReadResult(value, same, this, roots, entities);
    this.#storeResult(schema, input, { entities, result, roots, epoch: this.#epoch, reshapes: this.reshapes });
    return result as DenormalizeResult<Denormalize<S>> & ReadResult;
  }

  /**
   * What a read of `entities` may trust (see `ReadPass`). Once a result is read again from tables a write
   * made, the memo keeps a readers index from then on (a memo whose results are read once never pays for
   * it); when `entities`
   * are one write past `previous` (the tables of this result's last read), the nodes that write may have
   * changed are marked dirty, and the others are trusted without walking their dependencies.
   */
  /** @internal A read may have left nodes out of step with the readers index: no list is patched until two writes on. */
  unsettle(): void {
    this.#epoch++;
  }

  /** Follows the versions of the tables read: one write past the last, or others (then a new epoch). */
  #follow(entities: EntityTables): void {
    const version = versionOf(entities);
    if (version === this.#head) return;
    if (stepOf(entities)?.base === this.#head) {
      this.#prev = this.#head;
      this.#prevEpoch = this.#headEpoch;
    } else {
      this.#epoch++;
      this.#prev = 0;
    }
    this.#head = version;
    this.#headEpoch = this.#epoch;
  }

  #trust(entities: EntityTables, previous?: EntityTables): Trust | undefined {
    const step = stepOf(entities);
    let readers = this.readers;
    if (readers === undefined) {
      // the first read again after a write: the index starts (a first read, as of a page, never pays for it)
      if (step === undefined || previous === undefined) return undefined;
      readers = this.readers = new Readers();
      // no node is listed yet: nothing is trusted, and no list read before is patched; this read lists every node
      // it resolves, so that the tables it reads count as first read now (the next write's read may patch it)
      this.unsettle();
      this.#headEpoch = this.#epoch;
      return { readers, from: 0, mark: 0 };
    }
    // a read of the tables a marked write started from may validate nodes after they were marked: mark anew
    if (this.#marked !== undefined && this.#marked.step.base === versionOf(entities)) this.#marked = undefined;
    if (previous === undefined || step === undefined || step.base !== versionOf(previous))
      return { readers, from: 0, mark: 0 };
    // the reads of every stream after one write share its marks
    if (this.#marked?.step !== step || this.#marked.readers !== readers) {
      const dirtied: RecordNode[] = [];
      const mark = readers.dirty(step.changed, dirtied);
      this.#marked = { step, readers, mark, changes: { changed: step.changed, dirtied } };
    }
    // lists read from the tables the write started from may be patched, unless something happened since
    const calm = step.base === this.#prev && this.#prevEpoch === this.#epoch;
    return { readers, from: step.base, mark: this.#marked.mark, patch: calm ? this.#marked.changes : undefined };
  }

  /** @internal Whether the last `pathsOf` with `index` put a table whole. */
  whole = false;

  /**
   * @internal The transitive records read from `roots`, following the memo's nodes. With `index` (what a live read
   * is indexed under), once one record (or the result) reads `LONG_READ` records of a table in a run (a list's
   * rows), the table's key is listed alone instead of its further records (their nodes are still followed).
   */
  pathsOf(roots: Dependencies, entities: EntityTables, index = false): Set<string> {
    const paths = new Set<string>();
    const seen = new Set<object>();
    const pending: Dependencies[] = [roots];
    this.whole = false;
    // the table and node map of the last key (a list reads one table over and over)
    let key: unknown;
    let table: EntityTables[string] | undefined;
    let nodes: Map<string, RecordNode> | undefined;
    let listed = true;
    for (let deps = pending.pop(); deps !== undefined; deps = pending.pop()) {
      let run = 0;
      for (let i = 0; i < deps.length; i += STRIDE) {
        const pk = deps[i + 2] as string;
        if (deps[i + 1] !== key) {
          key = deps[i + 1];
          table = ownValue(entities, key as string);
          nodes = table === undefined ? undefined : this.tables.get(table);
          listed = !this.whole || !paths.has(key as string);
          run = 0;
        }
        if (listed) {
          paths.add(`${key as string}\u0000${pk}`);
          if (index && ++run === LONG_READ) {
            // a long run: the table is indexed whole from here on (the records listed before stay listed)
            paths.add(key as string);
            listed = false;
            this.whole = true;
          }
        }
        // a record that reads no other (a row of a list) has nothing more to follow
        const node = nodes?.get(pk);
        const children = node?.deps;
        if (children === undefined || children.length === 0) continue;
        const record = ownValue(table, pk);
        if (node?.record !== record || seen.has(record as object)) continue;
        seen.add(record as object);
        pending.push(children);
      }
    }
    return paths;
  }

  #cachedResult(schema: unknown, input: unknown): ResultEntry | undefined {
    return this.#resultsOf(schema, input, false)?.get(typeof input === 'object' ? schema : String(input));
  }

  #storeResult(schema: unknown, input: unknown, entry: ResultEntry): void {
    this.#resultsOf(schema, input, true)?.set(typeof input === 'object' ? schema : String(input), entry);
  }

  /**
   * The last results read of the object `input` (by schema), or of the pks of `schema` when `input` is one (by
   * the pk as a string; one map can hold both, as schemas are never strings); `undefined` for any other input.
   */
  #resultsOf(schema: unknown, input: unknown, make: boolean): Map<unknown, ResultEntry> | undefined {
    const at =
      typeof input === 'object' && input !== null
        ? input
        : (typeof input === 'string' || typeof input === 'number') &&
            (typeof schema === 'object' || typeof schema === 'function') &&
            schema !== null
          ? schema
          : undefined;
    if (at === undefined) return undefined;
    let results = this.#results.get(at);
    if (results === undefined && make) this.#results.set(at, (results = new Map()));
    return results;
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
