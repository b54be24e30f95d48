import { SchemaNode, type DenormalizeContext, type NormalizeContext, type QueryKeyOf } from './SchemaNode.js';
import { schemaLabel } from './schemaKind.js';
import { INVALID } from './special.js';
import type { Denormalize, DenormalizeResult, EntityTables } from './types.js';

/**
 * A computed read of the store: reads `schema` (an Entity, `schema.All`, `schema.Values`, an object of
 * them, ...) and hands the result and the read's arguments to `process`. Unusable when the read is;
 * `process` runs again only when what it reads changed or the arguments did, so its result stays
 * the same object otherwise.
 *
 * @example
 * const todoCounts = new schema.Query(new schema.All(Todo), (todos, { userId }: { userId?: number } = {}) => {
 *   const mine = userId === undefined ? todos : todos.filter((todo) => todo.userId === userId);
 *   return { total: mine.length, done: mine.filter((todo) => todo.completed).length };
 * });
 */
export class Query<S = unknown, R = unknown, P extends readonly unknown[] = readonly never[]> extends SchemaNode {
  declare readonly kind: 'Query';
  /** The schema that is read. */
  declare readonly schema: S;
  /** Computes the result from what was read and the arguments. */
  declare readonly process: (entries: Denormalize<S>, ...args: P) => R;
  readonly #computed = new WeakMap<object, Map<string, unknown>>();

  constructor(schema: S, process: (entries: Denormalize<S>, ...args: P) => R) {
    super();
    this.schema = schema;
    this.process = process;
  }

  get label(): string {
    return `Query(${schemaLabel(this.schema)})`;
  }

  normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    return ctx.visit(this.schema, input, parent, key);
  }

  denormalize(input: unknown, ctx: DenormalizeContext): unknown {
    return this.apply(ctx.unvisit(this.schema, input), ctx.args);
  }

  override queryKey(args: readonly unknown[], entities: EntityTables, keyOf: QueryKeyOf): unknown {
    return keyOf(this.schema, args, entities);
  }

  override queryTables(visit: (schema: unknown) => void): void {
    visit(this.schema);
  }

  /** `process` applied to the read of `schema` (the memo's result is per input, so the arguments are applied here). */
  override queryRead(
    read: (schema: unknown) => DenormalizeResult<unknown>,
    args: readonly unknown[],
  ): DenormalizeResult<unknown> {
    const inner = read(this.schema);
    if (inner.invalid || inner.data === undefined) return inner;
    return {
      data: this.apply(inner.data, args),
      invalid: false,
      get paths() {
        return inner.paths;
      },
    };
  }

  /** @internal `process` applied to a read value, remembered per value and arguments. */
  apply(value: unknown, args: readonly unknown[]): unknown {
    if (value === INVALID) return INVALID;
    if (typeof value !== 'object' || value === null) return this.process(value as Denormalize<S>, ...(args as P));
    let byArgs = this.#computed.get(value);
    if (!byArgs) this.#computed.set(value, (byArgs = new Map()));
    const key = JSON.stringify(args) ?? '';
    if (byArgs.has(key)) return byArgs.get(key);
    const result = this.process(value as Denormalize<S>, ...(args as P));
    byArgs.set(key, result);
    return result;
  }
}
