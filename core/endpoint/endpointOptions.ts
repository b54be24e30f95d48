/**
 * What an endpoint is built from: its options (`RestEndpointOptions`), the members they become
 * (`RestEndpointFields`), how a new endpoint takes them on, and the options `extend` starts from.
 */
import { EndpointDefinitionError } from '../errors.js';
import type { CheckedValidator, Schema, StandardSchemaV1 } from '../schema/index.js';
import type { ResponseContent } from './content.js';
import { assertPathSyntax } from './path.js';
import type { RestEndpoint } from './RestEndpoint.js';
import type { EndpointExtraOptions, HttpMethod, ProcessParameters, ResultOf, RetryDelay } from './types.js';

/**
 * What `new RestEndpoint(options)` and `endpoint.extend(options)` accept. The hooks, when given,
 * replace the class's methods on this one endpoint; `this` is the endpoint, so
 * `RestEndpoint.prototype.getRequestInit.call(this, body)` reaches the default. (`this` is typed
 * with an `unknown` result on purpose: naming `R` there would stop TypeScript from inferring `R`
 * from the return type of `process`.)
 */
export interface RestEndpointOptions<
  P extends string,
  S extends Schema | undefined,
  M extends HttpMethod,
  SP,
  B,
  R,
> extends EndpointExtraOptions {
  /** The path, with `:name` parameters (`:name?` for optional ones): `'/todos/:id'`. */
  readonly path: P;
  /** Prepended to the path: `'https://api.example.com'`. Default `''`. */
  readonly urlPrefix?: string | undefined;
  /** Default `'GET'`. */
  readonly method?: M;
  /** The schema of the response, used when it is normalized into the store (an entity's validator must fit it: `CheckedValidator`). */
  readonly schema?: S & CheckedValidator<S>;
  /** A type carrier for the query-string arguments: `{} as { userId?: number }`. */
  readonly searchParams?: SP;
  /** A type carrier for the body: `{} as Partial<Todo>`. Giving it lets any method send a body. */
  readonly body?: B;
  /**
   * Whether the request changes data on the server. Default: `true` unless the method is GET, HEAD or
   * OPTIONS (then `undefined`); an explicit value, `undefined` included, is kept as given.
   */
  readonly sideEffect?: boolean | undefined;
  /** The name of the argument that selects a page (`'page'`, `'cursor'`), for list endpoints. */
  readonly paginationField?: string | undefined;
  /** A name for messages and debugging, e.g. `'Todo.get'`. Default: `urlPrefix + path`. */
  readonly name?: string | undefined;
  /**
   * How a 2xx body is read: `'json'`, `'text'` (a string), `'blob'` (a `Blob`), `'arrayBuffer'` or
   * `'stream'` (the `ReadableStream`). Default: from the `Content-Type` (JSON types parse as JSON,
   * text types read as a string, other types as a `Blob`). Only `'json'` goes with a schema.
   */
  readonly content?: ResponseContent | undefined;
  /** The path of `move` (the path of one item, e.g. `'/todos/:id'`); default: this endpoint's path. */
  readonly movePath?: string | undefined;
  /** Transforms the parsed response (synchronously); receives the URL arguments and the body after it. */
  process?(
    this: RestEndpoint<P, S, M, SP, B, unknown>,
    value: ResultOf<NoInfer<S>>,
    ...args: ProcessParameters<P, SP, B>
  ): R;
  /** Builds the `RequestInit` for a body (`undefined` when the call has none). */
  getRequestInit?(this: RestEndpoint<P, S, M, SP, B, unknown>, body: B | undefined): RequestInit | Promise<RequestInit>;
  /** Reads the value from a 2xx response. */
  parseResponse?(this: RestEndpoint<P, S, M, SP, B, unknown>, response: Response): Promise<unknown>;
  /** Sends the request; resolves a 2xx `Response`, rejects with a `NetworkError` otherwise. */
  fetchResponse?(this: RestEndpoint<P, S, M, SP, B, unknown>, input: string, init: RequestInit): Promise<Response>;
}

/** The members an endpoint holds, from its options (merged into `RestEndpoint`). */
export interface RestEndpointFields<P extends string, S extends Schema | undefined, M extends HttpMethod, SP, B> {
  /** The path template, e.g. `'/todos/:id'`. */
  readonly path: P;
  /** Prepended to the path; `''` by default. */
  readonly urlPrefix: string;
  /** The HTTP method. */
  readonly method: M;
  /** The response schema (`undefined` for an endpoint whose response is not normalized). */
  readonly schema: S;
  /** The `searchParams` type carrier, as given. */
  readonly searchParams: SP;
  /** The `body` type carrier, as given. */
  readonly body: B;
  /**
   * Whether the request changes data on the server (not cached, never deduplicated): `true`, or
   * `undefined` (falsy) for GET, HEAD and OPTIONS unless the options said otherwise. (Typed `boolean` so
   * that every endpoint fits the controller; read it as truthy or falsy.)
   */
  readonly sideEffect: boolean;
  /** Refetch interval (ms) while observed, if any. */
  readonly pollFrequency: number | undefined;
  /** How long (ms) a response stays fresh. */
  readonly dataExpiryLength: number;
  /** How long (ms) an error stays before a retry. */
  readonly errorExpiryLength: number;
  /** The argument that selects a page, for list endpoints. */
  readonly paginationField: string | undefined;
  /** Whether a mutation applies its expected result before the server answers. */
  readonly optimistic: boolean | undefined;
  /** A name for messages: `'Todo.get'`, or `urlPrefix + path` (`'https://api.example.com/todos/:id'`). */
  readonly name: string;
  /** Retries through the controller, if set (else the controller's default: 3 for GET, 0 for mutations). */
  readonly retry: number | false | undefined;
  /** The wait before each retry, if set (else the controller's default). */
  readonly retryDelay: RetryDelay | undefined;
  /** The limit (ms) of each attempt, if any: past it the request is aborted with a `TimeoutError`. */
  readonly timeout: number | undefined;
  /** Aborts this endpoint's requests, if set: they reject with an `AbortError`. */
  readonly signal: AbortSignal | undefined;
  /** How a 2xx body is read, if fixed (else detected from the `Content-Type`). */
  readonly content: ResponseContent | undefined;
  /** The path `move` requests, if not this endpoint's own. */
  readonly movePath: string | undefined;
  /** The Standard Schema the parsed body must pass before `process`, if any. */
  readonly responseSchema: StandardSchemaV1 | undefined;
}

/** The options each endpoint was built from, kept for `extend` (a WeakMap: endpoints are functions with a fixed shape). */
const builtFrom = new WeakMap<
  object,
  RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>
>();

/** Keys of options that are not copied onto the endpoint (a function's own, fixed members; `name` is set apart). */
const NOT_COPIED = new Set(['name', 'length', 'prototype']);

/**
 * The options that are numbers (`retry` may be `false`, `retryDelay` a function) and the least value each takes: a
 * lifetime may be negative (stale at once), a time or count may not. (Development builds check them all.)
 */
const NUMERIC_OPTIONS: { readonly [option: string]: number } = {
  dataExpiryLength: -Infinity,
  errorExpiryLength: -Infinity,
  pollFrequency: 0,
  timeout: 0,
  retry: 0,
  retryDelay: 0,
};

/** Methods that do not change data on the server: their endpoints have no `sideEffect` unless told. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a call of this endpoint carries a body (a `body` option, or a method that sends one). */
export const takesBody = new WeakMap<object, boolean>();

/** The constructor's work (see `RestEndpoint`): checks `options` and copies them onto `endpoint`. */
export function setUpEndpoint<P extends string, S extends Schema | undefined, M extends HttpMethod, SP, B, R>(
  endpoint: object,
  options: RestEndpointOptions<P, S, M, SP, B, R>,
): void {
  assertPathSyntax(options.path);
  const method = (options.method ?? 'GET') as M;
  if (options.content !== undefined && options.content !== 'json' && options.schema !== undefined) {
    throw new EndpointDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `${options.name ?? `${options.urlPrefix ?? ''}${options.path}`}: content '${options.content}' cannot be normalized, ` +
            `so it cannot go with a schema. Set schema: undefined (or content: 'json').`
        : 'content',
    );
  }
  const members: Record<string, unknown> = {
    ...options,
    urlPrefix: options.urlPrefix ?? '',
    method,
    // an explicit `sideEffect` (even `undefined`) is kept; else `true` for the methods that change data
    sideEffect: 'sideEffect' in options ? options.sideEffect : SAFE_METHODS.has(method) ? undefined : true,
    dataExpiryLength: options.dataExpiryLength ?? 60_000,
    errorExpiryLength: options.errorExpiryLength ?? 1_000,
  };
  // a time or count that is no number (`NaN`, a string from an environment variable), or below its least value,
  // would mean something else silently (times no restore takes; no retries, no polling, no limit). The lifetimes,
  // which go into snapshots, are checked in every build; the request options in development (in production such a
  // value turns its feature off). `retry: false` (none) and a `retryDelay` function are allowed.
  for (const option of process.env.NODE_ENV !== 'production'
    ? Object.keys(NUMERIC_OPTIONS)
    : ['dataExpiryLength', 'errorExpiryLength']) {
    const value = members[option];
    if (
      value !== undefined &&
      !(typeof value == 'number'
        ? value >= (process.env.NODE_ENV !== 'production' ? NUMERIC_OPTIONS[option]! : -Infinity)
        : process.env.NODE_ENV !== 'production' &&
          (value === false ? option == 'retry' : typeof value == 'function' && option == 'retryDelay'))
    )
      throw new EndpointDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? `${options.name ?? `${options.urlPrefix ?? ''}${options.path}`}: ${option} must be ${
              (
                {
                  pollFrequency: 'a number of milliseconds, 0 or more (0: no polling)',
                  timeout: 'a number of milliseconds, 0 or more (0 or Infinity: no limit)',
                  retry: 'a number of retries, 0 or more (Infinity: no end), or false (none)',
                  retryDelay: 'a number of milliseconds, 0 or more, or a function (attempt, error) => milliseconds',
                } as Record<string, string>
              )[option] ?? 'a number of milliseconds (Infinity: never stale)'
            }, not ${typeof value} ${
              typeof value == 'function' ? value.name || 'function' : (JSON.stringify(value) ?? String(value))
            }.`
          : option,
      );
  }
  for (const [key, value] of Object.entries(members)) {
    // Options left undefined stay off the instance, so a subclass's prototype member can answer.
    if (value !== undefined && !NOT_COPIED.has(key))
      Object.defineProperty(endpoint, key, { value, enumerable: true, writable: true, configurable: true });
  }
  Object.defineProperty(endpoint, 'name', {
    value: options.name ?? `${options.urlPrefix ?? ''}${options.path}`,
    configurable: true,
  });
  builtFrom.set(
    endpoint,
    options as RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>,
  );
  takesBody.set(endpoint, options.body !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH');
}

/** The options `endpoint.extend(options)` builds the new endpoint from: `endpoint`'s own, with `options` over them. */
export function extendedOptions(endpoint: { readonly path: string }, options: object): object {
  let base: Partial<RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>> =
    builtFrom.get(endpoint) ?? { path: endpoint.path };
  if ('method' in options && !('sideEffect' in options) && 'sideEffect' in base) {
    // a new method without a new `sideEffect` takes that method's default
    const { sideEffect: _old, ...rest } = base;
    base = rest;
  }
  return { ...base, ...options };
}
