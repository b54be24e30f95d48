/**
 * The records a snapshot brings in (another tab, a save in storage) pass the checks a response's records pass:
 * the `static validator` and `static validate` of their entity class. Only apps that restore snapshots bundle it.
 */
import { SnapshotError } from '../errors.js';
import { entityPlans, validated, type Entity } from '../schema/index.js';
import type { State } from './state.js';

/**
 * Throws a `SnapshotError` naming the first record of `state` (a restored snapshot) that its entity's checks
 * refuse, with their message: a snapshot is restored whole or not at all, as a response is written whole or not
 * at all. The classes are those this build has used (`entityPlans`): a table no class of it has read or written
 * yet is taken as it is (two classes of one table: a record passes the checks of both). A record is checked as it
 * is stored (the validator's output, nested entities as their pks), so the `static validator` of a class that
 * nests entities is not run (it would refuse their pks), nor is an async one (a response refuses it anyway);
 * `static validate` is, as reads run it on stored records.
 */
export function checkRecords(state: State): void {
  for (const [Cls, plan] of entityPlans) {
    const key = plan.key;
    const table = state.entities[key];
    // the class's validator as it is now (one assigned after the class's first use counts)
    const validator = (Cls as typeof Entity).validator;
    if (table === undefined || !(plan.validate || validator)) continue;
    for (const pk in table) {
      const record = table[pk] as Record<string, unknown>;
      let problem: string | undefined;
      try {
        const output =
          validator && plan.schemaFields.length === 0
            ? validated(validator, record, () => ({ entity: key, pk }))
            : undefined;
        if (output instanceof Promise) output.catch(() => undefined);
        problem = plan.validate?.(record);
      } catch (error) {
        problem = (error as Error).message;
      }
      if (problem)
        throw new SnapshotError(
          `entities.${key}.${pk}`,
          process.env.NODE_ENV !== 'production' ? `${problem}; nothing of the snapshot was written` : problem,
        );
    }
  }
}
