/**
 * Lists written in parts: a list's membership comes whole from a response, or changes by additions and
 * removals (a pushed create, a move) between responses. The additions and removals are logged in the
 * list's meta with their stamps, so that a response to a request that started before them is not
 * dropped whole: its membership is taken, with what was added or removed since it started replayed
 * over it. Records keep their own times (a record deleted since stays INVALID and is not shown).
 */
import type { EntityMeta, ListEdit } from './types.js';

/** How many additions and removals a list keeps; older ones are folded into `base` (see `logEdits`). */
const MAX_EDITS = 64;

/**
 * Where `merge` put the items it added to `existing`: at the `'start'` when the first added pk now
 * leads the list and did not before, else at the `'end'`.
 */
export function placeOf(existing: readonly string[], merged: readonly string[], added: readonly string[]): ListEdit[2] {
  return added.length > 0 && merged[0] === added[0] && existing[0] !== added[0] ? 'start' : 'end';
}

/**
 * The meta of a list after an addition or removal (`op`) of `pks` written with `meta`, over the list's
 * meta before (`previous`). Past `MAX_EDITS`, the oldest edits are dropped and `base` moves to the
 * newest dropped one: a response older than that keeps the stored list instead (as before the log).
 */
export function logEdits(
  meta: EntityMeta,
  previous: EntityMeta | undefined,
  pks: readonly string[],
  op: ListEdit[2],
): EntityMeta {
  let base = previous === undefined ? meta.fetchedAt : (previous.base ?? previous.fetchedAt);
  const edits = [...(previous?.edits ?? [])];
  for (const pk of pks) edits.push([pk, meta.fetchedAt, op]);
  if (edits.length > MAX_EDITS) {
    const dropped = edits.splice(0, edits.length - MAX_EDITS);
    base = Math.max(base, dropped[dropped.length - 1]![1]);
  }
  return { ...meta, base, edits };
}

/**
 * An addition or removal (`op` of `pks`, each as it would leave the list: `next`) written with a stamp
 * `stamp` older than the list's last change (a page answered after a push joined the list): it still
 * applies, except to the pks a later change touched, and is logged at its place among the edits.
 * `undefined` when nothing of it applies or a whole list newer than it is stored (`base` after `stamp`).
 */
export function olderEdit(
  existing: readonly string[],
  next: readonly string[],
  storedMeta: EntityMeta,
  stamp: number,
  pks: readonly string[],
  op: ListEdit[2],
): { readonly list: string[]; readonly meta: EntityMeta } | undefined {
  const base = storedMeta.base ?? storedMeta.fetchedAt;
  if (base > stamp) return undefined;
  const edits = storedMeta.edits ?? [];
  const touchedLater = new Set(edits.filter((edit) => edit[1] > stamp).map((edit) => edit[0]));
  const applied = pks.filter((pk) => !touchedLater.has(pk));
  if (applied.length === 0) return undefined;
  const before = new Set(existing);
  const after = new Set(next);
  // what this edit changes, but not for a pk changed later: that pk stays where the later change left it
  const list =
    op === 'remove'
      ? existing.filter((pk) => after.has(pk) || touchedLater.has(pk))
      : next.filter((pk) => before.has(pk) || !touchedLater.has(pk));
  const at = edits.findIndex((edit) => edit[1] > stamp);
  const logged: ListEdit[] = [...edits];
  logged.splice(at < 0 ? logged.length : at, 0, ...applied.map((pk): ListEdit => [pk, stamp, op]));
  let newBase = base;
  if (logged.length > MAX_EDITS) {
    const dropped = logged.splice(0, logged.length - MAX_EDITS);
    newBase = Math.max(base, dropped[dropped.length - 1]![1]);
  }
  return { list, meta: { ...storedMeta, base: newBase, edits: logged } };
}

/**
 * The membership of a list answered by a request that started at `startedAt`, stored meanwhile as
 * `stored` (meta `storedMeta`, written after `startedAt`): the answer's `pks`, then each addition and
 * removal logged after `startedAt` replayed in order, with the meta to store. `undefined` when a whole
 * list newer than the answer is stored (`base` after `startedAt`): that list stays.
 */
export function replayEdits(
  pks: readonly string[],
  storedMeta: EntityMeta,
  startedAt: number,
): { readonly list: string[]; readonly meta: EntityMeta } | undefined {
  const base = storedMeta.base ?? storedMeta.fetchedAt;
  if (base > startedAt) return undefined;
  const list = [...pks];
  const later: ListEdit[] = [];
  for (const edit of storedMeta.edits ?? []) {
    if (!(edit[1] > startedAt)) continue;
    later.push(edit);
    const [pk, , op] = edit;
    const at = list.indexOf(pk);
    if (op === 'remove') {
      if (at >= 0) list.splice(at, 1);
    } else if (at < 0) {
      if (op === 'start') list.unshift(pk);
      else list.push(pk);
    }
  }
  return { list, meta: { ...storedMeta, base: startedAt, edits: later } };
}
