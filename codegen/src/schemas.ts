/**
 * Reading JSON Schemas of a bundled spec: following `$ref`s, merging `allOf`, and turning a schema
 * into a TypeScript type or into an rx-rest schema expression. Pure functions of the spec.
 */
import { propertyKey } from './naming.js';

/** A JSON Schema object of the spec. */
export type JsonSchema = Record<string, any>;

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The component name a `$ref` points at, if it points at `#/components/schemas/<name>`. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return undefined;
  const match = SCHEMA_REF.exec(ref);
  return match ? decodeURIComponent(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** Follows a JSON pointer (`#/a/b`) in the document. */
export function resolvePointer(doc: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    if (raw === '') continue;
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[part];
  }
  return node;
}

/** The value itself, or what its `$ref` chain points at. */
export function deref<T = JsonSchema>(doc: JsonSchema, value: any): T | undefined {
  let node = value;
  for (let hops = 0; node && typeof node.$ref === 'string' && hops < 20; hops++) node = resolvePointer(doc, node.$ref);
  return node as T | undefined;
}

/** Whether a schema allows `null` (`nullable: true`, `type: [.., 'null']`, `oneOf: [.., {type: 'null'}]`). */
export function isNullable(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  if (schema.nullable === true || schema['x-nullable'] === true) return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const branches = schema.oneOf ?? schema.anyOf;
  return Array.isArray(branches) && branches.some((branch: JsonSchema) => branch?.type === 'null');
}

/** An object schema's properties and required names, `allOf` parts merged (refs followed). */
export interface ObjectShape {
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: ReadonlySet<string>;
  readonly additional: JsonSchema | undefined;
}

/** The properties of an object schema with its `allOf` parts merged; undefined when it has none. */
export function objectShape(
  doc: JsonSchema,
  schema: JsonSchema | undefined,
  seen = new Set<unknown>(),
): ObjectShape | undefined {
  const node = deref(doc, schema);
  if (!node || typeof node !== 'object' || seen.has(node)) return undefined;
  seen.add(node);
  // no prototype: a property named `__proto__` is one more property (Object.assign into `{}` would set the prototype)
  const properties = Object.create(null) as Record<string, JsonSchema>;
  const required = new Set<string>();
  let additional: JsonSchema | undefined;
  let found = false;
  for (const part of Array.isArray(node.allOf) ? node.allOf : []) {
    const shape = objectShape(doc, part, seen);
    if (!shape) continue;
    found = true;
    Object.assign(properties, shape.properties);
    for (const name of shape.required) required.add(name);
    additional ??= shape.additional;
  }
  if (node.properties && typeof node.properties === 'object') {
    found = true;
    Object.assign(properties, node.properties);
  }
  if (Array.isArray(node.required)) for (const name of node.required) required.add(name);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    additional = node.additionalProperties;
    found ||= node.type === 'object';
  }
  return found ? { properties, required, additional } : undefined;
}

/** What names mean while rendering: entity classes, unions of entities, plain types. */
export interface NameTable {
  /** component schema name → entity class name */
  readonly entities: ReadonlyMap<string, string>;
  /** component schema name → union (class names by discriminator value, and the attribute) */
  readonly unions: ReadonlyMap<
    string,
    {
      readonly name: string;
      readonly attribute: string;
      readonly members: Record<string, string>;
      /** a base schema its members extend (allOf), not a oneOf */
      readonly inherited?: boolean;
    }
  >;
  /** component schema name → type name in types.ts */
  readonly types: ReadonlyMap<string, string>;
  /** entity class name → its body type name (readOnly fields left out), created on demand */
  inputOf(entity: string): string;
  /**
   * component schema name of a type in types.ts → its body type name, when its written form differs (readOnly or
   * writeOnly fields, entities inside); undefined when the type itself is the body's. Created on demand.
   */
  typeInputOf?(schemaName: string): string | undefined;
}

/** Collects the names a rendered type or schema uses. */
export interface Refs {
  readonly entities: Set<string>;
  readonly types: Set<string>;
  /** When given, a named union is written as its const from unions.ts (and recorded here) rather than inline. */
  readonly unions?: Set<string>;
}

/** New empty `Refs`. */
export function newRefs(unions = false): Refs {
  return unions
    ? { entities: new Set(), types: new Set(), unions: new Set() }
    : { entities: new Set(), types: new Set() };
}

/** How to render a type. */
export interface TypeMode {
  /** request bodies: readOnly left out, entities as their input types */
  readonly write: boolean;
  /** `date-time` strings as this type (an entity's own fields); undefined: string */
  readonly date: string | undefined;
  /**
   * Set inside a value read as plain JSON (a `oneOf` of entities without a discriminator): entities and unions are
   * their plain shapes, not their classes. Holds the schemas being expanded (a schema met again inside itself is
   * `Record<string, unknown>`).
   */
  readonly plain?: ReadonlySet<string>;
}

const JSON_PLAIN: TypeMode = { write: false, date: undefined };

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}

/** `type` parenthesized when a `|` or `&` joins its top level (`{ a: 1 | 2 }` needs none, `{ a } | { b }` does). */
export function paren(type: string): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || (c === '>' && type[i - 1] !== '=')) depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return `(${type})`;
  }
  return type;
}

/** A JSON Schema as a TypeScript type. */
export function tsType(
  doc: JsonSchema,
  schema: JsonSchema | undefined,
  names: NameTable,
  refs: Refs,
  mode: TypeMode = JSON_PLAIN,
  depth = 0,
): string {
  if (!schema || typeof schema !== 'object') return 'unknown';
  if (depth > 12) return 'unknown';
  const name = refName(schema);
  if (name !== undefined && mode.plain && !mode.write && (names.entities.has(name) || names.unions.has(name))) {
    if (mode.plain.has(name)) return 'Record<string, unknown>';
    const plain = new Set(mode.plain).add(name);
    return tsType(doc, deref(doc, schema), names, refs, { ...mode, plain }, depth + 1);
  }
  if (name !== undefined) {
    const entity = names.entities.get(name);
    if (entity) {
      if (mode.write) {
        const input = names.inputOf(entity);
        refs.types.add(input);
        return input;
      }
      refs.entities.add(entity);
      return entity;
    }
    const union = names.unions.get(name);
    if (union && mode.write) {
      const inputs = [...new Set(Object.values(union.members))].map((member) => names.inputOf(member));
      for (const input of inputs) refs.types.add(input);
      return inputs.join(' | ');
    }
    if (union) {
      for (const member of Object.values(union.members)) refs.entities.add(member);
      return [...new Set(Object.values(union.members))].join(' | ');
    }
    const type = names.types.get(name);
    if (type) {
      const input = mode.write ? names.typeInputOf?.(name) : undefined;
      refs.types.add(input ?? type);
      return input ?? type;
    }
    return tsType(doc, deref(doc, schema), names, refs, mode, depth + 1);
  }
  if (typeof schema.$ref === 'string') return tsType(doc, deref(doc, schema), names, refs, mode, depth + 1);
  const nullable = isNullable(schema) ? ' | null' : '';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return (
      [...new Set(schema.enum.filter((v: unknown) => v !== null).map(literal))].join(' | ') + nullable || 'unknown'
    );
  }
  if (schema.const !== undefined) return literal(schema.const);
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches)) {
    // several branches with entities and no discriminator: read as plain JSON (see `schemaExpr`), so typed plain
    const plain =
      mode.plain ??
      (!mode.write &&
      !inlineUnion(schema, names) &&
      branches.filter((b) => schemaExpr(doc, b, names, newRefs())).length > 1
        ? new Set<string>()
        : undefined);
    const parts = branches
      .filter((b: JsonSchema) => b?.type !== 'null')
      .map((b: JsonSchema) => tsType(doc, b, names, refs, plain ? { ...mode, plain } : mode, depth + 1));
    const unique = [...new Set(parts)];
    return (unique.length ? unique.join(' | ') : 'unknown') + nullable;
  }
  if (Array.isArray(schema.allOf)) {
    const shape = objectShape(doc, schema);
    // a subtype that adds nothing to its base (`allOf: [Pet]`) is the base's shape, not the base's union
    const inheritedOnly = names.unions.get(refName(schema.allOf[0]) ?? '')?.inherited === true;
    if (schema.allOf.length === 1 && !schema.properties && !inheritedOnly)
      return tsType(doc, schema.allOf[0], names, refs, mode, depth + 1) + nullable;
    if (shape) return objectType(doc, shape, names, refs, mode, depth) + nullable;
  }
  const types: string[] = Array.isArray(schema.type)
    ? schema.type.filter((t: string) => t !== 'null')
    : schema.type
      ? [schema.type]
      : [];
  if (types.length > 1)
    return (
      types.map((t) => tsType(doc, { ...schema, type: t, nullable: false }, names, refs, mode, depth + 1)).join(' | ') +
      nullable
    );
  const type = types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'string':
      return (schema.format === 'date-time' && mode.date ? mode.date : 'string') + nullable;
    case 'integer':
    case 'number':
      return 'number' + nullable;
    case 'boolean':
      return 'boolean' + nullable;
    case 'array':
      return `${paren(tsType(doc, schema.items, names, refs, { ...mode, date: undefined }, depth + 1))}[]` + nullable;
    case 'object': {
      const shape = objectShape(doc, schema);
      return (shape ? objectType(doc, shape, names, refs, mode, depth) : 'Record<string, unknown>') + nullable;
    }
    default:
      return 'unknown';
  }
}

function objectType(
  doc: JsonSchema,
  shape: ObjectShape,
  names: NameTable,
  refs: Refs,
  mode: TypeMode,
  depth: number,
): string {
  const inner: TypeMode = { ...mode, date: undefined };
  const members: string[] = [];
  // an index signature must admit the types of the properties beside it
  const indexTypes: string[] = [];
  for (const [key, property] of Object.entries(shape.properties)) {
    // also beside a $ref (OpenAPI 3.1): `{ $ref: Owner, readOnly: true }`
    const resolved = deref(doc, property);
    if (mode.write && (resolved?.readOnly === true || property?.readOnly === true)) continue;
    if (!mode.write && (resolved?.writeOnly === true || property?.writeOnly === true)) continue;
    const optional = shape.required.has(key) ? '' : '?';
    const type = tsType(doc, property, names, refs, inner, depth + 1);
    members.push(`${propertyKey(key)}${optional}: ${type}`);
    indexTypes.push(type);
  }
  if (shape.additional) {
    const types = [tsType(doc, shape.additional, names, refs, inner, depth + 1), ...indexTypes];
    if (members.length) types.push('undefined');
    const index = types.includes('unknown') ? ['unknown'] : [...new Set(types)];
    members.push(`[key: string]: ${index.join(' | ')}`);
  }
  if (members.length === 0) return 'Record<string, unknown>';
  return `{ ${members.join('; ')} }`;
}

/**
 * The rx-rest schema of a JSON Schema: an entity class, `[X]`, `new schema.Values(X)`, a union, or an
 * object of those; undefined when nothing in it is an entity (plain JSON). `lists` turns a top-level
 * array into a Collection (list responses of GET endpoints).
 */
export function schemaExpr(
  doc: JsonSchema,
  schema: JsonSchema | undefined,
  names: NameTable,
  refs: Refs,
  seen: ReadonlySet<string> = new Set(),
  depth = 0,
): string | undefined {
  if (!schema || typeof schema !== 'object' || depth > 8) return undefined;
  const name = refName(schema);
  if (name !== undefined) {
    const entity = names.entities.get(name);
    if (entity) {
      refs.entities.add(entity);
      return entity;
    }
    const union = names.unions.get(name);
    if (union && refs.unions) {
      refs.unions.add(union.name);
      return union.name;
    }
    if (union) return unionExpr(union.members, union.attribute, refs);
    if (seen.has(name)) return undefined;
    return schemaExpr(doc, deref(doc, schema), names, refs, new Set([...seen, name]), depth + 1);
  }
  if (typeof schema.$ref === 'string') return schemaExpr(doc, deref(doc, schema), names, refs, seen, depth + 1);
  const branches: JsonSchema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches)) {
    const discriminated = inlineUnion(schema, names);
    if (discriminated) return unionExpr(discriminated.members, discriminated.attribute, refs);
    // an expandable field (`anyOf: [string, Customer]`) or a nullable one: the one branch with a schema
    // the names a branch uses are recorded only when that branch is the schema (none of a value read as plain JSON)
    const scratch = newRefs(refs.unions !== undefined);
    const found = branches
      .map((b) => schemaExpr(doc, b, names, scratch, seen, depth + 1))
      .filter((x) => x !== undefined);
    if (found.length !== 1) return undefined;
    for (const key of ['entities', 'types', 'unions'] as const)
      for (const used of scratch[key] ?? []) refs[key]?.add(used);
    return found[0];
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties) {
    return schemaExpr(doc, schema.allOf[0], names, refs, seen, depth + 1);
  }
  if (schema.type === 'array' || schema.items) {
    const item = schemaExpr(doc, schema.items, names, refs, seen, depth + 1);
    return item === undefined ? undefined : `[${item}]`;
  }
  const shape = objectShape(doc, schema);
  if (!shape) return undefined;
  const members: string[] = [];
  for (const [key, property] of Object.entries(shape.properties)) {
    const expr = schemaExpr(doc, property, names, refs, seen, depth + 1);
    if (expr !== undefined) members.push(`${propertyKey(key)}: ${expr}`);
  }
  if (members.length === 0 && shape.additional && Object.keys(shape.properties).length === 0) {
    const value = schemaExpr(doc, shape.additional, names, refs, seen, depth + 1);
    return value === undefined ? undefined : `new schema.Values(${value})`;
  }
  return members.length ? `{ ${members.join(', ')} }` : undefined;
}

/** `new schema.Union({ cat: Cat, dog: Dog }, 'petType')` */
export function unionExpr(members: Record<string, string>, attribute: string, refs: Refs): string {
  for (const member of Object.values(members)) refs.entities.add(member);
  const entries = Object.entries(members).map(([value, entity]) => `${propertyKey(value)}: ${entity}`);
  return `new schema.Union({ ${entries.join(', ')} }, ${literal(attribute)})`;
}

/** A `oneOf`/`anyOf` of entity refs with a `discriminator`: its members by discriminator value. */
export function inlineUnion(
  schema: JsonSchema,
  names: Pick<NameTable, 'entities'>,
): { members: Record<string, string>; attribute: string } | undefined {
  const attribute = schema.discriminator?.propertyName;
  const branches: JsonSchema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (typeof attribute !== 'string' || !Array.isArray(branches) || branches.length === 0) return undefined;
  const members: Record<string, string> = {};
  const mapping: Record<string, string> = schema.discriminator.mapping ?? {};
  const byRef = new Map(Object.entries(mapping).map(([value, ref]) => [ref, value]));
  for (const branch of branches) {
    const name = refName(branch);
    const entity = name === undefined ? undefined : names.entities.get(name);
    if (!entity || name === undefined) return undefined;
    const value = byRef.get(branch.$ref) ?? byRef.get(name) ?? name;
    members[value] = entity;
  }
  for (const [value, ref] of Object.entries(mapping)) {
    const name = refName({ $ref: ref.startsWith('#') ? ref : `#/components/schemas/${ref}` });
    const entity = name === undefined ? undefined : names.entities.get(name);
    if (entity) members[value] = entity;
  }
  return { members, attribute };
}
