/**
 * Values that JSON cannot write in the state (a `bigint`, which `JSON.stringify` throws on; a function or a symbol,
 * which it leaves out): found with the path to them, for an error that names the entity and field. The store keeps
 * such values (an app may keep a callback in a record for its own reads); what writes the state as JSON says where
 * they are instead of throwing a bare TypeError or silently losing them.
 */
import { SnapshotError } from '../errors.js';
import type { Changes } from './reducer.js';

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

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

/**
 * How strictly a walk looks: 0, what JSON throws on (a bigint); 1, also what it leaves out (a function, a symbol);
 * 2, also what it changes (NaN and ±Infinity -> null, `undefined` in a list -> null, a Map or a Set -> {}).
 */
type Strictness = 0 | 1 | 2;

/** What JSON does not write of `value` (`inList`: an item of an array), if anything, at `strictness`. */
function problemOf(value: unknown, strictness: Strictness, inList: boolean): string | undefined {
  switch (typeof value) {
    case 'bigint':
      // an app that gives BigInt a toJSON has JSON write it
      return typeof (value as unknown as { toJSON?: unknown }).toJSON === 'function'
        ? undefined
        : 'a bigint cannot be written as JSON (JSON.stringify throws on it)';
    case 'function':
      return strictness > 0 ? 'a function cannot be written as JSON (it would be left out, and lost)' : undefined;
    case 'symbol':
      return strictness > 0 ? 'a symbol cannot be written as JSON (it would be left out, and lost)' : undefined;
    case 'number':
      return strictness > 1 && !Number.isFinite(value)
        ? `the number ${value} cannot be written as JSON (it would be written as null)`
        : undefined;
    case 'undefined':
      return strictness > 1 && inList
        ? 'undefined in a list cannot be written as JSON (it would be written as null)'
        : undefined;
    case 'object':
      return strictness > 1 && (value instanceof Map || value instanceof Set)
        ? `a ${value instanceof Map ? 'Map' : 'Set'} cannot be written as JSON (it would be written as {}, its entries lost)`
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The first value in `value` that JSON cannot write (or, by `strictness`, would leave out or change), as
 * `[path, what is wrong]`;
 * iterative (no depth limit from the stack); an object with `toJSON` (a date) is written by it and not looked into
 * (a state's or snapshot's, which writes it as it is, is).
 */
export function jsonProblem(
  value: unknown,
  strictness: Strictness,
  inList = false,
): readonly [path: string, detail: string] | undefined {
  const seen = new WeakSet<object>();
  const stack: Step[] = [{ value, parent: undefined, key: '' }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const current = step.value;
    if (typeof current !== 'object' || current === null) {
      const problem = problemOf(
        current,
        strictness,
        step.parent === undefined ? inList : Array.isArray(step.parent.value),
      );
      if (problem !== undefined) return [pathOf(step), problem];
      continue;
    }
    const kept = problemOf(current, strictness, false);
    if (kept !== undefined) return [pathOf(step), kept];
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
  const problem = jsonProblem(value, 1);
  if (problem !== undefined) throw new SnapshotError(problem[0], problem[1], source);
}

/** Throws a `SnapshotError` from `source` naming the first bigint in `value` (JSON's own TypeError names nothing). */
function bigintChecked<T extends object>(value: T, source: string): T {
  const problem = jsonProblem(value, 0);
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

/** Functions, Maps and Sets reported already: a callback an app keeps in a record is reported on its first write only. */
const reported = new WeakSet<object>();

/**
 * @internal Development only: warns when a write of the app's own (`controller.set`, `setResponse`: `source`) left a
 * value in the state that JSON would change or drop (a NaN, a Map, a function, `undefined` in a list; a bigint),
 * naming its path (`entities.Todo.1.score`) as a `SnapshotError` would. The store keeps the value as written. Only
 * the records and results the write changed are looked at.
 */
export function warnJsonLosses(
  state: { readonly entities: object; readonly endpoints: object },
  changes: Changes,
  source: string,
): void {
  // every value JSON would not keep, in the records and results the write changed
  const look = (value: unknown, at: string) => {
    const seen = new WeakSet<object>();
    const stack: [unknown, string, boolean][] = [[value, at, false]];
    for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
      const [current, path, inList] = step;
      const problem = problemOf(current, 2, inList);
      if (problem !== undefined) {
        // a callback (or a Map) kept in a record: reported on its first write only
        if (typeof current === 'function' || typeof current === 'object') {
          if (reported.has(current as object)) continue;
          reported.add(current as object);
        }
        console.warn(
          `${source}: ${path}: ${problem}. The store keeps it, but JSON.stringify(getState()), snapshots, persist and ` +
            'syncTabs would not: write a JSON value (a string, a finite number, null, a list, a plain object) or a type ' +
            'with a toJSON.',
        );
      } else if (
        typeof current === 'object' &&
        current !== null &&
        !seen.has(current) &&
        typeof (current as { toJSON?: unknown }).toJSON !== 'function'
      ) {
        seen.add(current);
        const list = Array.isArray(current);
        const keys = Object.keys(current);
        for (let i = keys.length - 1; i >= 0; i--)
          stack.push([(current as Record<string, unknown>)[keys[i] as string], `${path}.${keys[i]}`, list]);
      }
    }
  };
  const tables = state.entities as Record<string, Record<string, unknown> | undefined>;
  if (changes.entities !== 'all')
    for (const [key, pk] of changes.entities) {
      const table = tables[key];
      const record = table !== undefined && hasOwn(table, pk) ? table[pk] : undefined;
      // an INVALID marker (a symbol) is the state's own
      if (typeof record !== 'symbol') look(record, `entities.${key}.${pk}`);
    }
  const endpoints = state.endpoints as Record<string, unknown>;
  if (changes.endpoints !== 'all')
    for (const key of changes.endpoints) if (hasOwn(endpoints, key)) look(endpoints[key], `endpoints.${key}`);
}
