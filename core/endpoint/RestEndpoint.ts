/**
 * `RestEndpoint`: one HTTP request, described by a path, a method and a schema, and callable.
 */
import { AbortError, NetworkError, type RequestDescription } from '../errors.js';
import type { Schema } from '../schema/index.js';
import { abortErrorOf, linkAbort } from './abort.js';
import { argumentsOf, keyMatches, requestInitOf, urlOf } from './buildRequest.js';
import { readResponse, type ContentResult, type ResponseContent } from './content.js';
import {
  extendedOptions,
  setUpEndpoint,
  type RestEndpointFields,
  type RestEndpointOptions,
} from './endpointOptions.js';
import {
  derivedEndpoint,
  getMemberOptions,
  paginatedEndpoint,
  setMemberOptions,
  type CollectionMember,
  type Paginated,
  type RemoveCursor,
} from './listMembers.js';
import { bodyPreview, perform, SEND_WITH } from './perform.js';
import { searchString } from './path.js';
import type {
  DefaultBody,
  EndpointParameters,
  FetchFunction,
  FetchOptions,
  HttpMethod,
  ProcessParameters,
  ResultOf,
  UrlArgs,
  UrlParameters,
} from './types.js';

export type { RestEndpointOptions } from './endpointOptions.js';

/**
 * Any endpoint, whatever its path, schema, method, arguments and result: the parameter type of code
 * that accepts every endpoint (the controller). Its call takes `unknown[]`.
 */
export type AnyRestEndpoint = RestEndpoint<any, any, any, any, any, any>;

/** The call signature of every `RestEndpoint` and the members its options become (merged into the class below). */
export interface RestEndpoint<
  P extends string = string,
  S extends Schema | undefined = undefined,
  M extends HttpMethod = 'GET',
  SP = undefined,
  B = DefaultBody<M>,
  R = ResultOf<S>,
> extends RestEndpointFields<P, S, M, SP, B> {
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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface makes instances callable
export class RestEndpoint<
  P extends string = string,
  S extends Schema | undefined = undefined,
  M extends HttpMethod = 'GET',
  SP = undefined,
  B = DefaultBody<M>,
  R = ResultOf<S>,
> {
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

    setUpEndpoint(endpoint, options);
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
      return perform(this, url, body, normalized, options.fetch);
    }
    const abort = linkAbort(this.describe(url, { method: this.method }), [this.signal, options.signal], this.timeout);
    try {
      if (abort.signal.aborted) throw abort.signal.reason;
      return await Promise.race([perform(this, url, body, normalized, options.fetch, abort), abort.aborted]);
    } finally {
      abort.dispose();
    }
  }

  /** The full URL for these arguments: `urlPrefix` + the filled path + the query string. */
  url(...[args]: UrlParameters<P, SP>): string {
    return urlOf(this, args as Readonly<Record<string, unknown>> | undefined);
  }

  /**
   * The query string (without `?`) of the URL arguments that are not path parameters: keys sorted,
   * `undefined` and `null` left out, an array as a repeated key, values through `encodeURIComponent`.
   * Override to encode otherwise (e.g. with `qs`).
   *
   * @example
   * list.searchToString({ userId: 1, tag: ['a', 'b'] }); // 'tag=a&tag=b&userId=1'
   */
  searchToString(searchParams: Readonly<Record<string, unknown>>): string {
    return searchString(this.path, searchParams);
  }

  /**
   * Whether a request key (`endpoint.key(...)`, a key of `state.endpoints`) is one of this endpoint's:
   * same method, same `urlPrefix`, and a path this endpoint's path matches (any query string).
   *
   * @example
   * TodoResource.get.testKey('GET https://api.example.com/todos/5'); // true
   */
  testKey(key: string): boolean {
    return keyMatches(this, key);
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
    return argumentsOf(this, args) as ProcessParameters<P, SP, B>;
  }

  /**
   * The `RequestInit` for the request: the method, `Accept: application/json`, and for a body a JSON
   * string with `Content-Type: application/json` (`FormData`, `Blob`, `URLSearchParams` and binary
   * bodies go as they are, and `fetch` sets their content type). Override to add headers or
   * `credentials`, or to transform the body; call `super.getRequestInit(body)` for the default.
   */
  getRequestInit(body: B | undefined): RequestInit | Promise<RequestInit> {
    return requestInitOf(this.method, body);
  }

  /**
   * Sends the request with the global `fetch` (or the controller's `fetch` option). Resolves the `Response` when it is 2xx; rejects with a
   * `NetworkError` carrying the unread response otherwise, or with status 0 and the original error as
   * `cause` when no response arrived. An aborted request rejects with an `AbortError` (or the
   * `TimeoutError` of the endpoint's `timeout`), never a `NetworkError`.
   */
  async fetchResponse(input: string, init: RequestInit): Promise<Response> {
    const { [SEND_WITH]: send = fetch, ...plain } = init as RequestInit & { [SEND_WITH]?: FetchFunction };
    const request = this.describe(input, plain);
    let response: Response;
    try {
      response = await send(input, plain);
    } catch (cause) {
      if (init.signal?.aborted) throw abortErrorOf(request, init.signal.reason);
      if (cause instanceof Error && cause.name === 'AbortError') throw new AbortError(request, cause);
      throw new NetworkError(request, { cause });
    }
    if (!response.ok) {
      // the body's start is for the message, which production builds leave out
      throw new NetworkError(
        request,
        response,
        process.env.NODE_ENV !== 'production' ? await bodyPreview(response) : undefined,
      );
    }
    return response;
  }

  /**
   * Reads the value of a 2xx response: as `content` says when it is set; otherwise `null` for 204 or
   * an empty body, JSON for a JSON content type (or none), a string for a text type, a `Blob` for any
   * other (binary) type. A body that is not JSON rejects with a `ParseError` when the endpoint has a
   * schema or the response says it is JSON; so does a binary body for an endpoint with a schema.
   * Override to read headers too (e.g. `link`).
   */
  async parseResponse(response: Response): Promise<unknown> {
    return readResponse(response, this.content, this.schema !== undefined, () =>
      this.describe(response.url || this.urlPrefix + this.path, { method: this.method }),
    );
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
   * A changed schema changes the result type unless a `process` is given too; so does `content`
   * (`extend({ content: 'blob' })` resolves a `Blob`).
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
    C extends ResponseContent | undefined = undefined,
    R2 = [C] extends [ResponseContent]
      ? ContentResult<C>
      : [S2] extends [S]
        ? [S] extends [S2]
          ? R
          : ResultOf<S2>
        : ResultOf<S2>,
  >(
    options: Partial<RestEndpointOptions<P2, S2, M2, SP2, B2, R2>> & { readonly content?: C },
  ): RestEndpoint<P2, S2, M2, SP2, B2, R2> {
    const Endpoint = this.constructor as new (
      options: RestEndpointOptions<P2, S2, M2, SP2, B2, R2>,
    ) => RestEndpoint<P2, S2, M2, SP2, B2, R2>;
    const extended = new Endpoint(extendedOptions(this, options) as RestEndpointOptions<P2, S2, M2, SP2, B2, R2>);
    setMemberOptions(extended, getMemberOptions(this));
    return extended;
  }

  /**
   * POSTs a new item to this list endpoint's URL; the created item is added to the end of every
   * stored list of its Collection whose arguments match (`Collection.push`). Needs a schema that is or
   * holds a Collection.
   *
   * @example
   * await controller.fetch(getTodos.push, { userId: 1 }, { title: 'Buy milk' });
   */
  get push(): CollectionMember<P, S, SP, 'push'> {
    return derivedEndpoint(this, 'push') as CollectionMember<P, S, SP, 'push'>;
  }

  /** Like `push`, adding the created item at the start of the matching lists (`Collection.unshift`). */
  get unshift(): CollectionMember<P, S, SP, 'unshift'> {
    return derivedEndpoint(this, 'unshift') as CollectionMember<P, S, SP, 'unshift'>;
  }

  /**
   * PATCHes this list endpoint's URL with an item; the item is updated from the response and removed
   * from every stored list whose arguments match the URL arguments and body (`Collection.remove`).
   *
   * @example
   * await controller.fetch(getUsers.remove, { group: 'five' }, { id: 2, group: 'six' });
   */
  get remove(): CollectionMember<P, S, SP, 'remove'> {
    return derivedEndpoint(this, 'remove') as CollectionMember<P, S, SP, 'remove'>;
  }

  /**
   * PATCHes one item (at `movePath`, for a resource the item's path) and moves it between the stored
   * lists: out of those its old values matched, into those its new values (body and response) match
   * (`Collection.move`). Typed on a resource's `getList`; on a plain endpoint (whose `movePath` the
   * types do not know) it is `unknown`: narrow it with `as RestEndpoint<'/todos/:id', ...>`.
   *
   * @example
   * await controller.fetch(TodoResource.getList.move, { id: 5 }, { userId: 2 });
   */
  get move(): unknown {
    return derivedEndpoint(this, 'move');
  }

  /**
   * `paginated(paginationField)`: GETs one more page and appends its items to the list of the same
   * arguments. (Typed `unknown` on a plain endpoint, whose pagination field the types do not know: use
   * `paginated('page')` there; a resource's `getList.getPage` is typed.)
   */
  get getPage(): unknown {
    return derivedEndpoint(this, 'getPage');
  }

  /**
   * An endpoint for one more page of this list: its arguments gain `field` (sent in the query string),
   * and the items of its response are appended, without duplicates, to the stored list whose arguments
   * are the page's without `field`. The function form maps a page's arguments to the list's.
   *
   * @example
   * const nextPage = getTodos.paginated('cursor');
   * await controller.fetch(nextPage, { userId: 1, cursor: 'abc' });
   */
  paginated<F extends string>(field: F): Paginated<P, S, SP, F>;
  paginated<A extends object>(
    removeCursor: (args: A) => readonly unknown[],
  ): Paginated<P, S, SP, string> extends RestEndpoint<P, infer S2, 'GET', infer _SP, infer _B, infer _R>
    ? RestEndpoint<P, S2, 'GET', A>
    : never;
  paginated(removeCursor: RemoveCursor): unknown {
    return paginatedEndpoint(this, removeCursor);
  }

  /** The request as error messages name it: method, URL and the endpoint's name (`'Todo.get'`, or `urlPrefix + path`). */
  protected describe(url: string, init: RequestInit): RequestDescription {
    return { method: init.method ?? this.method, url, endpoint: this.name };
  }
}

// Endpoints are functions: give them `call`, `apply` and `bind`.
Object.setPrototypeOf(RestEndpoint.prototype, Function.prototype);
