import { hasOwn, ownValue } from '../safeObject.js';
import { INVALID } from '../special.js';
import type { StableEntry } from './MemoCache.js';
import type { EntityTables } from '../types.js';

/**
 * The records read while building a value, flat: `[schema, key, pk, value, schema, key, pk, value, ...]`
 * (one array per node instead of an object per read). Re-reading each must give the same value for the
 * built value to stay valid.
 */
export type Dependencies = readonly unknown[];
/** The slots of one read in a `Dependencies` list. */
export const STRIDE = 4;
/** The empty dependency list (shared). */
export const NO_DEPS: Dependencies = Object.freeze([]);

/** The memo of one stored record: the value built from it and the records that value read. */
export interface RecordNode {
  readonly schema: unknown;
  /** Where its record is stored (of an inline entity: key '', pk ''). */
  readonly key: string;
  readonly pk: string;
  /**
   * The record the value was built from (a node stands for its record only while the table holds it), or one equal
   * to it that replaced it (see `ReadPass#resolve`).
   */
  record: object;
  value: unknown;
  /**
   * The value before its last rebuild gave another one: handed out again when a rebuild gives one that can stand for
   * it (`sameValue`), so that a change undone (a rolled-back optimistic layer) reads as the objects of before.
   */
  prior: unknown;
  /** `undefined` forces a rebuild. */
  deps: Dependencies | undefined;
  /** The pass that resolved it last: its number once built or validated (or while building), minus it while validating. */
  pass: number;
  /** The last dirty mark it got (see `Readers.dirty`). */
  dirty: number;
  /** The version of the tables it was last found valid in (`versionOf`), while the memo keeps readers. */
  validAt: number;
  /** The readers index that lists it as a reader of its dependencies, if any. */
  indexed: object | undefined;
  /**
   * The dependencies of a node that read this record's current value and nothing else, shared by all such
   * nodes (see `Recording.take`); dropped when the node is rebuilt.
   */
  soleRead: Dependencies | undefined;
}

/** The node of `record` (at `key`/`pk`) read with `schema`, not built yet: every node has this one shape. */
export function newNode(schema: unknown, key: string, pk: string, record: object): RecordNode {
  return {
    schema,
    key,
    pk,
    record,
    value: undefined,
    prior: undefined,
    deps: undefined,
    pass: 0,
    dirty: 0,
    validAt: 0,
    indexed: undefined,
    soleRead: undefined,
  };
}

/** A new node map of the nodes in `nodes` whose records `table` still holds (the same objects, or a list rewritten). */
export function nodesStillIn(table: EntityTables[string], nodes: Map<string, RecordNode>): Map<string, RecordNode> {
  const kept = new Map<string, RecordNode>();
  for (const [pk, node] of nodes) {
    const record = ownValue(table, pk);
    // a list rewritten (a sweep took out pks it left out) keeps its node: its read gives the same list back
    if (record === node.record || (Array.isArray(record) && Array.isArray(node.record))) kept.set(pk, node);
  }
  return kept;
}

/**
 * The node map of a new version of a table: the nodes in `nodes` of the pks `table` still holds. A node
 * whose record was replaced stays until its pk is read (then its reads tell whether the new record's read
 * the same records); it never stands for the new record.
 */
export function nodesCarriedTo(table: EntityTables[string], nodes: Map<string, RecordNode>): Map<string, RecordNode> {
  const kept = new Map<string, RecordNode>();
  for (const [pk, node] of nodes) if (ownValue(table, pk) !== undefined) kept.set(pk, node);
  return kept;
}

/**
 * Whether two dependency lists read the same records in the same order, each found in both or missing in both (a
 * missing record's reads are not followed into the paths: one that comes back reaches records again), and with
 * `values`, the same values.
 */
export function sameRecords(a: Dependencies, b: Dependencies, values?: boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += STRIDE) {
    if (
      a[i + 1] !== b[i + 1] ||
      a[i + 2] !== b[i + 2] ||
      (a[i + 3] === INVALID) !== (b[i + 3] === INVALID) ||
      (values && (a[i] !== b[i] || a[i + 3] !== b[i + 3]))
    )
      return false;
  }
  return true;
}

/** Whether `a` and `b` are both lists of the same values, in the same order. */
export function sameList(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) && sameParts(a, b);
}

/** Whether two lists hold the same values, in the same order. */
export function sameParts(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether `a` and `b` can stand for each other: lists of the same values in order, or objects of one prototype
 * whose own fields hold the same values (two builds of an entity from records that read the same).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameParts(a, b);
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  let count = 0;
  for (const key in a) {
    if (!hasOwn.call(a, key)) continue;
    if (!hasOwn.call(b, key) || (a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key])
      return false;
    count++;
  }
  for (const key in b) if (hasOwn.call(b, key)) count--;
  return count === 0;
}

/**
 * Referential stability (`DenormalizeContext.stable`): the value `kept` holds for `input` when it was built from the
 * same `shape` and `parts`, else `build()`'s, kept.
 */
export function stableValue<T>(
  kept: WeakMap<object, StableEntry>,
  input: object,
  shape: string,
  parts: readonly unknown[],
  build: () => T,
): T {
  const entry = kept.get(input);
  if (entry && entry.shape === shape && sameParts(entry.parts, parts)) return entry.value as T;
  // the parts of before the last change (a change and its undoing): that value again; one prior kept, not a chain
  const prior = entry?.prior;
  const value = prior !== undefined && prior.shape === shape && sameParts(prior.parts, parts) ? prior.value : build();
  kept.set(input, {
    shape,
    parts,
    value,
    prior: entry && { shape: entry.shape, parts: entry.parts, value: entry.value },
  });
  return value as T;
}

/**
 * A pass handed a node's value out on trust and then rebuilt it (`presumed`): that node is rebuilt from scratch next
 * pass (while building, it hands out its new value to the cycle), along with every node resolved since (`finished`)
 * that saw a value that changed.
 */
export function unsettle(
  presumed: readonly { readonly node: RecordNode; readonly value: unknown }[],
  finished: readonly RecordNode[],
  tables: { holdValues(deps: Dependencies): boolean },
): void {
  for (const { node, value } of presumed) if (node.value !== value) node.deps = undefined;
  for (const node of finished) if (node.deps && !tables.holdValues(node.deps)) node.deps = undefined;
}
