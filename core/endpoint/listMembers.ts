/**
 * The endpoints derived from a list endpoint whose schema is (or holds) a Collection: `push`,
 * `unshift`, `getPage` (`paginated`), `move` and `remove`. Each is the list endpoint extended, so it
 * keeps the list's options and hooks; each is built once per endpoint.
 */
import { EndpointDefinitionError } from '../errors.js';
import { Collection, appendUnique, collectionArgsKey, isObjectSchema, isPlainObject } from '../schema/index.js';
import type {
  ArraySchema,
  CollectionListSchema,
  ObjectSchema,
  CreateCollectionFilter,
  Denormalize,
} from '../schema/index.js';
import type { PathValue } from './path.js';
import type { RestEndpoint } from './RestEndpoint.js';
import type { JsonOf } from './types.js';

/** The members derived from a list endpoint. */
export type DerivedMember = 'push' | 'unshift' | 'getPage' | 'move' | 'remove';

/** The part of an endpoint the derived members need. */
interface ListLike {
  readonly name: string;
  readonly path: string;
  readonly schema: unknown;
  readonly paginationField: string | undefined;
  readonly movePath: string | undefined;
  extend(options: Record<string, unknown>): unknown;
}

/**
 * `paginated`'s argument: the pagination field, or a function from a page's arguments to the list's
 * (`paginated`'s overloads type its arguments).
 */
export type RemoveCursor = string | ((...args: never[]) => readonly unknown[]);

const built = new WeakMap<object, Map<string, unknown>>();
/** Options the derived members of an endpoint get (set by `createResource`: the resource's body, `optimistic`). */
const memberOptions = new WeakMap<object, Readonly<Record<string, unknown>>>();

/** Gives the derived members of `endpoint` these options too (kept by `extend`). */
export function setMemberOptions(endpoint: object, options: Readonly<Record<string, unknown>> | undefined): void {
  if (options) memberOptions.set(endpoint, options);
}

/** The options the derived members of `endpoint` get, if any. */
export function getMemberOptions(endpoint: object): Readonly<Record<string, unknown>> | undefined {
  return memberOptions.get(endpoint);
}

/** The Collection in a schema: the schema itself, or the first one among the members of an object schema. */
export function findCollection(schema: unknown): Collection<CollectionListSchema> | undefined {
  let found: Collection<CollectionListSchema> | undefined;
  mapCollection(schema, (collection) => (found ??= collection));
  return found;
}

/** The schema with each Collection in it (itself, or members of object schemas) replaced by `map(collection)`. */
export function mapCollection(
  schema: unknown,
  map: (collection: Collection<CollectionListSchema>) => unknown,
): unknown {
  if (schema instanceof Collection) return map(schema);
  if (isObjectSchema(schema)) return schema.withMembers(mapMembers(schema.schema, map));
  if (isPlainObject(schema)) return mapMembers(schema, map);
  return schema;
}

function mapMembers(
  members: Readonly<Record<string, unknown>>,
  map: (collection: Collection<CollectionListSchema>) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(members)) out[key] = mapCollection(members[key], map);
  return out;
}

/** What `make` builds for `endpoint` under `slot`: built on first use, then the same object. */
function cached(endpoint: object, slot: string, make: () => unknown): unknown {
  let members = built.get(endpoint);
  if (members === undefined) built.set(endpoint, (members = new Map()));
  let derived = members.get(slot);
  if (derived === undefined) members.set(slot, (derived = make()));
  return derived;
}

/** A derived member of `endpoint`, built on first use and then the same object. */
export function derivedEndpoint(endpoint: ListLike, member: DerivedMember): unknown {
  return cached(endpoint, member, () => build(endpoint, member));
}

/** `endpoint.paginated(removeCursor)`, the same object for the same field name. */
export function paginatedEndpoint(endpoint: ListLike, removeCursor: RemoveCursor): unknown {
  return typeof removeCursor === 'string'
    ? cached(endpoint, `paginated:${removeCursor}`, () => paginate(endpoint, removeCursor))
    : paginate(endpoint, removeCursor);
}

function build(endpoint: ListLike, member: DerivedMember): unknown {
  if (member === 'getPage') {
    if (endpoint.paginationField === undefined) {
      throw new EndpointDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? `${endpoint.name}.getPage: the endpoint has no paginationField. Give one (paginationField: 'page'), or use endpoint.paginated('page').`
          : `${endpoint.name}.getPage`,
      );
    }
    return paginatedEndpoint(endpoint, endpoint.paginationField);
  }
  const collection = requireCollection(endpoint, member);
  const extra = memberOptions.get(endpoint) ?? {};
  if (member === 'move') {
    const optimistic = extra.optimistic === true || (endpoint as { optimistic?: unknown }).optimistic === true;
    return endpoint.extend({
      ...extra,
      // the expected item: its pk from the URL arguments, its new values from the body
      ...(optimistic ? { getOptimisticResponse: moveExpected } : {}),
      method: 'PATCH',
      path: endpoint.movePath ?? endpoint.path,
      searchParams: undefined,
      schema: collection.move,
      name: `${endpoint.name}.move`,
    });
  }
  return endpoint.extend({
    ...extra,
    method: member === 'remove' ? 'PATCH' : 'POST',
    schema: collection[member],
    name: `${endpoint.name}.${member}`,
  });
}

function moveExpected(_snapshot: unknown, params: unknown, body: unknown): unknown {
  return { ...(params as object | undefined), ...(body as object | undefined) };
}

function paginate(endpoint: ListLike, removeCursor: RemoveCursor): unknown {
  const listArgs =
    typeof removeCursor === 'string'
      ? (...args: readonly unknown[]) => {
          const { [removeCursor]: _cursor, ...rest } = (args[0] ?? {}) as Record<string, unknown>;
          return [rest];
        }
      : (removeCursor as (...args: readonly unknown[]) => readonly unknown[]);
  const filter: CreateCollectionFilter = (...args) => {
    const wanted = collectionArgsKey(listArgs(...args)[0] ?? {});
    return (collectionArgs) => collectionArgsKey(collectionArgs) === wanted;
  };
  requireCollection(endpoint, 'getPage');
  return endpoint.extend({
    schema: mapCollection(endpoint.schema, (collection) => collection.addWith(appendUnique, filter)),
    name: `${endpoint.name}.getPage`,
  });
}

function requireCollection(endpoint: ListLike, member: string): Collection<CollectionListSchema> {
  const collection = findCollection(endpoint.schema);
  if (collection === undefined) {
    throw new EndpointDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `${endpoint.name}.${member}: the endpoint's schema holds no Collection, so there is no list to change. ` +
            `Use a schema such as new schema.Collection([Todo]) (or an object holding one).`
        : `${endpoint.name}.${member}`,
    );
  }
  return collection;
}

// ---------------------------------------------------------------------------------------------
// Types of the derived members.

/** The Collection a schema is or holds (as a member of an object schema), or `never`. */
export type CollectionIn<S> =
  S extends Collection<infer _L>
    ? S
    : S extends abstract new (...args: never[]) => unknown
      ? never
      : S extends ObjectSchema<infer O>
        ? CollectionInMembers<O>
        : S extends readonly unknown[]
          ? never
          : S extends object
            ? CollectionInMembers<S>
            : never;

type CollectionInMembers<O> = { [K in keyof O]-?: CollectionIn<O[K]> }[keyof O];

/** The schema of `paginated`/`getPage`: the Collection's page adder in place of the Collection. */
export type PagedSchema<S> =
  S extends Collection<infer _L>
    ? ReturnType<S['addWith']>
    : S extends ObjectSchema<infer O>
      ? ObjectSchema<PagedMembers<O>>
      : PagedMembers<S>;

type PagedMembers<O> = { [K in keyof O]: O[K] extends Collection<infer _L> ? ReturnType<O[K]['addWith']> : O[K] };

/**
 * `endpoint.push` / `unshift` / `remove` of an endpoint with path `P`, schema `S` and search params
 * `SP`: `never` when `S` holds no Collection. The body is any subset of the item's JSON fields
 * (`createResource` types its list members with the resource's body).
 */
export type CollectionMember<P extends string, S, SP, K extends 'push' | 'unshift' | 'remove'> = [
  CollectionIn<S>,
] extends [never]
  ? never
  : RestEndpoint<P, MemberSchema<S, K>, K extends 'remove' ? 'PATCH' : 'POST', SP, CollectionBody<S>>;

/** The default body of the members derived from a list: any subset of the JSON fields of its items. */
export type CollectionBody<S> =
  CollectionIn<S> extends Collection<infer L>
    ? L extends readonly [infer I]
      ? Partial<JsonOf<Denormalize<I>>>
      : L extends ArraySchema<infer I>
        ? Partial<JsonOf<Denormalize<I>>>
        : unknown
    : unknown;

/** The schema of `collection.push` (`unshift`, `remove`, `move`) for the Collection in `S`. */
export type MemberSchema<S, K extends 'push' | 'unshift' | 'remove' | 'move'> =
  CollectionIn<S> extends infer C ? (C extends Collection<infer _L> ? C[K] : never) : never;

/** `endpoint.paginated(field)` of an endpoint with path `P`, schema `S` and search params `SP`: its arguments gain `field`. */
export type Paginated<P extends string, S, SP, F extends string> = [CollectionIn<S>] extends [never]
  ? never
  : RestEndpoint<P, PagedSchema<S>, 'GET', PageParams<SP, F>>;

/** The search params of a page: the list's search params plus the pagination field. */
export type PageParams<SP, PF extends string> = ([SP] extends [undefined] ? unknown : NonNullable<SP>) & {
  [F in PF]: PathValue;
} extends infer A
  ? { [K in keyof A]: A[K] }
  : never;
