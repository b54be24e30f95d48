/**
 * Development only: the check of what a Controller verb, or an adapter's function, is called on.
 * `fetch(undefined)`, `invalidate({})`, `expireAll(Todo)`, `createQuery('/todos')` and the like fail at once
 * with a TypeError naming the function and the argument, before anything reads or writes the store. Each
 * call site runs it under `process.env.NODE_ENV !== 'production'`, so a production build leaves the call and
 * this module out (and fails later, without the prose).
 */
import { isQueryable } from './StoreQueries.js';

/** What a verb takes first: an endpoint, a queryable (an Entity class, a schema), or either. */
type Takes = 'endpoint' | 'queryable' | 'either';

const expected: Record<Takes, string> = {
  endpoint: "an endpoint (a RestEndpoint, or a resource's member such as TodoResource.get)",
  queryable: 'an Entity class or a schema (schema.All, schema.Query, a Collection)',
  either: "an endpoint (a resource's member such as TodoResource.get), an Entity class or a schema",
};

/** `value` as the message names it: its kind, a function's or class's name, and where such a value comes from. */
function described(value: unknown, takes: Takes): string {
  if (isQueryable(value) && typeof value === 'function')
    return `the Entity class ${value.name}${takes === 'endpoint' ? ' (read one with controller.get or controller.observe)' : ''}`;
  if (typeof value === 'function') return `a function (${value.name || 'anonymous'}) without a key() method`;
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value)}${takes === 'queryable' ? '' : ' (an endpoint builds its URL: give it as path and urlPrefix)'}`;
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  if (value === undefined) return 'undefined (a misspelt import, or one that a circular import has not set yet)';
  return value === null || typeof value !== 'object' ? String(value) : 'a plain object';
}

/**
 * Throws a TypeError naming `call` (the function as the app called it: `controller.fetch`,
 * `rx-rest/svelte: createQuery`) and its first argument when `target` is not what it takes: an endpoint
 * is a function with a `key()` method (every `RestEndpoint`); a queryable is an Entity class or a schema object.
 */
export function checkVerbTarget(call: string, target: unknown, takes: Takes = 'endpoint'): void {
  const endpoint = typeof target === 'function' && typeof (target as { key?: unknown }).key === 'function';
  if (takes === 'endpoint' ? endpoint : isQueryable(target) || (takes === 'either' && endpoint)) return;
  const name = takes === 'queryable' ? 'queryable' : 'endpoint';
  throw new TypeError(
    `${call}(${name}, ...): the first argument, ${takes === 'either' ? 'endpoint or queryable' : name}, must be ${expected[takes]}, ` +
      `got ${described(target, takes)}. Nothing in the store changed.`,
  );
}
