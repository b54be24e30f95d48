/**
 * The records a snapshot brings in (another tab, a save in storage) pass the checks a response's records pass:
 * the `static validator` and `static validate` of their entity class, at the restore for the classes the page has
 * used, and for the others when the class is first used. Only apps that restore snapshots bundle it.
 */
import { SnapshotError } from '../errors.js';
import { entityPlans, validated, type Entity, type EntityPlan } from '../schema/index.js';
import type { State } from './state.js';
import type { Store } from './Store.js';

/**
 * Why the checks of `Cls` refuse `record` (stored at `key`/`pk`), or `undefined`. A record is checked as it is
 * stored (the validator's output, nested entities as their pks), so the `static validator` of a class that nests
 * entities is not run (it would refuse their pks), nor is an async one (a response refuses it anyway);
 * `static validate` is, as reads run it on stored records.
 */
function problemOf(Cls: Function, plan: EntityPlan, record: unknown, pk: string): string | undefined {
  // the class's validator as it is now (one assigned after the class's first use counts)
  const validator = (Cls as typeof Entity).validator;
  try {
    const output =
      validator && plan.schemaFields.length === 0
        ? validated(validator, record, () => ({ entity: plan.key, pk }))
        : undefined;
    if (output instanceof Promise) output.catch(() => undefined);
    return plan.validate?.(record as Record<string, unknown>);
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Throws a `SnapshotError` naming the first record of `state` (a restored snapshot) that its entity's checks
 * refuse, with their message: a snapshot is restored whole or not at all, as a response is written whole or not
 * at all. The classes are those this build has used (`entityPlans`): a table no class of it has read or written
 * yet is taken as it is, and checked when its class is first used (see `checkLater`). Two classes of one table:
 * a record passes the checks of both.
 */
export function checkRecords(state: State): void {
  for (const [Cls, plan] of entityPlans) {
    const key = plan.key;
    const table = state.entities[key];
    if (table === undefined || !(plan.validate || (Cls as typeof Entity).validator)) continue;
    for (const pk in table) {
      const problem = problemOf(Cls, plan, table[pk], pk);
      if (problem)
        throw new SnapshotError(
          `entities.${key}.${pk}`,
          process.env.NODE_ENV !== 'production' ? `${problem}; nothing of the snapshot was written` : problem,
        );
    }
  }
}

/** A store's records restored before their class was used: per table, the pks; and how it drops refused ones. */
interface Unchecked {
  readonly ref: WeakRef<Store>;
  readonly tables: Map<string, Set<string>>;
  readonly drop: (entities: [string, string][]) => void;
}

/** Per store (held weakly: a store nobody keeps is not kept for a class never used). */
const unchecked = new WeakMap<Store, Unchecked>();
/** The tables waiting for their class's first use, and the stores holding such records. */
const waiting = new Map<string, Set<WeakRef<Store>>>();
/** Whether `entityPlans.set` runs `firstUse` (see `checkLater`). */
let watching = false;

/**
 * @internal After `state` (a restored snapshot) was merged into `store`: its records of tables that no class this page has
 * used owns are checked when such a class is first used (its plan is made, before its first read or write of
 * them). A record then refused reads as missing at once, is reported with a warning (a `SnapshotError`'s
 * message) and is dropped from the store by `drop` in a microtask (when it is still the record stored: a write
 * since replaced it). Nothing per record read: the reads of a class ask only while it has refused records.
 */
export function checkLater(store: Store, state: State, drop: (entities: [string, string][]) => void): void {
  let known: Set<string> | undefined;
  for (const key in state.entities) {
    known ??= new Set([...entityPlans.values()].map((plan) => plan.key));
    if (known.has(key)) continue;
    let entry = unchecked.get(store);
    if (!entry) unchecked.set(store, (entry = { ref: new WeakRef(store), tables: new Map(), drop }));
    let pks = entry.tables.get(key);
    if (!pks) entry.tables.set(key, (pks = new Set()));
    for (const pk in state.entities[key]) pks.add(pk);
    let stores = waiting.get(key);
    if (!stores) waiting.set(key, (stores = new Set()));
    stores.add(entry.ref);
  }
  if (!watching) {
    // a plan is made once per class, by `entityPlan`, which then sets it here: this module, bundled only by apps
    // that restore snapshots, is told of each first use without a hook on every app's way
    watching = true;
    const set = entityPlans.set;
    entityPlans.set = function (Cls, plan) {
      set.call(this, Cls, plan);
      firstUse(Cls as typeof Entity, plan);
      return this;
    };
  }
}

/** A class's plan was made: the records restored before into its table are checked now (see `checkLater`). */
function firstUse(Cls: typeof Entity, plan: EntityPlan): void {
  const key = plan.key;
  const stores = waiting.get(key);
  if (!stores) return;
  waiting.delete(key);
  const refused = new WeakSet<object>();
  const drops: (() => void)[] = [];
  for (const ref of stores) {
    const store = ref.deref();
    const entry = store && unchecked.get(store);
    const pks = entry?.tables.get(key);
    if (!pks) continue;
    entry!.tables.delete(key);
    const table = store!.current.entities[key];
    const gone: [string, string, object][] = [];
    for (const pk of pks) {
      const record = table?.[pk];
      if (typeof record !== 'object' || record === null) continue; // INVALID is a symbol
      const problem = problemOf(Cls, plan, record, pk);
      if (!problem) continue;
      refused.add(record);
      gone.push([key, pk, record]);
      const error = new SnapshotError(
        `entities.${key}.${pk}`,
        process.env.NODE_ENV !== 'production'
          ? `${problem}; restored before ${key} was first used, it is dropped (read as missing)`
          : problem,
      );
      console.warn(`${error.name}: ${error.message}`);
    }
    if (gone.length)
      drops.push(() => {
        // a record that a write replaced meanwhile is that write's: kept
        const entities = gone.filter(([, pk, record]) => store!.current.entities[key]?.[pk] === record);
        if (entities.length) entry!.drop(entities.map(([table, pk]) => [table, pk]));
      });
  }
  if (drops.length === 0) return;
  // until they are dropped (the plan is made in the middle of a read or a write), its reads take them for missing,
  // and a write (a partial one, perhaps the one that made the plan) replaces one instead of merging into it
  const own = plan.validate;
  const policy = plan.writePolicy;
  const rules = policy ?? Cls;
  const guarded = plan as { validate: EntityPlan['validate']; writePolicy: EntityPlan['writePolicy'] };
  guarded.validate = (record: Readonly<Record<string, unknown>>) => (refused.has(record) ? 'refused' : own?.(record));
  guarded.writePolicy = {
    shouldUpdate: (...args: Parameters<typeof Cls.shouldUpdate>) => refused.has(args[2]) || rules.shouldUpdate(...args),
    shouldReorder: (...args: Parameters<typeof Cls.shouldReorder>) =>
      !refused.has(args[2]) && rules.shouldReorder(...args),
    merge: (stored: Record<string, unknown>, incoming: Record<string, unknown>) =>
      refused.has(stored) ? incoming : rules.merge(stored, incoming),
  } as unknown as typeof Entity;
  queueMicrotask(() => {
    guarded.validate = own;
    guarded.writePolicy = policy;
    for (const run of drops) run();
  });
}
