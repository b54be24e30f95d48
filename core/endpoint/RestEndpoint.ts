/**
 * `RestEndpoint`: one HTTP request, described by a path, a method and a schema, and callable.
 */
import { AbortError, NetworkError, ParseError, truncate, type RequestDescription } from '../errors.js';
import type { Schema } from '../schema/index.js';
import { abortErrorOf, linkAbort, type RequestAbort } from './abort.js';
import { parsePath, pathWithSearch } from './path.js';
import type {
  DefaultBody,
  EndpointExtraOptions,
  EndpointParameters,
  FetchOptions,
  HttpMethod,
  ProcessParameters,
  ResultOf,
  RetryDelay,
  UrlArgs,
  UrlParameters,
} from './types.js';

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
  /** The schema of the response, used when it is normalized into the store. */
  readonly schema?: S;
  /** A type carrier for the query-string arguments: `{} as { userId?: number }`. */
  readonly searchParams?: SP;
  /** A type carrier for the body: `{} as Partial<Todo>`. Giving it lets any method send a body. */
  readonly body?: B;
  /** Whether the request changes data on the server. Default: `true` unless the method is GET, HEAD or OPTIONS. */
  readonly sideEffect?: boolean | undefined;
  /** The name of the argument that selects a page (`'page'`, `'cursor'`), for list endpoints. */
  readonly paginationField?: string | undefined;
  /** A name for messages and debugging, e.g. `'Todo.get'`. Default: `'<METHOD> <path>'`. */
  readonly name?: string | undefined;
  /** Transforms the parsed response (synchronously); receives the URL arguments and the body after it. */
  process?(this: RestEndpoint<P, S, M, SP, B, unknown>, value: ResultOf<S>, ...args: ProcessParameters<P, SP, B>): R;
  /** Builds the `RequestInit` for a body (`undefined` when the call has none). */
  getRequestInit?(this: RestEndpoint<P, S, M, SP, B, unknown>, body: B | undefined): RequestInit | Promise<RequestInit>;
  /** Reads the value from a 2xx response. */
  parseResponse?(this: RestEndpoint<P, S, M, SP, B, unknown>, response: Response): Promise<unknown>;
  /** Sends the request; resolves a 2xx `Response`, rejects with a `NetworkError` otherwise. */
  fetchResponse?(this: RestEndpoint<P, S, M, SP, B, unknown>, input: string, init: RequestInit): Promise<Response>;
}

/**
 * Any endpoint, whatever its path, schema, method, arguments and result: the parameter type of code
 * that accepts every endpoint (the controller). Its call takes `unknown[]`.
 */
export type AnyRestEndpoint = RestEndpoint<any, any, any, any, any, any>;

/** The options each endpoint was built from, kept for `extend` (a WeakMap: endpoints are functions with a fixed shape). */
const builtFrom = new WeakMap<
  object,
  RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>
>();

/** Keys of options that are not copied onto the endpoint (a function's own, fixed members; `name` is set apart). */
const NOT_COPIED = new Set(['name', 'length', 'prototype']);

/** Whether a call of this endpoint carries a body (a `body` option, or a method that sends one). */
const takesBody = new WeakMap<object, boolean>();

/** The call signature of every `RestEndpoint` (merged into the class below). */
export interface RestEndpoint<
  P extends string = string,
  S extends Schema | undefined = undefined,
  M extends HttpMethod = 'GET',
  SP = undefined,
  B = DefaultBody<M>,
  R = ResultOf<S>,
> {
  /** Performs the request and resolves the processed response (plain JSON, not normalized); same as `fetch`. */
  (...args: EndpointParameters<P, SP, B>): Promise<R>;
}

/**
 * An HTTP endpoint: turns arguments into one request and its response into JSON. It knows nothing of
 * the store; the `Controller` normalizes what it returns with `schema`.
 *
 * Instances are functions: `endpoint(args, body)` performs the request. The constructor returns a
 * function object whose prototype is `new.target.prototype` (and `RestEndpoint.prototype` inherits
 * from `Function.prototype`), so `instanceof`, subclass overrides and `super.hook(...)` all work, and
 * `call`/`apply`/`bind` too. Options are copied onto the instance; hook options replace the class's
 * methods for that instance.
 *
 * Type parameters: `P` the path literal, `S` the schema, `M` the method, `SP` the search params,
 * `B` the body, `R` what a call resolves (by default the JSON form of `Denormalize<S>`).
 * A subclass that should keep them declares them again:
 * `class MyEndpoint<P extends string, S extends Schema | undefined = undefined> extends RestEndpoint<P, S> {}`;
 * with `createResource({ Endpoint: MyEndpoint })` a plain `class MyEndpoint extends RestEndpoint {}` is enough.
 *
 * @example
 * const getTodo = new RestEndpoint({ urlPrefix: 'https://api.example.com', path: '/todos/:id', schema: Todo });
 * const todo = await getTodo({ id: 5 }); // GET https://api.example.com/todos/5
 *
 * const createTodo = new RestEndpoint({
 *   urlPrefix: 'https://api.example.com', path: '/todos', method: 'POST', schema: Todo, body: {} as Partial<Todo>,
 * });
 * await createTodo({ title: 'Buy milk' }); // POST with a JSON body
 */
export class RestEndpoint<
  P extends string = string,
  S extends Schema | undefined = undefined,
  M extends HttpMethod = 'GET',
  SP = undefined,
  B = DefaultBody<M>,
  R = ResultOf<S>,
> {
  /** The path template, e.g. `'/todos/:id'`. */
  declare readonly path: P;
  /** Prepended to the path; `''` by default. */
  declare readonly urlPrefix: string;
  /** The HTTP method. */
  declare readonly method: M;
  /** The response schema (`undefined` for an endpoint whose response is not normalized). */
  declare readonly schema: S;
  /** The `searchParams` type carrier, as given. */
  declare readonly searchParams: SP;
  /** The `body` type carrier, as given. */
  declare readonly body: B;
  /** Whether the request changes data on the server (not cached, never deduplicated). */
  declare readonly sideEffect: boolean;
  /** Refetch interval (ms) while observed, if any. */
  declare readonly pollFrequency: number | undefined;
  /** How long (ms) a response stays fresh. */
  declare readonly dataExpiryLength: number;
  /** How long (ms) an error stays before a retry. */
  declare readonly errorExpiryLength: number;
  /** The argument that selects a page, for list endpoints. */
  declare readonly paginationField: string | undefined;
  /** Whether a mutation applies its expected result before the server answers. */
  declare readonly optimistic: boolean | undefined;
  /** A name for messages: `'Todo.get'`, or `'<METHOD> <path>'`. */
  declare readonly name: string;
  /** Retries through the controller, if set (else the controller's default: 3 for GET, 0 for mutations). */
  declare readonly retry: number | false | undefined;
  /** The wait before each retry, if set (else the controller's default). */
  declare readonly retryDelay: RetryDelay | undefined;
  /** The limit (ms) of each attempt, if any: past it the request is aborted with a `TimeoutError`. */
  declare readonly timeout: number | undefined;
  /** Aborts this endpoint's requests, if set: they reject with an `AbortError`. */
  declare readonly signal: AbortSignal | undefined;

  constructor(options: RestEndpointOptions<P, S, M, SP, B, R>) {
    const endpoint = ((...args: EndpointParameters<P, SP, B>) => endpoint.fetch(...args)) as unknown as RestEndpoint<
      P,
      S,
      M,
      SP,
      B,
      R
    >;
    Object.setPrototypeOf(endpoint, new.target.prototype);

    const method = (options.method ?? 'GET') as M;
    const members: Record<string, unknown> = {
      ...options,
      urlPrefix: options.urlPrefix ?? '',
      method,
      sideEffect: options.sideEffect ?? !(method === 'GET' || method === 'HEAD' || method === 'OPTIONS'),
      dataExpiryLength: options.dataExpiryLength ?? 60_000,
      errorExpiryLength: options.errorExpiryLength ?? 1_000,
    };
    for (const [key, value] of Object.entries(members)) {
      // Options left undefined stay off the instance, so a subclass's prototype member can answer.
      if (value !== undefined && !NOT_COPIED.has(key))
        Object.defineProperty(endpoint, key, { value, enumerable: true, writable: true, configurable: true });
    }
    Object.defineProperty(endpoint, 'name', { value: options.name ?? `${method} ${options.path}`, configurable: true });
    builtFrom.set(
      endpoint,
      options as RestEndpointOptions<string, Schema | undefined, HttpMethod, unknown, unknown, unknown>,
    );
    takesBody.set(endpoint, options.body !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH');
    return endpoint;
  }

  /**
   * Performs the request: `url` → `getRequestInit` → `fetchResponse` → `parseResponse` → `process`.
   * The call `endpoint(...args)` is this method; it is `fetchWith({}, ...args)`.
   */
  fetch(...args: EndpointParameters<P, SP, B>): Promise<R> {
    return this.fetchWith({}, ...args);
  }

  /**
   * `fetch` with per-call options: `signal` aborts this call, besides the endpoint's own `signal` and
   * `timeout`. An abort rejects with an `AbortError`, a timeout with a `TimeoutError`, at once, even
   * when an overridden hook ignores the signal. The controller calls this to abort requests nobody
   * awaits any more; override it (calling `super.fetchWith`) to wrap every request.
   *
   * @example
   * const abort = new AbortController();
   * const todo = TodoResource.get.fetchWith({ signal: abort.signal }, { id: 1 });
   */
  async fetchWith(options: FetchOptions, ...args: EndpointParameters<P, SP, B>): Promise<R> {
    const normalized = this.normalizeArguments(...args);
    const [urlArgs, body] = normalized as [UrlArgs<P, SP>, B | undefined];
    const url = this.url(urlArgs);
    if (this.signal === undefined && options.signal === undefined && this.timeout === undefined) {
      return perform(this, url, body, normalized);
    }
    const abort = linkAbort(this.describe(url, { method: this.method }), [this.signal, options.signal], this.timeout);
    try {
      if (abort.signal.aborted) throw abort.signal.reason;
      return await Promise.race([perform(this, url, body, normalized, abort), abort.aborted]);
    } finally {
      abort.dispose();
    }
  }

  /** The full URL for these arguments: `urlPrefix` + the filled path + the query string. */
  url(...[args]: UrlParameters<P, SP>): string {
    const path = pathWithSearch(this.path, args as Record<string, unknown> | undefined);
    // 'https://api.example.com/' + '/todos' would give a double slash.
    const prefix = this.urlPrefix.endsWith('/') && path.startsWith('/') ? this.urlPrefix.slice(0, -1) : this.urlPrefix;
    return prefix + path;
  }

  /** A stable string identifying the request in the cache: `'<METHOD> <url>'` (the body is not part of it). */
  key(...args: EndpointParameters<P, SP, B>): string {
    const [urlArgs] = this.normalizeArguments(...args) as [UrlArgs<P, SP>];
    return `${this.method} ${this.url(urlArgs)}`;
  }

  /**
   * The arguments of a call in one shape: `[urlArgs]`, or `[urlArgs, body]` for an endpoint that takes
   * a body. `urlArgs` is `{}` when the call had none; a lone argument is the body when the endpoint
   * takes one and its path has no parameters (`create(body)`). This is what `process` receives after
   * the value, and what a store should key and normalize with.
   */
  normalizeArguments(...args: EndpointParameters<P, SP, B>): ProcessParameters<P, SP, B> {
    const list = args as readonly unknown[];
    if (!takesBody.get(this)) return [list[0] ?? {}] as ProcessParameters<P, SP, B>;
    if (list.length === 1 && parsePath(this.path).length === 0) return [{}, list[0]] as ProcessParameters<P, SP, B>;
    return [list[0] ?? {}, list[1]] as ProcessParameters<P, SP, B>;
  }

  /**
   * The `RequestInit` for the request: the method, `Accept: application/json`, and for a body a JSON
   * string with `Content-Type: application/json` (`FormData`, `Blob`, `URLSearchParams` and binary
   * bodies go as they are, and `fetch` sets their content type). Override to add headers or
   * `credentials`, or to transform the body; call `super.getRequestInit(body)` for the default.
   */
  getRequestInit(body: B | undefined): RequestInit | Promise<RequestInit> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method: this.method, headers };
    if (body !== undefined) {
      if (isRawBody(body)) {
        init.body = body;
      } else {
        init.body = JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
      }
    }
    return init;
  }

  /**
   * Sends the request with the global `fetch`. Resolves the `Response` when it is 2xx; rejects with a
   * `NetworkError` carrying the unread response otherwise, or with status 0 and the original error as
   * `cause` when no response arrived. An aborted request rejects with an `AbortError` (or the
   * `TimeoutError` of the endpoint's `timeout`), never a `NetworkError`.
   */
  async fetchResponse(input: string, init: RequestInit): Promise<Response> {
    const request = this.describe(input, init);
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (cause) {
      if (init.signal?.aborted) throw abortErrorOf(request, init.signal.reason);
      if (cause instanceof Error && cause.name === 'AbortError') throw new AbortError(request, cause);
      throw new NetworkError(request, { cause });
    }
    if (!response.ok) throw new NetworkError(request, response, await bodyPreview(response));
    return response;
  }

  /**
   * Reads the value of a 2xx response: `null` for 204 or an empty body, else the parsed JSON. A body
   * that is not JSON rejects with a `ParseError` when the endpoint has a schema or the response says
   * it is JSON; otherwise it resolves as text. Override to read headers too (e.g. `link`).
   */
  async parseResponse(response: Response): Promise<unknown> {
    if (response.status === 204 || response.status === 205) return null;
    const text = await response.text();
    if (text.trim() === '') return null;
    const contentType = response.headers.get('content-type') ?? '';
    const saysJson = /[/+]json\b/i.test(contentType);
    if (!saysJson && contentType !== '' && this.schema === undefined) return text;
    try {
      return JSON.parse(text) as unknown;
    } catch (cause) {
      if (!saysJson && this.schema === undefined) return text;
      const request = this.describe(response.url || this.urlPrefix + this.path, { method: this.method });
      throw new ParseError(request, response.status, contentType, text, cause);
    }
  }

  /**
   * Transforms the parsed response before it is returned (and normalized). Synchronous; `args` are
   * the URL arguments, then the body (see `normalizeArguments`). Default: the value unchanged.
   */
  process(value: ResultOf<S>, ..._args: ProcessParameters<P, SP, B>): R {
    return value as R;
  }

  /**
   * A new endpoint of the same class with some options replaced; its types follow the new options.
   * A changed schema changes the result type unless a `process` is given too.
   *
   * @example
   * const getTodoWithUser = getTodo.extend({ path: '/users/:userId/todos/:id' });
   */
  extend<
    P2 extends string = P,
    S2 extends Schema | undefined = S,
    M2 extends HttpMethod = M,
    SP2 = SP,
    B2 = [M2] extends [M] ? B : DefaultBody<M2>,
    R2 = [S2] extends [S] ? ([S] extends [S2] ? R : ResultOf<S2>) : ResultOf<S2>,
  >(options: Partial<RestEndpointOptions<P2, S2, M2, SP2, B2, R2>>): RestEndpoint<P2, S2, M2, SP2, B2, R2> {
    const Endpoint = this.constructor as new (
      options: RestEndpointOptions<P2, S2, M2, SP2, B2, R2>,
    ) => RestEndpoint<P2, S2, M2, SP2, B2, R2>;
    const base = builtFrom.get(this) ?? { path: this.path };
    return new Endpoint({ ...base, ...options } as RestEndpointOptions<P2, S2, M2, SP2, B2, R2>);
  }

  /** The request as error messages name it: method, URL and the endpoint's name (`'Todo.get'`, or `'GET /todos/:id'`). */
  protected describe(url: string, init: RequestInit): RequestDescription {
    return { method: init.method ?? this.method, url, endpoint: this.name };
  }
}

// Endpoints are functions: give them `call`, `apply` and `bind`.
Object.setPrototypeOf(RestEndpoint.prototype, Function.prototype);

/** The request itself (`fetchWith` without the abort race), with the linked abort signal (if any) in the `RequestInit`. */
async function perform<P extends string, S extends Schema | undefined, M extends HttpMethod, SP, B, R>(
  endpoint: RestEndpoint<P, S, M, SP, B, R>,
  url: string,
  body: B | undefined,
  normalized: ProcessParameters<P, SP, B>,
  abort?: RequestAbort,
): Promise<R> {
  let init = await endpoint.getRequestInit(body);
  if (abort) {
    if (init.signal) abort.follow(init.signal);
    init = { ...init, signal: abort.signal };
  }
  const response = await endpoint.fetchResponse(url, init);
  const value = await endpoint.parseResponse(response);
  return endpoint.process(value as ResultOf<S>, ...normalized);
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/** A short preview of a failed response's body for the error message, read from a clone. */
async function bodyPreview(response: Response): Promise<string | undefined> {
  try {
    const text = (await response.clone().text()).trim();
    if (text === '') return undefined;
    return JSON.stringify(truncate(text, 120));
  } catch {
    return undefined;
  }
}
