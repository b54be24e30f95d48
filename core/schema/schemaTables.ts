/**
 * The entity tables a schema can write: its entities and every entity nested in them, in its members, items
 * and the schemas of its schema classes (found by walking their fields). Computed once per schema.
 */
import { planOf } from './entityPlan.js';
import { Invalidate } from './Invalidate.js';

const found = new WeakMap<object, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

const isObject = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The tables of the entities `schema` holds at any depth (a superset when a schema class keeps other
 * values than schemas: they are walked too, and only entity classes count), except under an `Invalidate`: it
 * writes its entities' own tables, not those nested in them; none for a value that is no object or class.
 *
 * @example
 * schemaTables({ results: [Article] }); // Set { 'Article', 'User', 'Comment' } (an article's author and comments)
 */
export function schemaTables(schema: unknown): ReadonlySet<string> {
  if (!isObject(schema)) return NONE;
  let tables = found.get(schema);
  if (tables === undefined) {
    const keys = new Set<string>();
    /** Nodes visited, and whether only under an Invalidate (a node met again outside one is walked again). */
    const seen = new Map<unknown, boolean | undefined>();
    // `own`: under an Invalidate, which writes its entities' own tables and none nested in them
    const visit = (node: unknown, own?: boolean): void => {
      if (!isObject(node) || (seen.has(node) && (own || !seen.get(node)))) return;
      seen.set(node, own);
      const plan = planOf(node);
      if (plan) {
        keys.add(plan.key);
        if (!own) for (const field of plan.schemaFields) visit(field.schema);
      } else if (typeof node === 'object') {
        own ||= node instanceof Invalidate;
        for (const value of Object.values(node)) visit(value, own);
      }
    };
    visit(schema);
    found.set(schema, (tables = keys));
  }
  return tables;
}
