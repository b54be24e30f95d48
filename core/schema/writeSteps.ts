/**
 * What each write changed, kept by the entity tables it produced: a `normalize` that returns new tables
 * records which records it wrote over which tables. A memo that read the older tables then knows exactly
 * what changed, without comparing tables (see memo/Readers.ts). Tables are known by a number, not held:
 * nothing here keeps an older version of the data alive.
 *
 * Writes over tables that nothing read yet (a burst of writes in one task, read once at its end) make one
 * step: the tables the first of them started from, and every record they wrote. A read after the burst then
 * follows it as it follows a single write (a list patched where the burst changed it), instead of reading anew.
 */
import type { EntityTables } from './types.js';

/** One write: the version of the tables it started from and the records it wrote (`[key, pk]`). */
export interface WriteStep {
  readonly base: number;
  readonly changed: readonly (readonly [key: string, pk: string])[];
}

/** A version of the tables: its number, `read` once a read asked for it (`versionOf`), and its step. */
interface Version {
  readonly version: number;
  read: boolean;
  readonly step: WriteStep | undefined;
}

/**
 * At most this many records in a joined step: past it a write starts a step of its own (the memo then reads
 * anew). A joined step is a copy of the one it extends: a burst of single writes copies at most this many
 * records per write.
 */
const JOINED = 512;

const versions = new WeakMap<object, Version>();
let lastVersion = 0;

/** The number of this version of the tables (given on first use; never reused), for a read of them. */
export function versionOf(entities: EntityTables): number {
  let entry = versions.get(entities);
  // every entry of one shape (the reads of its fields stay monomorphic)
  if (entry === undefined) versions.set(entities, (entry = { version: ++lastVersion, read: false, step: undefined }));
  entry.read = true;
  return entry.version;
}

/**
 * Records that `next` is `base` with the records `changed` written (and nothing else): one map entry per write
 * (a write's tables are young objects, and each entry costs the collector).
 */
export function recordStep(
  next: EntityTables,
  base: EntityTables,
  changed: readonly (readonly [key: string, pk: string])[],
): void {
  const from = versions.get(base);
  const joined = from?.read ? undefined : from?.step;
  versions.set(next, {
    version: ++lastVersion,
    read: false,
    // `base` was made by a write and nothing read it: `next` is the tables that write started from, with both
    // writes' records
    step:
      joined !== undefined && joined.changed.length + changed.length <= JOINED
        ? { base: joined.base, changed: joined.changed.concat(changed) }
        : { base: versionOf(base), changed },
  });
}

/** The write that made `entities`, when a `normalize` made them (the joined writes, when nothing read between them). */
export function stepOf(entities: EntityTables): WriteStep | undefined {
  return versions.get(entities)?.step;
}
