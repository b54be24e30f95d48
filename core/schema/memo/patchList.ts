/**
 * A list read again after one write, patched where the write changed it: the previous array copied, and only
 * the positions whose record was written, or whose node the write marked dirty, read again. The untouched
 * positions keep their values without being visited, so the read costs in proportion to what changed, not
 * to the length of the list.
 */
import { planOf } from '../entityPlan.js';
import { INVALID } from '../special.js';
import { STRIDE, type Dependencies, type RecordNode } from './dependencies.js';
import type { ChangeSet } from './Readers.js';

/** The read that patches a list: it reads one item again, as the full read of the list would. */
export interface PatchHost {
  /**
   * Reads `raw` with `schema` and writes the one read it records (schema, key, pk, value) into `into` at
   * `at`; false when the item read recorded other than exactly one read.
   */
  readItem(schema: unknown, raw: unknown, into: unknown[], at: number): boolean;
}

/** A patched list: its new dependencies (one read per position) and its new value. */
export interface ListPatch {
  readonly deps: Dependencies;
  readonly value: readonly unknown[];
}

/** Below this length a list is read whole: patching it saves too little to be worth its index. */
const SHORT = 32;

/**
 * What a patched list changed, for keepRows: the positions read again (ascending; the list may differ there from
 * the list it was patched from, and nowhere else), and that list.
 */
export interface Patched {
  readonly value: readonly unknown[];
  readonly at: readonly number[];
  readonly from: readonly unknown[];
}

/**
 * The last patches, newest at `next - 1`: a ring, so that a list is held for at most `RING` patches after it
 * was patched or patched from. (Not a WeakMap keyed by the new list: an entry per write, keyed by a young
 * object, made a one-record write on a 5,000-row list twice as slow through the collector's ephemeron work.)
 */
const RING = 16;
const ring: (Patched | undefined)[] = new Array(RING);
let next = 0;

/** @internal The patch that made `list`, among the last `RING` ones. */
export const patches = {
  get(list: readonly unknown[]): Patched | undefined {
    for (let k = 1; k <= RING; k++) {
      const patch = ring[(next - k) & (RING - 1)];
      if (patch?.value === list) return patch;
    }
    return undefined;
  },
};

/** Where each pk sits in a list read, by the list's dependencies (handed on to the patched ones). */
const positionsByDeps = new WeakMap<Dependencies, Map<string, number | number[]>>();

/**
 * The positions of each pk in the read `before` of the list `input` of table `key`, or `undefined` when
 * `before` is not one read of that table per position, in order.
 */
function positionsOf(
  before: Dependencies,
  input: readonly unknown[],
  key: string,
): Map<string, number | number[]> | undefined {
  let positions = positionsByDeps.get(before);
  if (positions !== undefined) return positions;
  positions = new Map();
  for (let p = 0; p < input.length; p++) {
    const raw = input[p];
    const pk = typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : undefined;
    if (pk === undefined || before[p * STRIDE + 1] !== key || before[p * STRIDE + 2] !== pk) return undefined;
    const at = positions.get(pk);
    if (at === undefined) positions.set(pk, p);
    else if (typeof at === 'number') positions.set(pk, [at, p]);
    else at.push(p);
  }
  positionsByDeps.set(before, positions);
  return positions;
}

/**
 * The list `input` of `itemSchema` read again after the write `changes`, from its read `before` (its
 * dependencies, one per position) and `previous` (its value then), both made from the tables the write
 * started from. `undefined` when it cannot be patched (then it is read whole): the item schema is not an
 * entity, the previous value left out a missing item, an item is missing now, or the write touched a large
 * share of the list. It returns `before` itself, its reads updated (when it gives up, `before` is left as it
 * was: the whole read compares its reads with it), and `previous` itself when no item changed.
 */
export function patchList(
  host: PatchHost,
  itemSchema: unknown,
  input: readonly unknown[],
  before: Dependencies,
  previous: unknown,
  changes: ChangeSet,
): ListPatch | undefined {
  const n = input.length;
  const plan = planOf(itemSchema);
  if (
    n < SHORT ||
    plan === undefined ||
    !Array.isArray(previous) ||
    previous.length !== n ||
    before.length !== n * STRIDE
  )
    return undefined;
  const key = plan.key;
  const positions = positionsOf(before, input, key);
  if (positions === undefined) return undefined;
  // the positions to read again: those of a written record or a dirty node of the list's table (index
  // loops: a write's patch runs mostly before the engine optimizes it, where for...of costs an iterator)
  const touched: number[] = [];
  const changed = changes.changed;
  for (let i = 0; i < changed.length; i++) {
    const entry = changed[i] as readonly [string, string];
    if (entry[0] === key) touch(positions, entry[1], touched);
  }
  const dirtied = changes.dirtied;
  for (let i = 0; i < dirtied.length; i++) {
    const node = dirtied[i] as RecordNode;
    if (node.key === key) touch(positions, node.pk, touched);
  }
  // a large share of the list touched: read whole (a position touched twice counts twice, which is right too)
  if (touched.length > (n * 3) >> 2) return undefined;
  // each position once (a record written twice, or written and read by a dirty node, is touched twice)
  touched.sort((a, b) => a - b);
  let m = 0;
  for (let i = 0; i < touched.length; i++) if (i === 0 || touched[i] !== touched[i - 1]) touched[m++] = touched[i]!;
  touched.length = m;
  // the touched positions read again into `reads` first (the i-th at i * STRIDE): a list read whole after all
  // compares its reads with `before`, which must still hold the previous ones then
  const reads: unknown[] = [];
  let value: unknown[] | undefined;
  for (let i = 0; i < m; i++) {
    const p = touched[i]!;
    if (!host.readItem(itemSchema, input[p], reads, i * STRIDE)) return undefined;
    const read = reads[i * STRIDE + 3];
    if (read === INVALID || read === undefined) return undefined;
    if (read !== previous[p]) (value ??= previous.slice())[p] = read;
  }
  // then the reads are updated in place: they stand for the same records, and only the node (or result) that
  // made them holds them; the value is a new array, the previous one stays as it was handed out
  const deps = before as unknown[];
  for (let i = 0; i < m; i++)
    for (let k = 0, at = touched[i]! * STRIDE; k < STRIDE; k++) deps[at + k] = reads[i * STRIDE + k];
  if (value !== undefined) ring[next++ & (RING - 1)] = { value, at: touched, from: previous };
  return { deps, value: value ?? previous };
}

/** Adds the positions of `pk` (none when the list does not hold it) to `touched`. */
function touch(positions: Map<string, number | number[]>, pk: string, touched: number[]): void {
  const at = positions.get(pk);
  if (typeof at === 'number') touched.push(at);
  else if (at !== undefined) touched.push(...at);
}
