import { SchemaNode } from './SchemaNode.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';
import type { Union } from './Union.js';
import type { Values } from './Values.js';
import { assignField, hasOwn } from './safeObject.js';

/**
 * The merges of a Collection of `schema.Values`, whose stored value is an object of references
 * (`{ '10': '10' }`, or `{ id, schema }` for the members of a Union) rather than a list.
 */
export type EntriesMerge = (
  existing: Readonly<Record<string, unknown>>,
  incoming: Readonly<Record<string, unknown>>,
) => Record<string, unknown>;

/** A schema.Values, known without importing it (collections of lists leave it out of a bundle). */
export function isValues(schema: unknown): schema is Values<unknown, SchemaAttribute | undefined> {
  return schema instanceof SchemaNode && (schema as { isValues?: unknown }).isValues === true;
}

/** The identity of a stored reference: its pk, or `schema\u0000id` for a member of a Union. */
export function itemKey(item: unknown): unknown {
  return typeof item === 'object' && item !== null
    ? `${(item as { schema?: unknown }).schema}\u0000${(item as { id?: unknown }).id}`
    : item;
}

/**
 * A copy of `entries` without the keys in `skip`: a loop over its keys, about twice as fast as a spread for a
 * large object (one in dictionary mode); an entry keyed `__proto__` stays an own entry.
 */
function copyEntries(
  entries: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  skip?: ReadonlySet<string>,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (skip?.has(key)) continue;
    if (key === '__proto__') assignField(copy, key, entries[key]);
    else copy[key] = entries[key];
  }
  return copy;
}

/**
 * Adds the incoming entries (data-client's `assign`): the same object when nothing changes (an entry holding
 * the same reference, of a Union's member too, is no change). Otherwise one copy of the object with the
 * changed entries set: what the write then stores without comparing the unchanged ones (see `writeMerged`).
 */
export const assignEntries: EntriesMerge = (existing, incoming) => {
  let next: Record<string, unknown> | undefined;
  for (const key of Object.keys(incoming)) {
    const value = incoming[key];
    if (hasOwn.call(existing, key)) {
      const current = existing[key];
      if (current === value || itemKey(current) === itemKey(value)) continue;
    }
    assignField((next ??= copyEntries(existing, Object.keys(existing))), key, value);
  }
  return next ?? (existing as Record<string, unknown>);
};

/**
 * Removes the entries holding one of the incoming references: the same object when none is there. One look at
 * each entry finds them; only then is the object copied, without them.
 */
export const removeEntries: EntriesMerge = (existing, incoming) => {
  const gone = new Set(Object.values(incoming).map(itemKey));
  const keys = Object.keys(existing);
  let removed: Set<string> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (gone.has(itemKey(existing[key]))) (removed ??= new Set()).add(key);
  }
  return removed === undefined ? (existing as Record<string, unknown>) : copyEntries(existing, keys, removed);
};

/** The object key of a reference in a Values collection: the pk (of a Union member, its id). */
export function entryKey(ref: unknown): string {
  return typeof ref === 'object' && ref !== null ? String((ref as { id: unknown }).id) : String(ref);
}

/** Combines the pks of a stored collection with the pks of newly added items. */
export type CollectionMerge = (existing: readonly string[], incoming: readonly string[]) => string[];

function addedItems(existing: readonly unknown[], incoming: readonly unknown[]): unknown[] {
  const seen = new Set(existing.map(itemKey));
  return incoming.filter((item) => {
    const key = itemKey(item);
    return !seen.has(key) && (seen.add(key), true);
  });
}

/** A schema.Union, known without importing it (collections of one entity leave the polymorphic code out). */
export function isUnion(schema: unknown): schema is Union {
  return schema instanceof SchemaNode && (schema as { isUnion?: unknown }).isUnion === true;
}

/** Appends the incoming pks that are not already in the list. */
export const appendUnique: CollectionMerge = (existing, incoming) => {
  const added = addedItems(existing, incoming) as string[];
  return added.length ? [...existing, ...added] : (existing as string[]);
};

/** Prepends the incoming pks that are not already in the list. */
export const prependUnique: CollectionMerge = (existing, incoming) => {
  const added = addedItems(existing, incoming) as string[];
  return added.length ? [...added, ...existing] : (existing as string[]);
};

/**
 * Removes the incoming items from the list (the same list when none of them was in it): pks, or the
 * `{ id, schema }` references of a Union's members, compared by id and member.
 */
export const removeItems: CollectionMerge = (existing, incoming) => {
  const gone = new Set(incoming.map(itemKey));
  const kept = existing.filter((item) => !gone.has(itemKey(item)));
  return kept.length === existing.length ? (existing as string[]) : kept;
};
