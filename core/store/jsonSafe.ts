/**
 * Values that JSON cannot write in the state (a `bigint`, which `JSON.stringify` throws on; a function or a symbol,
 * which it leaves out): found with the path to them, for an error that names the entity and field. The store keeps
 * such values (an app may keep a callback in a record for its own reads); what writes the state as JSON says where
 * they are instead of throwing a bare TypeError or silently losing them.
 */
import { SnapshotError } from '../errors.js';

/** One value to look at, and how it was reached (the path is built only for the value reported). */
interface Step {
  readonly value: unknown;
  readonly parent: Step | undefined;
  readonly key: string;
}

function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/** What JSON does not write of `value`, if anything: `strict`, also what it leaves out (a function, a symbol). */
function problemOf(value: unknown, strict: boolean): string | undefined {
  switch (typeof value) {
    case 'bigint':
      // an app that gives BigInt a toJSON has JSON write it
      return typeof (value as unknown as { toJSON?: unknown }).toJSON === 'function'
        ? undefined
        : 'a bigint cannot be written as JSON (JSON.stringify throws on it)';
    case 'function':
      return strict ? 'a function cannot be written as JSON (it would be left out, and lost)' : undefined;
    case 'symbol':
      return strict ? 'a symbol cannot be written as JSON (it would be left out, and lost)' : undefined;
    default:
      return undefined;
  }
}

/**
 * The first value in `value` that JSON cannot write (`strict`: or would leave out), as `[path, what is wrong]`;
 * iterative (no depth limit from the stack); an object with `toJSON` (a date) is written by it and not looked into.
 */
export function jsonProblem(value: unknown, strict: boolean): readonly [path: string, detail: string] | undefined {
  const seen = new WeakSet<object>();
  const stack: Step[] = [{ value, parent: undefined, key: '' }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const current = step.value;
    if (typeof current !== 'object' || current === null) {
      const problem = problemOf(current, strict);
      if (problem !== undefined) return [pathOf(step), problem];
      continue;
    }
    if (seen.has(current) || typeof (current as { toJSON?: unknown }).toJSON === 'function') continue;
    seen.add(current);
    const keys = Object.keys(current);
    // pushed last first: the first problem in the order JSON writes is reported
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ value: (current as Record<string, unknown>)[key], parent: step, key });
    }
  }
  return undefined;
}

/**
 * @internal Throws a `SnapshotError` naming `source` and the path (`entities.Todo.1.amount`) of the first value in
 * `value` that JSON cannot write or would leave out (a `bigint`, a function, a symbol); the value is not changed.
 * For what writes the state as JSON (`core/internal.ts`; the add-ons import only the core's index.ts, so they reach
 * it once it is exported there).
 *
 * @example
 * assertJsonSafe(takeSnapshot(controller), 'persist(controller)');
 */
export function assertJsonSafe(value: unknown, source: string): void {
  const problem = jsonProblem(value, true);
  if (problem !== undefined) throw new SnapshotError(problem[0], problem[1], source);
}
