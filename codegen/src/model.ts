/** The model the analysis builds from a spec and the templates print: plain data, no TypeScript AST. */

/** Something the generator decided; `guessed` when no rule of the spec or the config fixed it. */
export interface Decision {
  readonly subject: string;
  readonly decision: string;
  readonly reason: string;
  readonly guessed: boolean;
}

/** Something the generator left out, and why. */
export interface Skipped {
  readonly subject: string;
  readonly reason: string;
}

/** One field of an Entity class. */
export interface FieldModel {
  /** The JSON property name. */
  readonly name: string;
  /** Its TypeScript type as read (dates as `Date`, nested entities as their classes). */
  readonly type: string;
  /** The default expression, or undefined for a field declared with `!` (required, no sensible default). */
  readonly init: string | undefined;
  /** The member of `static schema`: a nested schema or a deserializer. */
  readonly schema: string | undefined;
  readonly description: string | undefined;
}

/** An Entity class. */
export interface EntityModel {
  /** The class name. */
  readonly name: string;
  /** `static key`: the schema name. */
  readonly key: string;
  readonly pk: string;
  readonly fields: readonly FieldModel[];
  /** Whether `static schema` refers to other entities (then it is a getter, for circular imports). */
  readonly lazySchema: boolean;
  /** Entity classes its fields use as values. */
  readonly entityRefs: readonly string[];
  /** Names from types.ts its field types use. */
  readonly typeRefs: readonly string[];
  readonly description: string | undefined;
}

/** A named type (types.ts): a schema that is not an entity, or the request body form of an entity. */
export interface TypeModel {
  readonly name: string;
  readonly type: string;
  readonly entityRefs: readonly string[];
  readonly description: string | undefined;
}

/** A `schema.Union` of entities told apart by a field. */
export interface UnionModel {
  readonly name: string;
  readonly attribute: string;
  /** discriminator value → entity class */
  readonly members: Readonly<Record<string, string>>;
}

/** A member of a resource the spec has, and how it differs from createResource's default. */
export interface ResourceMember {
  readonly operation: string;
  /** The HTTP method when it is not the default one (Stripe updates with POST). */
  readonly method?: string | undefined;
}

/** A `createResource` for a collection path and its item path. */
export interface ResourceModel {
  readonly name: string;
  readonly entity: string;
  /** The item path in rx-rest's grammar (`/pets/:id`). */
  readonly path: string;
  /** Its operations' own server (`servers[0]` of the item GET and the list); undefined: the client's urlPrefix. */
  readonly urlPrefix: string | undefined;
  readonly searchParams: string | undefined;
  readonly body: string | undefined;
  /** Whether a call may leave the body out: no member's `requestBody` is `required` (OpenAPI's default). */
  readonly bodyOptional: boolean;
  readonly paginationField: string | undefined;
  /** The list schema when the list comes in an envelope (`{ data: new schema.Collection([Pet]), next: '' }`). */
  readonly listSchema: string | undefined;
  /**
   * The list operation's query parameters rx-rest would not write as the spec says (as `EndpointModel.queryStyles`),
   * for `withQueryStyles` on the resource's endpoint class; undefined when there are none.
   */
  readonly queryStyles: string | undefined;
  readonly members: Readonly<
    Partial<Record<'get' | 'getList' | 'push' | 'update' | 'partialUpdate' | 'delete', ResourceMember>>
  >;
  readonly entityRefs: readonly string[];
  readonly typeRefs: readonly string[];
  /** Unions from unions.ts it uses. */
  readonly unionRefs: readonly string[];
}

/** A `RestEndpoint` for an operation outside the resources. */
export interface EndpointModel {
  readonly name: string;
  readonly operation: string;
  readonly method: string;
  /** The operation's own server (its or its path item's `servers[0]`); undefined: the client's urlPrefix. */
  readonly urlPrefix: string | undefined;
  readonly path: string;
  readonly schema: string | undefined;
  readonly searchParams: string | undefined;
  readonly body: string | undefined;
  /** Whether a call may leave the body out: its `requestBody` is not `required` (OpenAPI's default). */
  readonly bodyOptional: boolean;
  readonly paginationField: string | undefined;
  /** The type of the plain JSON result when there is no schema. */
  readonly resultType: string | undefined;
  /** The endpoint's `content` for a response that is not JSON: `'text'` (a string) or `'blob'`. */
  readonly content: 'text' | 'blob' | undefined;
  /**
   * The query parameters rx-rest would not write as the spec says (`{ filter: ['deepObject', true] }`: OpenAPI's
   * `style` and `explode`), for `withQueryStyles`; undefined when there are none.
   */
  readonly queryStyles: string | undefined;
  /**
   * The query parameters named like a path parameter, passed as another argument (`{ nameQuery: 'name' }`:
   * argument → the spec's name), for `withQueryNames`; undefined when there are none.
   */
  readonly queryNames: string | undefined;
  /**
   * The array and object path parameters (`{ ids: ['simple', false] }`: OpenAPI's `style` and `explode`, and a
   * matrix parameter's name), for `withPathStyles`; undefined when there are none.
   */
  readonly pathStyles: string | undefined;
  /** A `process` body (the value and URL params → what the schema needs), e.g. for deletes. */
  readonly process: string | undefined;
  readonly entityRefs: readonly string[];
  readonly typeRefs: readonly string[];
  /** Unions from unions.ts it uses. */
  readonly unionRefs: readonly string[];
  readonly description: string | undefined;
}

/** Everything the templates print. */
export interface Model {
  readonly title: string;
  readonly urlPrefix: string;
  readonly temporal: boolean;
  readonly entities: readonly EntityModel[];
  readonly types: readonly TypeModel[];
  readonly unions: readonly UnionModel[];
  readonly resources: readonly ResourceModel[];
  readonly endpoints: readonly EndpointModel[];
  /** Header and security parameters, for the `requestHeaders` doc comment. */
  readonly headers: readonly string[];
  readonly decisions: readonly Decision[];
  readonly skipped: readonly Skipped[];
}

/** Per-schema overrides (the config's `schemas`, or `x-rx-rest-*` in the spec). */
export interface SchemaOverride {
  readonly entity?: boolean;
  readonly pk?: string;
  readonly key?: string;
}

/** The config file (`--config`): overrides and options. */
export interface Config {
  readonly schemas?: Readonly<Record<string, SchemaOverride>>;
  /** `date-time` fields as `Temporal.Instant` instead of `Date`. */
  readonly temporal?: boolean;
  /** Replaces `servers[0].url`. */
  readonly urlPrefix?: string;
  /** Operations (by operationId, or `METHOD /path`) to leave out. */
  readonly skip?: readonly string[];
  /** Where the config was read from (for error messages). */
  readonly source?: string;
}
