/**
 * What each write changed, kept by the entity tables it produced: a `normalize` that returns new tables
 * records which records it wrote over which tables. A memo that read the older tables then knows exactly
 * what changed, without comparing tables (see memo/Readers.ts). Tables are known by a number, not held:
 * nothing here keeps an older version of the data alive.
 */
import type { EntityTables } from './types.js';

/** One write: the version of the tables it started from and the records it wrote (`[key, pk]`). */
export interface WriteStep {
  readonly base: number;
  readonly changed: readonly (readonly [key: string, pk: string])[];
}

const versions = new WeakMap<object, number>();
const steps = new WeakMap<object, WriteStep>();
let lastVersion = 0;

/** The number of this version of the tables (given on first use; never reused). */
export function versionOf(entities: EntityTables): number {
  let version = versions.get(entities);
  if (version === undefined) versions.set(entities, (version = ++lastVersion));
  return version;
}

/** Records that `next` is `base` with the records `changed` written (and nothing else). */
export function recordStep(
  next: EntityTables,
  base: EntityTables,
  changed: readonly (readonly [key: string, pk: string])[],
): void {
  steps.set(next, { base: versionOf(base), changed });
}

/** The write that made `entities`, when a `normalize` made them. */
export function stepOf(entities: EntityTables): WriteStep | undefined {
  return steps.get(entities);
}
