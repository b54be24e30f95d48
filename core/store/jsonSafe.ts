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
 * iterative (no depth limit from the stack); an object with `toJSON` (a date) is written by it and not looked into
 * (a state's or snapshot's, which writes it as it is, is).
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
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    // a state's or snapshot's own toJSON writes it as it is (see `jsonChecked`)
    if (seen.has(current) || (typeof toJSON === 'function' && toJSON !== stateToJSON && toJSON !== snapshotToJSON))
      continue;
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

/** Throws a `SnapshotError` from `source` naming the first bigint in `value` (JSON's own TypeError names nothing). */
function bigintChecked<T extends object>(value: T, source: string): T {
  const problem = jsonProblem(value, false);
  if (problem !== undefined) throw new SnapshotError(problem[0], problem[1], source);
  return value;
}

function stateToJSON(this: object): object {
  return bigintChecked(this, 'JSON.stringify(getState())');
}

function snapshotToJSON(this: object): object {
  return bigintChecked(this, 'JSON.stringify(takeSnapshot())');
}

/**
 * @internal Gives a state handed out (`getState()`, `state$`) or a snapshot a `toJSON` that JSON.stringify calls
 * (once, before it writes the value as it is): a bigint in it then throws a `SnapshotError` naming its path
 * (`entities.Todo.2.amount`) instead of JSON's TypeError that names nothing. Not enumerable: no key of the state,
 * and structured clone (postMessage) leaves it out. The check costs a walk of the value on each JSON.stringify only.
 * In development builds: a production build writes the state as before (JSON's TypeError).
 */
export function jsonChecked<T extends object>(value: T, snapshot?: boolean): T {
  // development only (as persist's names): a production build keeps JSON's own TypeError, and none of this code
  if (process.env.NODE_ENV !== 'production' && !Object.hasOwn(value, 'toJSON'))
    Object.defineProperty(value, 'toJSON', { value: snapshot ? snapshotToJSON : stateToJSON, configurable: true });
  return value;
}
