/**
 * `reconcile` for the adapters: a query's entities as long-lived rows, one per entity (its class and pk),
 * that a framework updates in place, so a changed record keeps its row (and the DOM drawn from it).
 */
import { Entity } from '../schema/index.js';

/** How a framework makes a row of an entity and brings it up to date. */
export interface RowKind<R extends object> {
  /** A new row showing `entity`. */
  create(entity: Entity): R;
  /** Shows `entity` (a changed record of the same class and pk) in `row`. */
  update(row: R, entity: Entity): void;
  /** Lets go of a row whose entity left the data. */
  drop?(row: R): void;
}

interface Kept<R> {
  source: Entity;
  readonly row: R;
  seen: number;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * A function that maps a query's data to the same data with its entities as rows: the top-level entity,
 * the entities of a top-level array, and those of a plain object's array or entity members (a
 * `{ results, next }` page). An entity whose record did not change is the same row with no work; a
 * changed one is the same row, updated. An array whose rows are the same as last time is the same array
 * (and so is such an object). Everything else is the core's data unchanged. Rows of entities that left
 * the data are let go.
 *
 * @example
 * const rows = keepRows({ create: (todo) => ({ ...todo }), update: (row, todo) => Object.assign(row, todo) });
 * controller.observe(TodoResource.getList, {}).subscribe((state) => render(rows(state.data)));
 */
export function keepRows<R extends object>(kind: RowKind<R>): <T>(data: T) => T {
  const tables = new Map<unknown, Map<unknown, Kept<R>>>(); // entity class → pk → row
  // an array this function returned → the data it came from and each position's row: the same entity
  // at the same position is its row again without a lookup (one write re-reads a 5,000-row list)
  const lists = new WeakMap<readonly unknown[], { items: readonly unknown[]; kept: (Kept<R> | undefined)[] }>();
  let count = 0; // rows in `tables`
  let visit = 0;
  let seen = 0; // rows this call visited
  let last: unknown;

  const mark = (kept: Kept<R>) => {
    if (kept.seen !== visit) seen++;
    kept.seen = visit;
    return kept.row;
  };

  const row = (entity: Entity): R => mark(keep(entity));

  /**
   * The kept row of `entity`, by its class and pk: made, found, or found and updated. (No WeakMap keyed
   * by the cache's objects: an entry per row, traced by the garbage collector as an ephemeron, made the
   * first pass over a long list slower than finding rows by pk.)
   */
  const keep = (entity: Entity): Kept<R> => {
    const type = entity.constructor;
    let table = tables.get(type);
    if (!table) tables.set(type, (table = new Map()));
    const pk = entity.pk();
    const kept = table.get(pk);
    if (!kept) {
      const made = { source: entity, row: kind.create(entity), seen: visit - 1 };
      table.set(pk, made);
      count++;
      return made;
    }
    if (kept.source !== entity) {
      kind.update(kept.row, entity);
      kept.source = entity;
    }
    return kept;
  };

  const list = (items: readonly unknown[], previous: unknown): unknown[] => {
    const last = Array.isArray(previous) ? (previous as unknown[]) : undefined;
    const before = last && lists.get(last);
    // while every row is the one `last` holds at its position, nothing is allocated
    let out: unknown[] | undefined = before && last!.length === items.length ? undefined : [];
    let kept: (Kept<R> | undefined)[] = out ? [] : before!.kept;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const at = before && before.items[i] === item ? before.kept[i] : undefined;
      const k = at && at.source === item ? at : item instanceof Entity ? keep(item) : undefined;
      const value = k ? mark(k) : item;
      if (!out && value !== last![i]) {
        out = last!.slice(0, i);
        kept = kept.slice(0, i);
      }
      if (out) {
        out.push(value);
        kept.push(k);
      }
    }
    if (!out) {
      before!.items = items; // the same rows at the same positions: `kept` holds
      return last!;
    }
    lists.set(out, { items, kept });
    return out;
  };

  const member = (value: unknown, previous: unknown): unknown =>
    Array.isArray(value) ? list(value, previous) : value instanceof Entity ? row(value) : value;

  /** Lets go of the rows this call did not visit (entities that left the data). */
  const sweep = () => {
    for (const table of tables.values())
      for (const [pk, kept] of table)
        if (kept.seen !== visit) {
          table.delete(pk);
          kind.drop?.(kept.row);
          count--;
        }
  };

  return <T>(data: T): T => {
    visit++;
    seen = 0;
    let out: unknown = data;
    if (Array.isArray(data) || data instanceof Entity) out = member(data, last);
    else if (isPlain(data)) {
      const before = isPlain(last) ? last : undefined;
      const next: Record<string, unknown> = {};
      let same = !!before && Object.keys(before).length === Object.keys(data).length;
      for (const [key, value] of Object.entries(data)) {
        next[key] = member(value, before?.[key]);
        same &&= next[key] === before![key];
      }
      out = same ? before : next;
    }
    if (seen < count) sweep();
    last = out;
    return out as T;
  };
}
