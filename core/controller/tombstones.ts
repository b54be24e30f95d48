/**
 * Deleted records in garbage collection. A record marked INVALID (deleted, or `schema.Invalidate`)
 * stays as a tombstone, with its meta, for the ordering rule: a response to a request that started
 * before the deletion must not bring the record back. Once no such request runs, nothing needs it: a
 * read of a missing record is the read of an INVALID one (required: the result is unusable; in a list:
 * left out). So a collection drops it even when a kept result or a live stream still names it, and
 * takes its pk out of the collections' lists, which then read the same: no observer re-emits for it.
 */
import { INVALID, copyTable, listItemRecord, type EntityMeta } from '../schema/index.js';
import type { State, Transition } from '../store/index.js';

/** The lists a collection rewrites: `[collection table, list pk, the list without collected pks]`. */
export type ListRewrites = readonly (readonly [string, string, readonly unknown[]])[];

/**
 * What one pass over the records of `state` finds to bury (over `only` those records when given, as
 * `key\u0000pk` paths, else over every record): the tombstones nothing needs (marked INVALID by a write older
 * than the oldest request running, `oldestStart`, and not written by an optimistic layer, `kept`), and the
 * metas of lists whose logged additions and removals (listEdits.ts) no running request can need any more
 * (written before `oldestStart`: no response to replay them over is still to come), without those edits,
 * and without `base` once none is left. What it leaves to bury later it adds to `left`.
 */
export function toBury(
  state: State,
  oldestStart: number,
  kept: ReadonlySet<string>,
  left: Set<string>,
  only?: ReadonlySet<string>,
): [tombstones: [string, string][], metas: [string, string, EntityMeta][]] {
  const tombstones: [string, string][] = [];
  const rewrites: [string, string, EntityMeta][] = [];
  const check = (key: string, pk: string, record: unknown): void => {
    const meta = state.entitiesMeta[key]?.[pk];
    const edits = meta?.edits;
    const path = `${key}\u0000${pk}`;
    if (record === INVALID) {
      if ((meta?.fetchedAt ?? Number.NEGATIVE_INFINITY) < oldestStart && !kept.has(path)) tombstones.push([key, pk]);
      else left.add(path);
    } else if (meta !== undefined && edits !== undefined && edits.length > 0) {
      // the edits are in the order of their stamps: the oldest first
      const folded = edits.findIndex((edit) => !(edit[1] < oldestStart));
      if (folded !== -1) left.add(path);
      if (folded === 0) return;
      const { base, edits: _edits, ...rest } = meta;
      rewrites.push([
        key,
        pk,
        folded === -1
          ? rest
          : { ...rest, base: Math.max(base ?? meta.fetchedAt, edits[folded - 1]![1]), edits: edits.slice(folded) },
      ]);
    }
  };
  if (only !== undefined)
    // a record no longer deleted nor edited (written again, or collected) is looked at and left out
    for (const path of only) {
      const at = path.indexOf('\u0000');
      const key = path.slice(0, at);
      const pk = path.slice(at + 1);
      check(key, pk, state.entities[key]?.[pk]);
    }
  else for (const key in state.entities) for (const pk in state.entities[key]) check(key, pk, state.entities[key]![pk]);
  return [tombstones, rewrites];
}

/** The lists of the collections that hold `dropped` records (pks, or Union members), without them. */
export function listsWithout(state: State, dropped: readonly (readonly [string, string])[]): ListRewrites {
  if (dropped.length === 0) return [];
  const gone = new Set(dropped.map(([key, pk]) => `${key}\u0000${pk}`));
  const rewrites: [string, string, unknown[]][] = [];
  for (const listKey in state.entities) {
    const recordOf = listItemRecord(listKey);
    if (recordOf === undefined) continue;
    const kept = (item: unknown) => {
      const record = recordOf(item);
      return record === undefined || !gone.has(`${record[0]}\u0000${record[1]}`);
    };
    const lists = state.entities[listKey]!;
    for (const listPk in lists) {
      const list = lists[listPk];
      if (!Array.isArray(list) || list.every(kept)) continue;
      rewrites.push([listKey, listPk, list.filter(kept)]);
    }
  }
  return rewrites;
}

/** What a collection buries: the tombstones, the lists without their pks, and the lists' folded metas. */
export interface Burial {
  readonly tombstones: readonly (readonly [string, string])[];
  readonly lists: ListRewrites;
  readonly metas?: readonly (readonly [string, string, EntityMeta])[];
}

/**
 * Drops the tombstones and their meta and writes the lists without their pks. It changes no read (a
 * missing record reads as an INVALID one, a list without it as the list that left it out), so it
 * reports no change: no stream re-reads or re-emits for it.
 */
export function bury(state: State, { tombstones, lists, metas = [] }: Burial): Transition {
  type Tables = { [key: string]: { [pk: string]: unknown } };
  const entities = copyTable(state.entities) as Tables;
  const entitiesMeta = copyTable(state.entitiesMeta) as Tables;
  const writable = (tables: Tables, original: State['entities'] | State['entitiesMeta'], key: string) => {
    if (tables[key] !== undefined && tables[key] === original[key]) tables[key] = copyTable(tables[key]);
    return tables[key];
  };
  for (const [key, pk] of tombstones) {
    delete writable(entities, state.entities, key)?.[pk];
    delete writable(entitiesMeta, state.entitiesMeta, key)?.[pk];
  }
  for (const [key, pk, list] of lists) writable(entities, state.entities, key)![pk] = list;
  for (const [key, pk, meta] of metas) writable(entitiesMeta, state.entitiesMeta, key)![pk] = meta;
  return {
    state: { ...state, entities, entitiesMeta: entitiesMeta as State['entitiesMeta'] },
    changes: { entities: [], endpoints: [], optimistic: false },
  };
}
