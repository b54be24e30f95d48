import { SchemaNode } from './SchemaNode.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';
import type { Union } from './Union.js';
import type { Values } from './Values.js';
import { assignField } from './safeObject.js';

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

/** Adds the incoming entries (data-client's `assign`): the same object when nothing changes. */
export const assignEntries: EntriesMerge = (existing, incoming) => {
  const keys = Object.keys(incoming);
  if (keys.every((key) => Object.prototype.hasOwnProperty.call(existing, key) && existing[key] === incoming[key]))
    return existing as Record<string, unknown>;
  return { ...existing, ...incoming };
};

/** Removes the entries holding one of the incoming references: the same object when none is there. */
export const removeEntries: EntriesMerge = (existing, incoming) => {
  const gone = new Set(Object.values(incoming).map(itemKey));
  const kept: Record<string, unknown> = {};
  let removed = false;
  for (const key of Object.keys(existing)) {
    if (gone.has(itemKey(existing[key]))) removed = true;
    else assignField(kept, key, existing[key]); // an entry keyed `__proto__` stays an own entry
  }
  return removed ? kept : (existing as Record<string, unknown>);
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
