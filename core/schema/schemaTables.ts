/**
 * The entity tables a schema can write: its entities and every entity nested in them, in its members, items
 * and the schemas of its schema classes (found by walking their fields). Computed once per schema.
 */
import { planOf } from './entityPlan.js';
import { SchemaNode } from './SchemaNode.js';

/** The members of the schema classes that hold schemas. */
type Members = { schema?: unknown; entity?: unknown; collection?: unknown };

const found = new WeakMap<object, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

const isObject = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The tables of the entities `schema` holds at any depth (in a schema class, in the members that hold its schemas:
 * `schema`, `entity`, `collection`; not in others, a subclass's own), except under an `Invalidate`: it
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
      } else if (node instanceof SchemaNode) {
        // a schema class's schemas are in these members (`itemSchema` is made of `schema`; `entity` is an
        // Invalidate's): its others (a subclass's own) write nothing
        visit((node as Members).schema, own);
        visit((node as Members).collection, own);
        visit((node as Members).entity, true);
      } else if (typeof node === 'object') for (const value of Object.values(node)) visit(value, own);
    };
    visit(schema);
    found.set(schema, (tables = keys));
  }
  return tables;
}
