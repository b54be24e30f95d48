/**
 * `reconcile` for the adapters: a query's entities as long-lived rows, one per entity (its class and pk),
 * that a framework updates in place, so a changed record keeps its row (and the DOM drawn from it).
 */
import { Entity, patches } from '../schema/index.js';

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
  /** The entity's pk (its class is the source's). */
  readonly pk: unknown;
  seen: number;
}

/** An array `keepRows` returned: the core's array it came from, and each position's row. */
interface List<R> {
  items: readonly unknown[];
  readonly kept: readonly (Kept<R> | undefined)[];
}

/** How many of the core's patches `keepRows` follows back to the list it saw (see `sameRows`). */
const CHAIN = 4;

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
 * A write that changes records but no list's membership (the common case: one record updated in a long
 * list) costs the changed rows' updates and a comparison per position the write changed (the core tells which,
 * for a list it patched after the write; else a comparison per position): no row is looked up, marked or
 * swept, and nothing is allocated. The data is taken as the controller hands it out: to sort or change a list,
 * change a copy (`[...data].sort(...)`, compared whole), never the core's array (its next read starts from it).
 *
 * @example
 * const rows = keepRows({ create: (todo) => ({ ...todo }), update: (row, todo) => Object.assign(row, todo) });
 * controller.observe(TodoResource.getList, {}).subscribe((state) => render(rows(state.data)));
 */
export function keepRows<R extends object>(kind: RowKind<R>): <T>(data: T) => T {
  const tables = new Map<unknown, Map<unknown, Kept<R>>>(); // entity class → pk → row
  // an array this function returned → the data it came from and each position's row: the same entity
  // at the same position is its row again without a lookup (one write re-reads a 5,000-row list)
  const lists = new WeakMap<readonly unknown[], List<R>>();
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
    // the class, known by its prototype: a record may hold a field named `constructor` (data, see badInput tests)
    const type = Object.getPrototypeOf(entity);
    let table = tables.get(type);
    if (!table) tables.set(type, (table = new Map()));
    const pk = entity.pk();
    const kept = table.get(pk);
    if (!kept) {
      const made = { source: entity, row: kind.create(entity), pk, seen: visit - 1 };
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

  /**
   * Whether `item`, at position `i` of a list whose previous items `list` holds, is the row kept there: the
   * same item, or a changed record of the entity there (same class and pk), whose row is then updated.
   */
  const sameAt = (item: unknown, i: number, list: List<R>): boolean => {
    if (item === list.items[i]) return true;
    const at = list.kept[i];
    if (at === undefined || !(item instanceof Entity)) return false;
    const source = at.source;
    if (source === item) return true; // the same entity at another position, updated already
    if (Object.getPrototypeOf(item) !== Object.getPrototypeOf(source) || item.pk() !== at.pk) return false;
    kind.update(at.row, item);
    at.source = item;
    return true;
  };

  /**
   * Whether `items` holds the rows of `list` at the same positions (see `sameAt`). When the core patched `items`
   * from the list `list` came from (through up to three lists this function never saw), only the positions the
   * patches read again are compared; otherwise every position is. (A false answer may have updated some rows:
   * they show their latest record, which the full pass then finds.)
   */
  const sameRows = (items: readonly unknown[], list: List<R>): boolean => {
    const was = list.items;
    if (items === was) return true;
    const n = items.length;
    if (was.length !== n) return false;
    // the core's patches back to `was` (at most CHAIN: read whole, made from another list or patched too long ago,
    // every position is compared): only the positions they read again
    for (let k = 0, patched = items; k < CHAIN; k++) {
      const patch = patches.get(patched);
      if (patch === undefined) break;
      const at = patch.at;
      for (let j = 0; j < at.length; j++) if (!sameAt(items[at[j]!], at[j]!, list)) return false;
      patched = patch.from;
      if (patched === was) {
        list.items = items;
        return true;
      }
    }
    for (let i = 0; i < n; i++) if (!sameAt(items[i], i, list)) return false;
    list.items = items;
    return true;
  };

  /**
   * The first pass over a list when no row is kept yet: every entity's row is made (or found, for an entity
   * listed twice) in arrays sized up front, the table looked up once per run of one class.
   */
  const first = (items: readonly unknown[]): unknown[] => {
    const n = items.length;
    const out: unknown[] = new Array(n);
    const kept: (Kept<R> | undefined)[] = new Array(n);
    let type: unknown;
    let table: Map<unknown, Kept<R>> | undefined;
    for (let i = 0; i < n; i++) {
      const item = items[i];
      if (!(item instanceof Entity)) {
        out[i] = item;
        continue;
      }
      if (Object.getPrototypeOf(item) !== type) {
        type = Object.getPrototypeOf(item);
        table = tables.get(type);
        if (!table) tables.set(type, (table = new Map()));
      }
      const pk = item.pk();
      let k = table!.get(pk);
      if (!k) {
        table!.set(pk, (k = { source: item, row: kind.create(item), pk, seen: visit }));
        count++;
        seen++;
      } else if (k.source !== item) {
        kind.update(k.row, item); // the same entity listed twice, as another record
        k.source = item;
      }
      out[i] = k.row;
      kept[i] = k;
    }
    lists.set(out, { items, kept });
    return out;
  };

  const list = (items: readonly unknown[], previous: unknown): unknown[] => {
    const last = Array.isArray(previous) ? (previous as unknown[]) : undefined;
    const before = last && lists.get(last);
    if (!before && count === 0) return first(items);
    // while every row is the one `last` holds at its position, nothing is allocated
    let out: unknown[] | undefined = before && last!.length === items.length ? undefined : [];
    let kept: (Kept<R> | undefined)[] = out ? [] : (before!.kept as (Kept<R> | undefined)[]);
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

  /**
   * `data` when it holds the rows `last` holds, the same way (only records changed): `last`, with the changed
   * records' rows updated; `undefined` otherwise. No row leaves then, so none is marked or swept.
   */
  const unchanged = (data: unknown): unknown => {
    if (Array.isArray(data)) {
      const list = Array.isArray(last) ? lists.get(last) : undefined;
      return list !== undefined && sameRows(data, list) ? last : undefined;
    }
    if (!isPlain(data) || !isPlain(last)) return undefined;
    const before = last;
    let size = 0;
    for (const key in data) {
      if (!Object.hasOwn(data, key)) continue;
      size++;
      const value = data[key];
      const was = before[key];
      if (Array.isArray(value)) {
        const list = Array.isArray(was) ? lists.get(was) : undefined;
        if (list === undefined || !sameRows(value, list)) return undefined;
      } else if (value instanceof Entity) {
        if (keep(value).row !== was) return undefined;
      } else if (value !== was || !Object.hasOwn(before, key)) return undefined;
    }
    return size === Object.keys(before).length ? before : undefined;
  };

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
    // a list whose rows are those of the last one (a write that changed records only) is compared here, not through
    // `unchanged`: one call less on every write's path
    const list = Array.isArray(data) && Array.isArray(last) ? lists.get(last) : undefined;
    if (list !== undefined) {
      if (sameRows(data as unknown[], list)) return last as T;
    } else if (last !== undefined) {
      const same = unchanged(data);
      if (same !== undefined) return same as T;
    }
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
