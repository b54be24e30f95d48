/**
 * `createResource`: the endpoints of one REST resource (`get`, `getList` with `push`/`unshift`/`getPage`/
 * `move`/`remove`, `update`, `partialUpdate`, `delete`) sharing one schema, and `extend` to derive new resources.
 */
import { EndpointDefinitionError } from '../errors.js';
import { Collection, Invalidate, isEntityClass, schemaLabel } from '../schema/index.js';
import type { CheckedValidator, CollectionOptions, Denormalize, EntityClass, Schema, Union } from '../schema/index.js';
import { setMemberOptions } from './listMembers.js';
import { parsePath, removeLastArg, type PathArgs, type RemoveLastArg } from './path.js';
import { RestEndpoint, type AnyRestEndpoint, type RestEndpointOptions } from './RestEndpoint.js';
import type { ContentResult, ResponseContent } from './content.js';
import type { CollectionIn, MemberSchema, PageParams, Paginated } from './listMembers.js';
import type { EndpointExtraOptions, HttpMethod, JsonOf, ResultOf } from './types.js';

/** The schemas a resource is built on: an Entity class, or a `schema.Union` of them (data-client's `resource` takes both). */
export type ResourceSchema = EntityClass | Union;

/** Options of `createResource`. */
export interface ResourceOptions<
  P extends string,
  S extends ResourceSchema,
  SP,
  B,
  PF extends string | undefined,
> extends EndpointExtraOptions {
  /** The path of one item, e.g. `'/todos/:id'`; list members use `removeLastArg(path)`. */
  readonly path: P;
  /**
   * The entity class of the resource, or a `schema.Union` of entity classes (an entity's `static validator`,
   * if any, must fit its fields: see `CheckedValidator`).
   */
  readonly schema: S & CheckedValidator<S>;
  /** Prepended to every path. */
  readonly urlPrefix?: string | undefined;
  /** Type carrier for the query-string arguments of `getList`, `getList.push`/`unshift` and `getPage`. */
  readonly searchParams?: SP;
  /** Type carrier for the body of `getList.push`/`unshift`, `update` and `partialUpdate` (default: the entity's JSON fields, partial). */
  readonly body?: B;
  /** When given, adds `getList.getPage`, which sends this argument in the query string. */
  readonly paginationField?: PF;
  /** The class every member is built with (a `RestEndpoint` subclass). */
  readonly Endpoint?: EndpointClass;
  /** The class of `getList`'s schema (a `schema.Collection` subclass). */
  readonly Collection?: CollectionClass;
}

/** The default body of a resource: any subset of the entity's JSON fields. */
export type ResourceBody<S> = Partial<JsonOf<Denormalize<S>>>;

/** What `delete` resolves: the response when it held something, otherwise the URL arguments. */
export type DeleteResult<P extends string, S> = Partial<JsonOf<Denormalize<S>>> | PathArgs<P> | string;

/**
 * `getList`: the list endpoint, with the endpoints derived from it typed with the resource's body,
 * pagination field and item path.
 */
export type ListEndpoint<P extends string, S extends ResourceSchema, SP, B, PF extends string | undefined> = {
  /** POST a new item; it is added to the end of every matching cached list. */
  readonly push: RestEndpoint<RemoveLastArg<P>, Collection<[S]>['push'], 'POST', SP, B>;
  /** POST a new item; it is added to the start of every matching cached list. */
  readonly unshift: RestEndpoint<RemoveLastArg<P>, Collection<[S]>['unshift'], 'POST', SP, B>;
  /** PATCH an item at the list's URL; it is removed from every matching cached list. */
  readonly remove: RestEndpoint<RemoveLastArg<P>, Collection<[S]>['remove'], 'PATCH', SP, B>;
  /** PATCH one item (at the item's path); it leaves the cached lists it no longer matches and joins those it now matches. */
  readonly move: RestEndpoint<P, Collection<[S]>['move'], 'PATCH', undefined, B>;
} & (PF extends string
  ? {
      /** GET one more page; its items are appended (without duplicates) to the list of the same arguments. */
      readonly getPage: RestEndpoint<
        RemoveLastArg<P>,
        ReturnType<Collection<[S]>['addWith']>,
        'GET',
        PageParams<SP, PF>
      >;
    }
  : unknown) &
  RestEndpoint<RemoveLastArg<P>, Collection<[S]>, 'GET', SP>;

/** The members `createResource` builds. */
export type ResourceMembers<P extends string, S extends ResourceSchema, SP, B, PF extends string | undefined> = {
  /** GET one item. */
  readonly get: RestEndpoint<P, S, 'GET'>;
  /** GET the list (see `ListEndpoint`). */
  readonly getList: ListEndpoint<P, S, SP, B, PF>;
  /** PUT the item's fields. */
  readonly update: RestEndpoint<P, S, 'PUT', undefined, B>;
  /** PATCH some of the item's fields. */
  readonly partialUpdate: RestEndpoint<P, S, 'PATCH', undefined, Partial<B>>;
  /** DELETE the item; its entity becomes INVALID. */
  readonly delete: RestEndpoint<P, Invalidate<S>, 'DELETE', undefined, undefined, DeleteResult<P, S>>;
};

/** Any object of named endpoints. */
export type EndpointMembers = { readonly [name: string]: AnyRestEndpoint };

/**
 * The options a member accepts in `resource.extend`: any endpoint option. (Hooks given here are not
 * typed from the member: annotate their parameters; `endpoint.extend` types them.)
 */
export type ExtendOptions = Partial<
  RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>
>;

/**
 * A class that builds endpoints: `RestEndpoint` or a subclass of it, whatever its constructor's options
 * are typed as (each member is built with the resource's options for that member).
 */
export type EndpointClass = new (options: never) => AnyRestEndpoint;

/** How `createResource` calls an `EndpointClass`: with the options of one member. */
type MemberConstructor = new (
  options: RestEndpointOptions<string, undefined, 'GET', undefined, undefined, unknown>,
) => AnyRestEndpoint;

/** A class that builds the list schema: `schema.Collection` or a subclass of it. */
export type CollectionClass = new (
  schema: readonly [unknown],
  options?: CollectionOptions,
) => Collection<readonly [unknown]>;

/**
 * A schema written in a `const` context, with its sample values widened back: `{ total: 0 }` means a
 * number, not `0`. Entity classes, schema instances and functions are kept as they are.
 */
export type WidenSchema<S> = S extends string
  ? string
  : S extends number
    ? number
    : S extends boolean
      ? boolean
      : S extends abstract new (...args: never[]) => unknown
        ? S
        : S extends (...args: never[]) => unknown
          ? S
          : S extends { normalize(...args: never[]): unknown }
            ? S
            : S extends object
              ? { -readonly [K in keyof S]: WidenSchema<S[K]> }
              : S;

/** The type of `endpoint.extend(options)` for options of type `O` (members added to the endpoint, like `push`, are kept). */
export type Extended<E, O> =
  E extends RestEndpoint<infer P, infer S, infer M, infer SP, infer B, infer R>
    ? ExtendedEndpoint<
        E,
        O extends { readonly path: infer P2 extends string } ? P2 : P,
        O extends { readonly schema: infer S2 extends Schema | undefined } ? WidenSchema<S2> : S,
        O extends { readonly method: infer M2 extends HttpMethod } ? M2 : M,
        O extends { readonly searchParams: infer SP2 } ? SP2 : SP,
        O extends { readonly body: infer B2 } ? B2 : B,
        O extends { process(...args: never[]): infer R2 }
          ? R2
          : O extends { readonly content: infer C extends ResponseContent }
            ? ContentResult<C>
            : O extends { readonly schema: infer S2 }
              ? ResultOf<WidenSchema<S2>>
              : R
      >
    : never;

type ExtendedEndpoint<E, P extends string, S extends Schema | undefined, M extends HttpMethod, SP, B, R> = RestEndpoint<
  P,
  S,
  M,
  SP,
  B,
  R
> &
  ExtraMembers<E> &
  ListMembers<E, P, S, SP>;

/** The members an endpoint carries beyond `RestEndpoint`'s, or `unknown` when none. */
type ExtraMembers<E> = [Exclude<keyof E, keyof AnyRestEndpoint>] extends [never]
  ? unknown
  : { readonly [K in Exclude<keyof E, keyof AnyRestEndpoint>]: E[K] };

/**
 * A resource list's derived members after `extend`: typed again from the new path, schema and search
 * params, keeping the resource's body, item path and pagination field (`unknown` for other endpoints).
 */
type ListMembers<E, P extends string, S, SP> = [CollectionIn<S>] extends [never]
  ? unknown
  : E extends {
        readonly push: RestEndpoint<infer _P, infer _S, infer _M, infer _SP, infer B, infer _R>;
        readonly move: RestEndpoint<infer ItemPath, infer _S, infer _M, infer _SP, infer _B, infer _R>;
      }
    ? {
        readonly push: RestEndpoint<P, MemberSchema<S, 'push'>, 'POST', SP, B>;
        readonly unshift: RestEndpoint<P, MemberSchema<S, 'unshift'>, 'POST', SP, B>;
        readonly remove: RestEndpoint<P, MemberSchema<S, 'remove'>, 'PATCH', SP, B>;
        readonly move: RestEndpoint<ItemPath, MemberSchema<S, 'move'>, 'PATCH', undefined, B>;
      } & (E extends { readonly getPage: RestEndpoint<infer _P, infer _S, 'GET', infer PageSP, infer _B, infer _R> }
        ? { readonly getPage: Paginated<P, S, SP, Exclude<keyof PageSP, keyof NonNullable<SP>> & string> }
        : unknown)
    : unknown;

/**
 * `resource.extend`: three forms, each returning a new resource (the old one is unchanged).
 * (Member types are constrained to `object`, not to endpoints: a constraint naming `RestEndpoint`
 * would leak into the inference of `base.getList.extend(...)` inside the function form.)
 */
export interface ResourceExtend<M extends object> {
  /** Adds (or replaces) members built from the base ones: `extend(base => ({ search: base.getList.extend({...}) }))`. */
  <E extends object>(build: (base: Resource<M>) => E): Resource<Omit<M, keyof E> & E>;
  /**
   * Extends the member `name` with some options replaced (`extend('getList', { searchParams: ... })`),
   * or, for a new name, adds a member built from `get`: `extend('search', { path: '/todos/search/:q' })`.
   */
  <N extends string, const O extends ExtendOptions>(
    name: N,
    options: O,
  ): Resource<
    Omit<M, N> & {
      readonly [K in N]: K extends keyof M
        ? Extended<M[K], O>
        : M extends { readonly get: infer G }
          ? Extended<G, O>
          : never;
    }
  >;
  /** Overrides options of existing members: `extend({ getList: { schema: ... }, update: { method: 'PATCH' } })`. */
  <const O extends { readonly [K in keyof M]?: ExtendOptions }>(
    overrides: O,
  ): Resource<{
    [K in keyof M]: K extends keyof O ? Extended<M[K], O[K]> : M[K];
  }>;
}

/** A resource: its endpoints (`M`), plus `extend`. */
export type Resource<M extends object> = M & { readonly extend: ResourceExtend<M> };

/**
 * Builds the endpoints of one REST resource, all sharing `schema`:
 *
 * | member | request | schema |
 * |---|---|---|
 * | `get(args)` | `GET path` | `schema` |
 * | `getList(args?)` | `GET removeLastArg(path)?searchParams` | `new Collection([schema])` |
 * | `getList.push(args, body)` / `unshift` | `POST removeLastArg(path)?searchParams` | `getList.schema.push` / `unshift` |
 * | `getList.getPage(args)` (with `paginationField`) | `GET removeLastArg(path)?searchParams&page=` | `getList.schema.addWith(appendUnique, ...)` |
 * | `getList.remove(args, body)` | `PATCH removeLastArg(path)?searchParams` | `getList.schema.remove` |
 * | `getList.move(args, body)` | `PATCH path` | `getList.schema.move` |
 * | `update(args, body)` / `partialUpdate(args, body)` | `PUT` / `PATCH path` | `schema` |
 * | `delete(args)` | `DELETE path` | `new Invalidate(schema)` |
 *
 * Extra options (`pollFrequency`, `dataExpiryLength`, ...) go to every member; `optimistic: true`
 * makes the mutations optimistic. Member names are `<schema.key>.<member>` (e.g. `'Todo.getList.push'`).
 * The list members derive from `getList` (they are `RestEndpoint`'s `push`, `unshift`, `getPage`, `move`
 * and `remove`), so `getList.extend(...)` and `extend({ getList })` keep them, with the new options.
 * A path without a parameter throws an `EndpointDefinitionError`: a resource's path names one item.
 *
 * @example
 * const TodoResource = createResource({
 *   urlPrefix: 'https://api.example.com', path: '/todos/:id', schema: Todo,
 *   searchParams: {} as { userId?: number } | undefined, paginationField: 'page',
 * });
 * await TodoResource.get({ id: 5 });
 * await TodoResource.getList.push({ userId: 1 }, { title: 'Buy milk' });
 */
export function createResource<
  const P extends string,
  S extends ResourceSchema,
  SP = undefined,
  B = ResourceBody<S>,
  PF extends string | undefined = undefined,
>(options: ResourceOptions<P, S, SP, B, PF>): Resource<ResourceMembers<P, S, SP, B, PF>> {
  const {
    path,
    schema,
    searchParams,
    body,
    paginationField,
    optimistic,
    Endpoint = RestEndpoint as EndpointClass,
    Collection: ListCollection = Collection,
    ...shared
  } = options;
  if (parsePath(path).length === 0) {
    throw new EndpointDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `createResource({ path: '${path}' }): the path of a resource names one item, so it needs a parameter ` +
            `(e.g. '${path.replace(/\/$/, '')}/:id'). For a single endpoint without one, use new RestEndpoint({ path }).`
        : path,
    );
  }
  for (const [option, Right] of [
    ['endpoint', 'Endpoint'],
    ['collection', 'Collection'],
  ] as const) {
    if (hasOwn.call(shared, option)) {
      throw new EndpointDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? `createResource({ path: '${path}' }): the option is \`${Right}\`, capitalized (got \`${option}\`): ` +
              `it names the class every member is built with.`
          : option,
      );
    }
  }
  const listPath = removeLastArg(path);
  // an Entity's key (`Todo.get`); for a Union, its members' keys (`User;Group.get`)
  const prefix = isEntityClass(schema) ? schema.key : (schema as Union).members().map(schemaLabel).join(';');
  const name = (member: string) => `${prefix}.${member}`;
  const mutation = optimistic ? { optimistic: true } : {};
  const build = (memberOptions: Record<string, unknown>) =>
    new (Endpoint as MemberConstructor)({ ...shared, ...memberOptions } as unknown as RestEndpointOptions<
      string,
      undefined,
      'GET',
      undefined,
      undefined,
      unknown
    >);

  const getList = build({
    path: listPath,
    searchParams,
    paginationField,
    movePath: path,
    schema: new ListCollection([schema]),
    name: name('getList'),
  });
  // push, unshift, remove, move and getPage derive from getList (and from any extension of it)
  setMemberOptions(getList, { body, ...mutation });

  const members = {
    get: build({ path, schema, name: name('get') }),
    getList,
    update: build({ path, schema, ...mutation, method: 'PUT', body, name: name('update') }),
    partialUpdate: build({ path, schema, ...mutation, method: 'PATCH', body, name: name('partialUpdate') }),
    delete: build({
      path,
      schema: new Invalidate(schema),
      ...mutation,
      method: 'DELETE',
      process: deleteProcess,
      name: name('delete'),
    }),
  };
  return toResource(members, name) as unknown as Resource<ResourceMembers<P, S, SP, B, PF>>;
}

/**
 * `delete`'s `process`: the response when it holds something (an object with at least one key, or a
 * pk string), otherwise the URL arguments, so `Invalidate` can compute the pk without a response body.
 */
function deleteProcess(value: unknown, params: unknown): unknown {
  if (typeof value === 'string' ? value !== '' : typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) return value;
  return params;
}

function toResource(members: Record<string, AnyRestEndpoint>, name: (member: string) => string): unknown {
  const extend = (...args: unknown[]): unknown => {
    const [first, second] = args;
    if (typeof first === 'function') {
      const added = (first as (base: unknown) => Record<string, AnyRestEndpoint>)(resource);
      return toResource({ ...members, ...added }, name);
    }
    if (typeof first === 'string') {
      const existing = hasOwn.call(members, first) ? members[first] : undefined;
      if (existing !== undefined) return toResource({ ...members, [first]: existing.extend(second as object) }, name);
      const get = members.get;
      if (get === undefined)
        throw new EndpointDefinitionError(
          process.env.NODE_ENV !== 'production'
            ? `resource.extend('${first}', options) builds on "get", which this resource lacks.`
            : first,
        );
      return toResource({ ...members, [first]: get.extend({ name: name(first), ...(second as object) }) }, name);
    }
    const overrides = (first ?? {}) as Record<string, Record<string, unknown>>;
    const next = { ...members };
    for (const [member, memberOptions] of Object.entries(overrides)) {
      const endpoint = hasOwn.call(members, member) ? members[member] : undefined;
      if (endpoint === undefined) {
        throw new EndpointDefinitionError(
          process.env.NODE_ENV !== 'production'
            ? `resource.extend({ ${member}: ... }): no member "${member}" (only ${Object.keys(members).join(', ')}); add one with resource.extend('${member}', options).`
            : member,
        );
      }
      next[member] = endpoint.extend(memberOptions);
    }
    return toResource(next, name);
  };
  const resource = { ...members, extend };
  return resource;
}

const hasOwn = Object.prototype.hasOwnProperty;
