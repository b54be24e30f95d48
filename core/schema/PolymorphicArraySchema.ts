import { ArraySchema } from './ArraySchema.js';
import type { SchemaAttribute } from './PolymorphicSchema.js';
import { Union } from './Union.js';

/**
 * A list of values of one schema: `new schema.Array(Todo)` is the same as `[Todo]`. With a map of
 * entities and an attribute (`new schema.Array({ link: Link, post: Post }, 'type')`) each item is the
 * member its attribute names, as with a `schema.Union`.
 *
 * @example
 * const TodoList = new schema.Array(Todo);
 * const Feed = new schema.Array({ link: Link, post: Post }, (item) => String(item.type));
 */
export class PolymorphicArraySchema<S = unknown, A extends SchemaAttribute | undefined = undefined> extends ArraySchema<
  S,
  A
> {
  protected override unionOf(schema: unknown, schemaAttribute: SchemaAttribute): unknown {
    return new Union(schema as Record<string, unknown>, schemaAttribute);
  }
}
