/**
 * The arguments a collection's lists are stored under: the list's pk made of them (`collectionArgsKey`),
 * read back (`parseArgsKey`), and the request's arguments read as data.
 */
import { emptyTable, hasOwn } from './safeObject.js';

/** An argument of a request as data: never read through the prototype (`__proto__`, `constructor`). */
export function ownArg(source: unknown, key: string): unknown {
  return typeof source === 'object' && source !== null && hasOwn.call(source, key)
    ? (source as Record<string, unknown>)[key]
    : undefined;
}

/** One argument value as stored in a collection pk: objects as JSON, everything else via String(). */
export function argString(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * Serializes arguments into a stable collection pk: keys sorted, `undefined` dropped, values as strings.
 * `{ userId: 1, done: undefined }` -> `{"userId":"1"}`.
 */
export function collectionArgsKey(args: unknown): string {
  const out: Record<string, string> = emptyTable();
  if (args && typeof args === 'object') {
    const source = args as Record<string, unknown>;
    for (const key of Object.keys(source).sort()) {
      const value = source[key];
      if (value === undefined) continue;
      out[key] = argString(value);
    }
  }
  return JSON.stringify(out);
}

/** The arguments a list's pk was made of (`collectionArgsKey`); `undefined` for a pk that is not such a key. */
export function parseArgsKey(pk: string): Record<string, string> | undefined {
  try {
    const parsed: unknown = JSON.parse(pk);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}
