/**
 * The equality short-cuts of a normalize: what did not change keeps its identity, and a record met again
 * in the same response is compared field by field in its order.
 */
import { hasOwn, isPlainObject, jsonEqual } from '../safeObject.js';

/** A record written by this normalize and met again: its fields in order, to compare its next repeats by position. */
export interface Repeated {
  readonly record: object;
  readonly fields: readonly string[];
  readonly values: readonly unknown[];
}

/** The fields and values of `record` in order, to compare its repeats by position. */
export function repeatedOf(record: object): Repeated {
  const fields = Object.keys(record);
  const values = new Array<unknown>(fields.length);
  for (let i = 0; i < fields.length; i++) values[i] = (record as Record<string, unknown>)[fields[i] as string];
  return { record, fields, values };
}

/**
 * Whether every field of `incoming` equals the repeated record's, comparing by position; `undefined` when
 * its fields do not come in the record's order.
 */
export function sameAsRepeated(seen: Repeated, incoming: Record<string, unknown>): boolean | undefined {
  const fields = seen.fields;
  const values = seen.values;
  let i = 0;
  for (const field in incoming) {
    if (field !== fields[i]) return undefined;
    const value = incoming[field];
    const stored = values[i++];
    if (value !== stored && (typeof value !== 'object' || value === null || !jsonEqual(value, stored))) return false;
  }
  return true;
}

/**
 * Keeps the identity of what did not change: the stored record itself when equal, otherwise its nested
 * values that are equal (so a read of an unchanged nested value stays ===). `next` is ours to change.
 */
export function shareUnchanged(next: unknown, existing: unknown): unknown {
  if (jsonEqual(next, existing)) return existing;
  if (isPlainObject(next) && isPlainObject(existing) && next !== existing) {
    for (const key of Object.keys(next)) {
      const value = next[key];
      if (
        typeof value === 'object' &&
        value !== null &&
        hasOwn.call(existing, key) &&
        jsonEqual(value, existing[key])
      ) {
        next[key] = existing[key];
      }
    }
  }
  return next;
}
