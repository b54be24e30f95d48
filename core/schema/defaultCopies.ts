import { assignField, isPlainObject } from './safeObject.js';

/**
 * Class defaults that a read copies for each instance: an array or a plain object (not frozen), a Date, a
 * Map or a Set would otherwise be one object shared by every instance read from a record lacking that
 * field, and by the class's defaults (data-client runs the field initializers per instance, so each has
 * its own). A Date, Map or Set is copied even frozen (freezing leaves its contents mutable). Other class
 * instances (Temporal, Entity) and primitives are shared as they are.
 */
function isCopied(value: unknown): value is object {
  return Array.isArray(value) || isPlainObject(value)
    ? !Object.isFrozen(value)
    : value instanceof Date || value instanceof Map || value instanceof Set;
}

/** The names of the class defaults that a read copies (see `copyDefault`), or `undefined` when none is. */
export function copiedDefaults(defaults: Readonly<Record<string, unknown>>): ReadonlySet<string> | undefined {
  const names = Object.keys(defaults).filter((name) => isCopied(defaults[name]));
  return names.length === 0 ? undefined : new Set(names);
}

type CopyConstructor = new (source: unknown) => object;

/**
 * A copy of a class default for one instance: arrays and plain objects copied through, a Date, Map or Set
 * by its own constructor (a subclass stays one; a Map's or Set's members are shared), anything else shared.
 */
export function copyDefault(value: unknown): unknown {
  if (!isCopied(value)) return value;
  if (Array.isArray(value)) return value.map(copyDefault);
  // a Date, Map or Set (`new Date(date)` takes the date's time value exactly, ES2015)
  if (!isPlainObject(value)) return new (value.constructor as CopyConstructor)(value);
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) assignField(copy, key, copyDefault((value as Record<string, unknown>)[key]));
  return copy;
}
