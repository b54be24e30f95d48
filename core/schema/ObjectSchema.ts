import { NormalizeError, describeKind } from '../errors.js';
import { INVALID } from './special.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext, type QueryKeyOf } from './SchemaNode.js';
import { schemaKeysOf, schemaLabel } from './schemaKind.js';
import { assignField, hasCycle } from './safeObject.js';
import type { EntityTables } from './types.js';

const shapes = new WeakMap<object, string>();

function shapeOf(definition: object, keys: readonly string[]): string {
  let shape = shapes.get(definition);
  if (shape === undefined) shapes.set(definition, (shape = `{${keys.join('\u0000')}}`));
  return shape;
}

/**
 * Normalizes the schema members of an object; other members pass through unchanged, but must be trees:
 * they are stored as they are, and the store has to survive `JSON.stringify`.
 */
export function normalizeMembers(
  definition: Readonly<Record<string, unknown>>,
  input: unknown,
  ctx: NormalizeContext,
  label: string,
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new NormalizeError(
      label,
      process.env.NODE_ENV !== 'production' ? `expected an object but got ${describeKind(input)}.` : 'object',
      input,
    );
  }
  const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const keys = schemaKeysOf(definition);
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (typeof value === 'object' && value !== null && !keys.includes(key) && hasCycle(value)) {
      throw new NormalizeError(
        label,
        process.env.NODE_ENV !== 'production'
          ? `the member "${key}" contains a cycle: a field refers back to an object that contains it.`
          : key,
        input,
      );
    }
  }
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) assignField(out, key, ctx.visit(definition[key], value, input, key));
  }
  return out;
}

/**
 * Reads an object back. Every schema member is required: if one is invalid or missing, the whole
 * object is INVALID. The same object comes back while no member changed.
 */
export function denormalizeMembers(
  definition: Readonly<Record<string, unknown>>,
  input: unknown,
  ctx: DenormalizeContext,
): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const keys = schemaKeysOf(definition);
  const parts = new Array<unknown>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const part = ctx.unvisit(definition[key], (input as Record<string, unknown>)[key]);
    if (part === INVALID) return INVALID;
    parts[i] = part;
  }
  return ctx.stable(input, shapeOf(definition, keys), parts, () => {
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (let i = 0; i < keys.length; i++) assignField(out, keys[i] as string, parts[i]);
    return out;
  });
}

/**
 * What a read of an object schema from the tables starts from: that of each of its schema members; its
 * other members (`nextPage: ''`) as the definition gives them, as data-client reads them.
 */
export function membersQueryKey(
  definition: Readonly<Record<string, unknown>>,
  args: readonly unknown[],
  entities: EntityTables,
  keyOf: QueryKeyOf,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = schemaKeysOf(definition);
  for (const key of Object.keys(definition)) {
    assignField(out, key, keys.includes(key) ? keyOf(definition[key], args, entities) : definition[key]);
  }
  return out;
}

/**
 * A `schema.Object`, known without importing the class (code that only looks into object schemas, such as
 * the list members of endpoints, leaves the class out of bundles that never build one).
 */
export function isObjectSchema(value: unknown): value is ObjectSchema {
  return value instanceof SchemaNode && (value as { isObjectSchema?: unknown }).isObjectSchema === true;
}

/**
 * An object whose members are schemas; other members pass through. `{ results: [Todo], total: 0 }` used
 * as a schema is the same as `new schema.Object({ results: [Todo] })`.
 *
 * @example
 * const Page = new schema.Object({ results: new schema.Collection([Todo]), total: 0 });
 */
export class ObjectSchema<O extends Record<string, unknown> = Record<string, unknown>> extends SchemaNode {
  declare readonly kind: 'Object';
  /** The member schemas. */
  declare readonly schema: O;

  constructor(definition: O) {
    super();
    this.schema = definition;
  }

  /** Whether this is a schema.Object (see `isObjectSchema`). */
  get isObjectSchema(): boolean {
    return true;
  }

  /** A schema.Object of other members (the list members of endpoints replace its Collection with theirs). */
  withMembers<M extends Record<string, unknown>>(members: M): ObjectSchema<M> {
    return new ObjectSchema(members);
  }

  get label(): string {
    return schemaLabel(this.schema);
  }

  normalize(input: unknown, _parent: unknown, _key: string | undefined, ctx: NormalizeContext): unknown {
    return normalizeMembers(this.schema, input, ctx, this.label);
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return denormalizeMembers(this.schema, input, ctx);
  }

  override queryKey(args: readonly unknown[], entities: EntityTables, keyOf: QueryKeyOf): unknown {
    return membersQueryKey(this.schema, args, entities, keyOf);
  }

  override queryTables(visit: (schema: unknown) => void): void {
    visit(this.schema);
  }
}
