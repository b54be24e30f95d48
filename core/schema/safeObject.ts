/**
 * Objects that hold data keyed by strings from the network. Keys such as `__proto__`, `constructor` and
 * `prototype` must stay plain data: they never reach `Object.prototype` nor change an object's class.
 */

/** `Object.prototype.hasOwnProperty`, to `call` on any object (prototype-free ones too). */
export const hasOwn = Object.prototype.hasOwnProperty;

/** Reads `table[key]` as data only (never from `Object.prototype`). */
export function ownValue<T>(table: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  if (table === undefined) return undefined;
  const value = table[key];
  return value !== undefined && hasOwn.call(table, key) ? value : undefined;
}

/** A new empty object without a prototype: any string is a safe own key. */
export function emptyTable<T = unknown>(): { [key: string]: T } {
  return Object.create(null) as { [key: string]: T };
}

/** A prototype-free shallow copy of a table (copy-on-write). */
export function copyTable<T>(table: { readonly [key: string]: T } | undefined): { [key: string]: T } {
  const copy = emptyTable<T>();
  if (table) for (const key of Object.keys(table)) copy[key] = table[key] as T;
  return copy;
}

/** Sets `target[key] = value`, defining `__proto__` as an own data property instead of changing the prototype. */
export function assignField(target: object, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (target as Record<string, unknown>)[key] = value;
  }
}

/** A plain object (or a prototype-free one): not an array, not a class instance such as Date. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Structural equality of JSON-like values (primitives, arrays, plain objects). Used to keep a stored
 * record's identity when a response repeats what the store already holds.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return a !== a && b !== b; // NaN
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  // own keys counted with key loops, not `Object.keys` (two arrays per object compared: every write
  // compares each record it writes with the stored one)
  let count = 0;
  for (const key in a) {
    if (!hasOwn.call(a, key)) continue;
    if (!hasOwn.call(b, key) || !jsonEqual(a[key], b[key])) return false;
    count++;
  }
  for (const key in b) if (hasOwn.call(b, key)) count--;
  return count === 0;
}

/**
 * Whether a JSON-like value holds an object inside itself (which `JSON.stringify` cannot write).
 * Iterative, so deeply nested input cannot overflow the stack; the same object reached twice without
 * being nested in itself is not a cycle.
 */
export function hasCycle(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const onPath = new Set<object>();
  const path: object[] = [];
  const explored = new Set<object>();
  const EXIT = null;
  const stack: (object | typeof EXIT)[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as object | typeof EXIT;
    if (node === EXIT) {
      const done = path.pop() as object;
      onPath.delete(done);
      explored.add(done);
      continue;
    }
    if (onPath.has(node)) return true;
    if (explored.has(node)) continue;
    onPath.add(node);
    path.push(node);
    stack.push(EXIT);
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}
