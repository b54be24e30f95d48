/**
 * The entity tables a schema can write: its entities and every entity nested in them, in its members, items
 * and the schemas of its schema classes (found by walking their fields). Computed once per schema.
 */
import { planOf } from './entityPlan.js';

const found = new WeakMap<object, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

const isObject = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The tables of the entities `schema` holds at any depth (a superset when a schema class keeps other
 * values than schemas: they are walked too, and only entity classes count); none for a value that is no
 * object or class.
 *
 * @example
 * schemaTables({ results: [Article] }); // Set { 'Article', 'User', 'Comment' } (an article's author and comments)
 */
export function schemaTables(schema: unknown): ReadonlySet<string> {
  if (!isObject(schema)) return NONE;
  let tables = found.get(schema);
  if (tables === undefined) {
    const keys = new Set<string>();
    const seen = new Set<unknown>();
    const visit = (node: unknown): void => {
      if (!isObject(node) || seen.has(node)) return;
      seen.add(node);
      const plan = planOf(node);
      if (plan) {
        keys.add(plan.key);
        for (const field of plan.schemaFields) visit(field.schema);
      } else if (typeof node === 'object') {
        for (const value of Object.values(node)) visit(value);
      }
    };
    visit(schema);
    found.set(schema, (tables = keys));
  }
  return tables;
}
