/**
 * Checks of a normalize's input that are not part of its walk: a nested entity given as a reference,
 * plain fields that must stay trees, and the pk named in a validator's error.
 */
import { NormalizeError, describeKind } from '../../errors.js';
import { plainPk, usablePk, type Entity } from '../Entity.js';
import type { EntityPlan, SchemaFieldPlan } from '../entityPlan.js';
import { hasCycle } from '../safeObject.js';

/**
 * A nested entity given as its pk (`author: 23`, `todos: ['5', '6']`) is kept as that reference; `false`
 * and `''` stand for "no entity" and pass through. Anything else cannot name an entity.
 */
export function referenceTo(plan: EntityPlan, input: unknown): unknown {
  if (input === false || input === '') return input;
  if ((typeof input === 'string' && plainPk(input)) || (typeof input === 'number' && Number.isFinite(input))) {
    return String(input);
  }
  throw new NormalizeError(
    plan.key,
    process.env.NODE_ENV !== 'production'
      ? `expected an object or a pk (a string or a finite number) but got ${describeKind(input)}.`
      : 'pk',
    input,
  );
}

/** The pk of a record a validator refused, if `pk()` can make one of it (for the error's message). */
export function pkOf(
  Cls: typeof Entity,
  record: object,
  parent: unknown,
  key: string | undefined,
  args: readonly unknown[],
): string | undefined {
  try {
    // a usable one only: pk() of a partial record may make 'undefined' of its missing field
    return usablePk('', Cls.pk(record, parent, key, args), record);
  } catch {
    return undefined;
  }
}

/** Whether `field` is one of the plan's nested-schema fields (a scan: they are few, and their names are interned). */
function isSchemaField(plan: EntityPlan, field: string): boolean {
  const fields = plan.schemaFields;
  for (let i = 0; i < fields.length; i++) if ((fields[i] as SchemaFieldPlan).name === field) return true;
  return false;
}

/** Plain (non-schema) values must be trees too: the store has to survive JSON.stringify. */
export function checkPlainFields(plan: EntityPlan, processed: Record<string, unknown>): void {
  for (const field in processed) {
    const value = processed[field];
    if (typeof value === 'object' && value !== null && !isSchemaField(plan, field) && hasCycle(value)) {
      throw new NormalizeError(
        plan.key,
        process.env.NODE_ENV !== 'production'
          ? 'the input contains a cycle: a field refers back to an object that contains it.'
          : 'cycle',
        value,
      );
    }
  }
}
