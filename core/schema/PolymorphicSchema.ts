import { NormalizeError, SchemaDefinitionError, describeKind, preview } from '../errors.js';
import { isEntityClass } from './Entity.js';
import { SchemaNode, type DenormalizeContext, type NormalizeContext } from './SchemaNode.js';
import { schemaLabel } from './schemaKind.js';
import { hasOwn, isPlainObject } from './safeObject.js';
import { INVALID } from './special.js';

/**
 * Picks the member of a polymorphic schema for a value: the name of a field of the value
 * (`'type'`), or a function of the value, the object holding it and its key.
 */
export type SchemaAttribute =
  string | ((value: Record<string, unknown>, parent: unknown, key: string | undefined) => string);

/** A reference to one member of a polymorphic schema, as stored: the member's pk and its name in the map. */
export interface PolymorphicRef {
  readonly id: string;
  readonly schema: string;
}

/**
 * The shared part of the schemas that hold either one schema or a map of them chosen per value by an
 * attribute (`schema.Union`, polymorphic `schema.Array`, `schema.Values`, `schema.All`).
 */
export abstract class PolymorphicSchema extends SchemaNode {
  /** The one schema, or the map of member schemas by attribute value. */
  declare readonly schema: unknown;
  /** The attribute as given (a field name or a function); `undefined` for a single schema. */
  declare readonly schemaAttribute: SchemaAttribute | undefined;
  readonly #attribute:
    ((value: Record<string, unknown>, parent: unknown, key: string | undefined) => unknown) | undefined;

  constructor(definition: unknown, schemaAttribute?: SchemaAttribute) {
    super();
    // a Union given to a wrapper (Array, Values, All) lends it its members and attribute
    if (definition instanceof PolymorphicSchema && definition.isUnion && schemaAttribute === undefined) {
      this.schema = definition.schema;
      this.schemaAttribute = definition.schemaAttribute;
    } else {
      this.schema = definition;
      this.schemaAttribute = schemaAttribute;
    }
    const attribute = this.schemaAttribute;
    if (attribute !== undefined) {
      if (!isPlainObject(this.schema)) {
        throw new SchemaDefinitionError(
          process.env.NODE_ENV !== 'production'
            ? `${this.constructor.name}: with a schemaAttribute, the schema must be a map of schemas ({ post: Post, link: Link }).`
            : 'schemaAttribute',
        );
      }
      this.#attribute =
        typeof attribute === 'string'
          ? (value) => (hasOwn.call(value, attribute) ? value[attribute] : undefined)
          : attribute;
    }
  }

  /** Whether this is a Union (which lends its members to the wrappers it is given to). */
  get isUnion(): boolean {
    return false;
  }

  /** Whether this holds one schema rather than a map chosen by attribute. */
  get isSingleSchema(): boolean {
    return this.#attribute === undefined;
  }

  /** The attribute value of `value` (which member it belongs to); `undefined` for a single schema. */
  attributeOf(value: Record<string, unknown>, parent: unknown, key: string | undefined): string | undefined {
    if (!this.#attribute) return undefined;
    const attr = this.#attribute(value, parent, key);
    return typeof attr === 'string' || typeof attr === 'number' ? String(attr) : undefined;
  }

  /** The member schema of the attribute value `attr`, read as data (never from `Object.prototype`). */
  member(attr: string | undefined): unknown {
    if (attr === undefined) return undefined;
    const map = this.schema as Record<string, unknown>;
    return hasOwn.call(map, attr) ? map[attr] : undefined;
  }

  /** The member schemas: the one schema, or the values of the map. */
  members(): unknown[] {
    return this.isSingleSchema ? [this.schema] : Object.values(this.schema as Record<string, unknown>);
  }

  /** Names of the members, for messages: `Link | Post`. */
  protected membersLabel(): string {
    return this.isSingleSchema ? schemaLabel(this.schema) : this.members().map(schemaLabel).join(' | ');
  }

  /** Normalizes one value: with the one schema, or with the member its attribute names (stored as `{ id, schema }`). */
  normalizeValue(value: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown {
    if (this.isSingleSchema) return ctx.visit(this.schema, value, parent, key);
    if (value === null || value === undefined || value === false || value === '') return value;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new NormalizeError(
        this.label,
        process.env.NODE_ENV !== 'production'
          ? `expected an object whose attribute names its schema, but got ${describeKind(value)}.`
          : 'object',
        value,
      );
    }
    const attr = this.attributeOf(value as Record<string, unknown>, parent, key);
    const schema = this.member(attr);
    if (schema === undefined) {
      throw new NormalizeError(
        this.label,
        process.env.NODE_ENV !== 'production'
          ? `the schema attribute ${preview(attr)} of ${preview(value)} names no member; expected one of ` +
              `${Object.keys(this.schema as object)
                .map((name) => JSON.stringify(name))
                .join(', ')}.`
          : 'attribute',
        value,
      );
    }
    const id = ctx.visit(schema, value, parent, key);
    return id === undefined || id === null ? id : ({ id, schema: attr } as PolymorphicRef);
  }

  /**
   * Reads one value back: a `{ id, schema }` reference through its member, an inline object through the
   * member its attribute names. INVALID when no member fits.
   */
  denormalizeValue(value: unknown, ctx: DenormalizeContext): unknown {
    if (this.isSingleSchema) return ctx.unvisit(this.schema, value);
    if (typeof value !== 'object' || value === null) return value === null ? null : INVALID;
    const ref = value as Partial<PolymorphicRef>;
    if (typeof ref.schema === 'string' && ref.id !== undefined && hasOwn.call(value, 'schema')) {
      const schema = this.member(ref.schema);
      return schema === undefined ? INVALID : ctx.unvisit(schema, ref.id);
    }
    const schema = this.member(this.attributeOf(value as Record<string, unknown>, undefined, undefined));
    return schema === undefined ? INVALID : ctx.unvisit(schema, value);
  }
}

/** Checks that every member of a map is an Entity class (Union and All members must be). */
export function assertEntityMembers(owner: string, schema: PolymorphicSchema): void {
  for (const member of schema.members()) {
    if (!isEntityClass(member)) {
      throw new SchemaDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? `${owner} members must be Entity classes; got ${schemaLabel(member)}.`
          : owner,
      );
    }
  }
}
