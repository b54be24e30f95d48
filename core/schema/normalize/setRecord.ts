/**
 * A one-record write of a plain entity class, `controller.set(Todo, { id }, { id, title })`, in one function:
 * what `normalizeInto` does for it (the pk, the default merge, the copy-on-write of the two tables, the write's
 * step) without the `Normalizer` and `TableWriter` made per write and the dozen functions they run. A fresh page
 * runs a write's code before the engine has its type feedback (a function gets it after 8 calls), so a write
 * that runs fewer functions costs it less (see docs/performance.md).
 *
 * It answers only where it gives exactly what `normalizeInto` gives (the same tables, records, meta, `changed`
 * and step); anything else (a class with its own process, pk, merge, validate, validator or write policy, nested
 * schema fields, an object among the written fields, a stored record that is not a plain object or was written by
 * a request not older than this one, tables with a prototype) is `undefined`, and the caller normalizes.
 */
import { planOf } from '../entityPlan.js';
import { copyTable, hasOwn, isPlainObject, ownValue } from '../safeObject.js';
import { plainPk, usablePk } from '../Entity.js';
import { forgetDerived } from '../tableDerived.js';
import type { EntityMeta, NormalizedTables } from '../types.js';
import { recordStep } from '../writeSteps.js';

/** The tables after a one-record write and the record it changed (none when it held the value already). */
export interface RecordWrite extends NormalizedTables {
  readonly changed: [key: string, pk: string][];
}

/**
 * `value` written into the record of `schema` it names, as `normalizeInto(schema, value, args, tables, meta,
 * owned)` writes it, or `undefined` when this write is not one that it takes (see above). Tables in `owned` are
 * written in place, as the store's `TableWriter` writes them.
 */
export function setRecord(
  schema: unknown,
  value: unknown,
  args: readonly unknown[],
  tables: NormalizedTables,
  meta: EntityMeta,
  owned: WeakSet<object>,
): RecordWrite | undefined {
  const plan = planOf(schema);
  const pkFields = plan?.pkFields; // found by the class's first normalize
  if (
    pkFields === undefined ||
    !isPlainObject(value) ||
    !plan!.defaultProcess ||
    !plan!.defaultPk ||
    !plan!.defaultMerge ||
    plan!.schemaFields.length !== 0 ||
    plan!.validator ||
    plan!.validate ||
    plan!.writePolicy
  )
    return undefined;
  const key = plan!.key;
  const entities = tables.entities;
  const entitiesMeta = tables.entitiesMeta;
  const table = ownValue(entities, key);
  const metaTable = ownValue(entitiesMeta, key);
  if (table === undefined || metaTable === undefined) return undefined;
  for (let i = 0; i < pkFields.length; i++) {
    const v = value[pkFields[i]!];
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return undefined;
  }
  // at the top level the input is its own parent (as normalize calls it); an unusable pk throws as there
  const rawPk = plan!.pkMethod.call(value, value, undefined, args);
  const pk = typeof rawPk === 'string' && plainPk(rawPk) ? rawPk : usablePk(key, rawPk ?? undefined, value);
  const existing = ownValue(table, pk);
  const existingMeta = ownValue(metaTable, pk);
  // a stored plain record, written by an older request (an equal stamp may keep it without a write)
  if (!isPlainObject(existing) || existingMeta === undefined || !(existingMeta.fetchedAt < meta.fetchedAt))
    return undefined;
  // no object among the written fields (normalize checks those for cycles and shares them), and whether the
  // merge keeps the stored record (every written field holds its value already)
  let same = true;
  for (const field in value) {
    const v = value[field];
    if (typeof v === 'object' && v !== null) return undefined;
    const s = existing[field];
    if (same && !(hasOwn.call(existing, field) && (v === s || (v !== v && s !== s)))) same = false;
  }
  const changed: [key: string, pk: string][] = [];
  let nextEntities = entities;
  if (!same) {
    changed[0] = [key, pk];
    (nextEntities = copyTable(entities))[key] = writable(table, owned);
    nextEntities[key]![pk] = { ...existing, ...value };
  }
  const nextMeta = copyTable(entitiesMeta);
  (nextMeta[key] = writable(metaTable, owned))[pk] = meta;
  if (!same) recordStep(nextEntities, entities, changed);
  return { entities: nextEntities, entitiesMeta: nextMeta, changed };
}

/** `table` itself when the store owns it (what was derived from it dropped), else a copy, owned from now on. */
function writable<T extends object>(table: T, owned: WeakSet<object>): T {
  if (owned.has(table)) {
    forgetDerived(table);
    return table;
  }
  const copy = copyTable(table as never) as T;
  owned.add(copy);
  return copy;
}
