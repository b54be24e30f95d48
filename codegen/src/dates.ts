/**
 * Date-times below an entity's field: in a list (`string[]`, `string[][]`), in a nested object that is not an
 * entity, in a type of types.ts the field refers to. The field is typed with `Date` (or `Temporal.Instant`) at
 * each of them, and its `static schema` member is a deserializer that reads the stored JSON into that shape
 * (the store keeps the strings). A field that holds an entity keeps its strings: its schema normalizes it.
 * Pure functions of the spec.
 */
import { propertyKey } from './naming.js';
import {
  deref,
  isNullable,
  objectShape,
  paren,
  refName,
  tsType,
  type JsonSchema,
  type NameTable,
  type Refs,
} from './schemas.js';

/** A field's type with its dates, and its deserializer (an arrow function of the stored JSON). */
export interface NestedDates {
  readonly type: string;
  readonly deserializer: string;
}

/** How dates are read: the type, and the call that makes one of an ISO string. */
export interface DateKind {
  readonly type: string;
  readonly from: (iso: string) => string;
}

/**
 * A value with dates somewhere inside: its type (without a `null` of its own: `nullable` says it), and `read(v)`,
 * an expression that reads the JSON value `v` (not null) into it.
 */
interface Dated {
  readonly type: string;
  readonly nullable: boolean;
  readonly read: (v: string) => string;
}

interface Walk {
  readonly doc: JsonSchema;
  readonly names: NameTable;
  readonly refs: Refs;
  readonly date: DateKind;
  /** the named types on the way down (a recursive type keeps its strings) */
  readonly seen: ReadonlySet<string>;
  readonly depth: number;
}

/**
 * The type and deserializer of an entity's field `schema` whose dates are not its own value (see the file's
 * comment); undefined when it holds none, or holds one only where it cannot be read as a date for sure (in a
 * `oneOf` of several shapes, in a recursive type, below an entity).
 */
export function nestedDates(
  doc: JsonSchema,
  schema: JsonSchema | undefined,
  names: NameTable,
  refs: Refs,
  date: DateKind,
): NestedDates | undefined {
  const walk: Walk = { doc, names, refs, date, seen: new Set(), depth: 0 };
  const dated = datesIn(schema, walk);
  if (dated === undefined) return undefined;
  // rx-rest calls a deserializer with the stored value when it is not null: the parameter is the JSON's type without null
  const json = tsType(doc, schema, names, refs);
  const param = json.endsWith(' | null') ? json.slice(0, -' | null'.length) : json;
  return { type: dated.type, deserializer: `(value: ${param}) => ${dated.read('value')}` };
}

/** `v` read by `dated`, or `v` itself when it is `null` or `undefined` (JSON may hold them anywhere). */
function guarded(dated: Dated, v: string): string {
  return `${v} == null ? ${v} : ${dated.read(v)}`;
}

/**
 * `v.key`, or `v['key']` for a key that is no identifier; `__proto__` only when `v` holds it (else the prototype
 * would be read).
 */
function member(v: string, key: string): string {
  if (key === '__proto__')
    return `(Object.prototype.hasOwnProperty.call(${v}, '__proto__') ? ${v}.__proto__ : undefined)`;
  return propertyKey(key) === key ? `${v}.${key}` : `${v}[${JSON.stringify(key)}]`;
}

/** The type of `dated` where it is a member or an item: with its `null`. */
function typeOf(dated: Dated): string {
  return dated.nullable ? `${dated.type} | null` : dated.type;
}

function datesIn(schema: JsonSchema | undefined, walk: Walk): Dated | undefined {
  if (!schema || typeof schema !== 'object' || walk.depth > 8) return undefined;
  const deeper = (next: JsonSchema | undefined, seen = walk.seen) =>
    datesIn(next, { ...walk, seen, depth: walk.depth + 1 });
  const withNull = (dated: Dated | undefined) =>
    dated && (isNullable(schema) && !dated.nullable ? { ...dated, nullable: true } : dated);
  const name = refName(schema);
  if (name !== undefined) {
    // an entity or a union is normalized by the field's schema; a type met again inside itself keeps its strings
    if (walk.names.entities.has(name) || walk.names.unions.has(name) || walk.seen.has(name)) return undefined;
    return withNull(deeper(deref(walk.doc, schema), new Set([...walk.seen, name])));
  }
  if (typeof schema.$ref === 'string') return withNull(deeper(deref(walk.doc, schema)));
  if (Array.isArray(schema.enum) || schema.const !== undefined) return undefined;
  const branches: JsonSchema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches)) {
    // a nullable value (`oneOf: [X, { type: 'null' }]`); several shapes: which one a value is, only its reader knows
    const kept = branches.filter((branch) => branch?.type !== 'null');
    return kept.length === 1 ? withNull(deeper(kept[0])) : undefined;
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties)
    return withNull(deeper(schema.allOf[0]));
  const types: string[] = Array.isArray(schema.type)
    ? schema.type.filter((t: string) => t !== 'null')
    : schema.type
      ? [schema.type]
      : [];
  if (types.length > 1) return undefined;
  const nullable = isNullable(schema);
  const type = types[0] ?? (schema.items ? 'array' : 'object');
  if (type === 'string') {
    return schema.format === 'date-time'
      ? { type: walk.date.type, nullable, read: (v) => walk.date.from(v) }
      : undefined;
  }
  if (type === 'array') {
    const item = deeper(schema.items);
    if (item === undefined) return undefined;
    const x = `x${walk.depth + 1}`;
    return { type: `${paren(typeOf(item))}[]`, nullable, read: (v) => `${v}.map((${x}) => ${guarded(item, x)})` };
  }
  if (type === 'object') {
    const shape = objectShape(walk.doc, schema);
    if (!shape) return undefined;
    return withNull(objectDates(shape, walk, deeper, nullable));
  }
  return undefined;
}

function objectDates(
  shape: NonNullable<ReturnType<typeof objectShape>>,
  walk: Walk,
  deeper: (next: JsonSchema | undefined) => Dated | undefined,
  nullable: boolean,
): Dated | undefined {
  const members: string[] = [];
  const memberTypes: string[] = [];
  const reads: [string, Dated][] = [];
  for (const [key, property] of Object.entries(shape.properties)) {
    // as objectType (schemas.ts) types a value read: writeOnly members left out
    if (deref(walk.doc, property)?.writeOnly === true || property?.writeOnly === true) continue;
    const dated = deeper(property);
    const type = dated ? typeOf(dated) : tsType(walk.doc, property, walk.names, walk.refs);
    members.push(`${propertyKey(key)}${shape.required.has(key) ? '' : '?'}: ${type}`);
    memberTypes.push(type);
    if (dated) reads.push([key, dated]);
  }
  const additional = shape.additional && deeper(shape.additional);
  if (reads.length === 0 && additional === undefined) return undefined;
  if (shape.additional) {
    const types = [
      additional ? typeOf(additional) : tsType(walk.doc, shape.additional, walk.names, walk.refs),
      ...memberTypes,
    ];
    if (members.length) types.push('undefined');
    members.push(`[key: string]: ${types.includes('unknown') ? 'unknown' : [...new Set(types)].join(' | ')}`);
  }
  const k = `k${walk.depth + 1}`;
  const x = `x${walk.depth + 1}`;
  const declared = Object.keys(shape.properties);
  return {
    type: `{ ${members.join('; ')} }`,
    nullable,
    read: (v) => {
      // a computed key for `__proto__` (in an object literal, `__proto__:` would set the prototype)
      const own = reads.map(([key, dated]) =>
        key === '__proto__'
          ? `["__proto__"]: ((${x}) => ${guarded(dated, x)})(${member(v, key)})`
          : `${propertyKey(key)}: ${guarded(dated, member(v, key))}`,
      );
      if (additional === undefined) return `({ ${[`...${v}`, ...own].join(', ')} })`;
      // the other keys' values by `additionalProperties` (fromEntries defines each key: `__proto__` stays one)
      const rest = declared.length ? `${JSON.stringify(declared)}.includes(${k}) ? ${x} : ` : '';
      const entries = `Object.fromEntries(Object.entries(${v}).map(([${k}, ${x}]) => [${k}, ${rest}${guarded(additional, x)}]))`;
      return own.length ? `({ ...${entries}, ${own.join(', ')} })` : entries;
    },
  };
}
