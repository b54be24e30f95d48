import type { Entity } from './Entity.js';
import { planOf, type EntityPlan } from './entityPlan.js';
import { hasOwn, isPlainObject, jsonEqual, ownValue } from './safeObject.js';
import { MemoCache } from './memo/MemoCache.js';
import { membersQueryKey } from './ObjectSchema.js';
import { SchemaNode } from './SchemaNode.js';
import { schemaKeysOf } from './schemaKind.js';
import { ALL_INPUT } from './special.js';
import type { Denormalize, DenormalizeResult, EntityTables } from './types.js';
import { tableIndexes } from './tableDerived.js';

/**
 * The pk of the entity of table `key` whose field `field` (one of its `static indexes`) equals `value`,
 * from the current tables. The index of a table is built once per table version.
 *
 * @example
 * lookupIndex(state.entities, 'User', 'username', 'ann'); // '7'
 */
export function lookupIndex(entities: EntityTables, key: string, field: string, value: unknown): string | undefined {
  const table = ownValue(entities, key);
  if (table === undefined || value === undefined || value === null) return undefined;
  let byField = tableIndexes.get(table);
  if (!byField) tableIndexes.set(table, (byField = new Map()));
  let index = byField.get(field);
  if (!index) {
    index = new Map();
    for (const pk of Object.keys(table)) {
      const record = table[pk];
      if (typeof record !== 'object' || record === null || !hasOwn.call(record, field)) continue;
      const indexed = (record as Record<string, unknown>)[field];
      if (indexed !== undefined && indexed !== null) index.set(String(indexed), pk);
    }
    byField.set(field, index);
  }
  return index.get(String(value));
}

function entityQueryKey(Cls: typeof Entity, plan: EntityPlan, args: readonly unknown[], entities: EntityTables) {
  const first = args[0];
  const exists = (pk: string) => {
    const record = ownValue(ownValue(entities, plan.key), pk);
    return record !== undefined ? pk : undefined;
  };
  if (typeof first === 'string' || typeof first === 'number') return exists(String(first));
  if (typeof first !== 'object' || first === null) return undefined;
  let pk: unknown;
  try {
    pk = Cls.pk(first, undefined, '', args);
  } catch {
    pk = undefined;
  }
  if ((typeof pk === 'string' && pk !== '' && pk !== 'undefined') || (typeof pk === 'number' && Number.isFinite(pk))) {
    const found = exists(String(pk));
    if (found !== undefined) return found;
  }
  for (const field of Cls.indexes ?? []) {
    if (hasOwn.call(first, field))
      return lookupIndex(entities, plan.key, field, (first as Record<string, unknown>)[field]);
  }
  return undefined;
}

/**
 * What reading `schema` with `args` straight from the tables starts from (data-client's `queryKey`): the
 * pk of an Entity (from a pk argument, the pk fields of an object argument, or one of its `indexes`),
 * the stored list of a Collection, every entity for `schema.All`, an object of those for an object
 * schema. `undefined` when the store cannot answer (an entity not there; lists and Values, which only a
 * response can fill).
 *
 * @example
 * const input = queryKey(User, [{ username: 'ann' }], state.entities); // '7'
 * const user = memo.denormalize(User, input, state.entities).data;
 */
export function queryKey(schema: unknown, args: readonly unknown[], entities: EntityTables): unknown {
  const plan = planOf(schema);
  if (plan) return entityQueryKey(schema as typeof Entity, plan, args, entities);
  // each schema class answers for itself, so that a bundle without All, Query or Union leaves them out
  if (schema instanceof SchemaNode) return schema.queryKey?.(args, entities, queryKey);
  if (isPlainObject(schema)) return membersQueryKey(schema, args, entities, queryKey);
  return undefined;
}

/**
 * The tables whose every write may change a store read of `schema` (`query`): an entity that
 * appears under a queried pk or index, a new row for `schema.All`, a list stored under the arguments.
 * A record-level dependency list cannot say "any new row", so a live query re-reads when a write touches
 * one of these tables, besides the records its result read.
 *
 * @example
 * queryTables(new schema.Query(new schema.All(Todo), countDone)); // ['Todo']
 */
export function queryTables(schema: unknown): string[] {
  const keys = new Set<string>();
  const visit = (node: unknown): void => {
    const plan = planOf(node);
    if (plan) keys.add(plan.key);
    else if (node instanceof SchemaNode) node.queryTables?.(visit, addTable);
    else if (isPlainObject(node)) for (const key of schemaKeysOf(node)) visit(node[key]);
  };
  const addTable = (key: string) => void keys.add(key);
  visit(schema);
  return [...keys];
}

/** What a query the store cannot answer reads as. */
const NOT_FOUND: DenormalizeResult<undefined> = Object.freeze({
  data: undefined,
  invalid: false,
  paths: new Set<string>() as ReadonlySet<string>,
});

/** The last query input per memo, schema and arguments: the same answer keeps the same input object. */
const queryInputs = new WeakMap<MemoCache, WeakMap<object, Map<string, unknown>>>();

/**
 * Reads `schema` with `args` straight from the tables, without a stored result (what
 * `controller.get(queryable, ...args)` returns): an Entity by pk or by one of its `indexes`, `schema.All`,
 * `schema.Query`, a Collection stored under `args`, or an object of those. `data` is `undefined` when the
 * store cannot answer. With the same `memo`, the same objects come back while what was read is unchanged.
 *
 * @example
 * const memo = new MemoCache();
 * query(User, [{ username: 'ann' }], state.entities, memo).data; // User | undefined
 * query(new schema.Query(new schema.All(Todo), (todos) => todos.length), [], state.entities, memo).data;
 */
export function query<S>(
  schema: S,
  args: readonly unknown[],
  entities: EntityTables,
  memo: MemoCache = new MemoCache(),
): DenormalizeResult<Denormalize<S>> {
  let input = queryKey(schema, args, entities);
  if (typeof input === 'object' && input !== null && input !== ALL_INPUT) {
    let bySchema = queryInputs.get(memo);
    if (!bySchema) queryInputs.set(memo, (bySchema = new WeakMap()));
    let byArgs = bySchema.get(schema as object);
    if (!byArgs) bySchema.set(schema as object, (byArgs = new Map()));
    const argsKey = JSON.stringify(args);
    const previous = byArgs.get(argsKey);
    if (previous !== undefined && jsonEqual(previous, input)) input = previous;
    else byArgs.set(argsKey, input);
  }
  if (input === undefined) return NOT_FOUND as DenormalizeResult<Denormalize<S>>;
  const read = (node: unknown) => memo.denormalize(node, input, entities, args);
  return (
    schema instanceof SchemaNode && schema.queryRead ? schema.queryRead(read, args) : read(schema)
  ) as DenormalizeResult<Denormalize<S>>;
}
