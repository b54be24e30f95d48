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
import { copyTable, hasOwn } from '../safeObject.js';
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
  if (
    plan === undefined ||
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !plan.defaultProcess ||
    !plan.defaultPk ||
    !plan.defaultMerge ||
    plan.schemaFields.length !== 0 ||
    plan.validator !== undefined ||
    plan.validate !== undefined ||
    plan.writePolicy !== undefined
  )
    return undefined;
  const pkFields = plan.pkFields;
  if (pkFields === undefined) return undefined; // found on the first normalize of the class
  const incoming = value as Record<string, unknown>;
  const proto: unknown = Object.getPrototypeOf(incoming);
  if (proto !== Object.prototype && proto !== null) return undefined; // its own fields only (what a spread copies)
  // the written fields: no object (a nested value is checked for cycles and shared with the stored one)
  for (const field in incoming) {
    const v = incoming[field];
    if (typeof v === 'object' && v !== null) return undefined;
  }
  for (let i = 0; i < pkFields.length; i++) {
    const v = incoming[pkFields[i] as string];
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return undefined;
  }
  const key = plan.key;
  const entities = tables.entities;
  const entitiesMeta = tables.entitiesMeta;
  const table = hasOwn.call(entities, key) ? entities[key] : undefined;
  const metaTable = hasOwn.call(entitiesMeta, key) ? entitiesMeta[key] : undefined;
  if (
    table === undefined ||
    metaTable === undefined ||
    Object.getPrototypeOf(table) !== null ||
    Object.getPrototypeOf(metaTable) !== null
  )
    return undefined;
  // at the top level the input is its own parent (as normalize calls it)
  const rawPk: unknown = plan.pkMethod.call(incoming, incoming, undefined, args);
  const pk =
    typeof rawPk === 'string'
      ? rawPk
      : typeof rawPk === 'number' && Number.isFinite(rawPk)
        ? String(rawPk)
        : undefined;
  if (pk === undefined || pk === '' || pk === 'undefined' || pk === 'null' || pk === 'NaN' || pk.startsWith('[object '))
    return undefined;
  const existing = table[pk];
  const existingMeta = metaTable[pk];
  // a stored plain record, written by an older request (an equal stamp may keep it without a write)
  if (
    typeof existing !== 'object' ||
    existing === null ||
    Array.isArray(existing) ||
    Object.getPrototypeOf(existing) !== Object.prototype ||
    existingMeta === undefined ||
    !(existingMeta.fetchedAt < meta.fetchedAt)
  )
    return undefined;
  const stored = existing as Record<string, unknown>;
  // the merge keeps the stored record when every written field holds its value already
  let same = true;
  for (const field in incoming) {
    const v = incoming[field];
    const s = stored[field];
    if (!(hasOwn.call(stored, field) && (v === s || (v !== v && s !== s)))) {
      same = false;
      break;
    }
  }
  const changed: [key: string, pk: string][] = [];
  let nextEntities = entities;
  if (!same) {
    changed[0] = [key, pk];
    nextEntities = copyTable(entities);
    let written = table;
    if (owned.has(table)) forgetDerived(table);
    else owned.add((written = copyTable(table)));
    nextEntities[key] = written;
    written[pk] = { ...stored, ...incoming };
  }
  const nextMeta = copyTable(entitiesMeta);
  let writtenMeta = metaTable;
  if (owned.has(metaTable)) forgetDerived(metaTable);
  else owned.add((writtenMeta = copyTable(metaTable)));
  nextMeta[key] = writtenMeta;
  writtenMeta[pk] = meta;
  if (nextEntities !== entities) recordStep(nextEntities, entities, changed);
  return { entities: nextEntities, entitiesMeta: nextMeta, changed };
}
