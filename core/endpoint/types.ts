/**
 * Types an endpoint is built from: HTTP methods, the argument tuple of a call (from the path, the
 * search params and the body), and the JSON a call resolves (from the schema).
 */
import type { Denormalize, StandardSchemaV1 } from '../schema/index.js';
import type { HasPathParams, PathArgs } from './path.js';

/** The HTTP methods an endpoint may use. */
export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that send a body by default (an endpoint with another method needs the `body` option). */
export type BodyMethod = 'POST' | 'PUT' | 'PATCH';

/** The body type of an endpoint without a `body` option: `unknown` (any body, optional) for POST/PUT/PATCH, none otherwise. */
export type DefaultBody<M extends HttpMethod> = M extends BodyMethod ? unknown : undefined;

/** Options every endpoint accepts besides its HTTP description; `createResource` passes them to every member. */
export interface EndpointExtraOptions {
  /** While observed, refetch every this many milliseconds. */
  readonly pollFrequency?: number | undefined;
  /** How long (ms) a successful response stays fresh. Default 60_000. */
  readonly dataExpiryLength?: number | undefined;
  /** How long (ms) an error stays before a retry is allowed. Default 1_000. */
  readonly errorExpiryLength?: number | undefined;
  /** Whether a mutation applies its expected result before the server answers. */
  readonly optimistic?: boolean | undefined;
  /**
   * How often the controller retries a request that failed with a network error (status 0, a
   * `TimeoutError` included) or a 5xx; 4xx, parse and normalize errors never retry. `false` is 0.
   * Default: the controller's `retry` (3) for requests without side effects, 0 for mutations.
   * Direct calls (`endpoint(args)`) never retry.
   */
  readonly retry?: number | false | undefined;
  /**
   * The wait (ms) before retry number `attempt` (0 for the first retry), or a function of it and the
   * error. Default: the controller's `retryDelay`, `min(1000 * 2 ** attempt, 30_000)` (1 s, 2 s, 4 s, ...).
   */
  readonly retryDelay?: RetryDelay | undefined;
  /**
   * Aborts each attempt that has no complete response after this many ms and rejects it with a
   * `TimeoutError` (status 0, so it is retried like a network error). Default: no limit.
   */
  readonly timeout?: number | undefined;
  /**
   * Aborts this endpoint's requests (as in `@data-client/rest`): a request in flight or started after
   * the abort rejects with an `AbortError`, stores nothing and is not retried.
   * Usually given per use: `endpoint.extend({ signal: abortController.signal })`.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * A Standard Schema (zod 4, valibot 1, arktype 2, ...) the parsed response body must pass before
   * `process` runs; it may be async. Its output goes on to `process`. A body that fails rejects with a
   * `ValidationError` (not retried), and nothing of it is stored.
   */
  readonly responseSchema?: StandardSchemaV1 | undefined;
}

/** `retryDelay`: a fixed wait in ms, or the wait before retry number `attempt` (0-based) after `error`. */
export type RetryDelay = number | ((attempt: number, error: Error) => number);

/** Per-call options of `endpoint.fetchWith(options, ...args)`. */
export interface FetchOptions {
  /** Aborts this call, besides the endpoint's own `signal` and `timeout` (the controller passes one here). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The `fetch` the default `fetchResponse` sends this call with, instead of the global one (the
   * controller passes its `fetch` option here). An overridden `fetchResponse` that calls
   * `super.fetchResponse(input, init)` with `init` or a spread copy of it uses it too.
   */
  readonly fetch?: FetchFunction | undefined;
}

/** A `fetch` function: the global one, or a framework's request-scoped one (SvelteKit's `event.fetch`). */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The JSON form of a value: what `JSON.parse(JSON.stringify(value))` gives. Methods drop out, values
 * with `toJSON` (`Date`, `Temporal.Instant`, `BigNumber`) become what it returns (strings).
 * `JsonOf<Todo>` is the plain object a server sends for a `Todo`.
 */
export type JsonOf<T> = T extends { toJSON(...args: never[]): infer J }
  ? J
  : T extends (...args: never[]) => unknown
    ? never
    : T extends readonly (infer I)[]
      ? JsonOf<I>[]
      : T extends object
        ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: JsonOf<T[K]> }
        : T;

/** What a direct call of an endpoint with schema `S` resolves by default: the JSON that reads back as `Denormalize<S>`; `unknown` without a schema. */
export type ResultOf<S> = [S] extends [undefined] ? unknown : JsonOf<Denormalize<S>>;

/** Turns an intersection into one flat object type (for readable hovers and errors). */
type Flatten<T> = { [K in keyof T]: T[K] };

/**
 * The URL-argument object of a call: path parameters (`PathArgs<P>`) plus the search params `SP`.
 * Without any, it is `Record<string, never>`, so an unexpected name is still a compile error.
 */
export type UrlArgs<P extends string, SP> =
  Flatten<PathArgs<P> & ([SP] extends [undefined] ? unknown : NonNullable<SP>)> extends infer A
    ? [keyof A] extends [never]
      ? Record<string, never>
      : A
    : never;

/** `true` for `any` (only `AnyRestEndpoint` passes it), so that any endpoint's call fits. */
type IsAny<T> = 0 extends 1 & T ? true : false;

/** `url(...)`'s parameters: the URL arguments, optional when none of them is required. */
export type UrlParameters<P extends string, SP> =
  IsAny<P> extends true
    ? [args?: UrlArgs<string, undefined>]
    : {} extends UrlArgs<P, SP>
      ? [args?: UrlArgs<P, SP>]
      : [args: UrlArgs<P, SP>];

/**
 * The parameters of a call: `(args)` for an endpoint without a body, `(args, body)` for one with a
 * body, and also `(body)` when the path has no parameters and no URL argument is required.
 */
export type EndpointParameters<P extends string, SP, B> =
  IsAny<P> extends true
    ? readonly unknown[]
    : [B] extends [undefined]
      ? UrlParameters<P, SP>
      : HasPathParams<P> extends false
        ? {} extends UrlArgs<P, SP>
          ? BodyParameter<B> | [args: UrlArgs<P, SP>, ...body: BodyParameter<B>]
          : [args: UrlArgs<P, SP>, ...body: BodyParameter<B>]
        : [args: UrlArgs<P, SP>, ...body: BodyParameter<B>];

/**
 * The arguments `process` receives after the value: the URL arguments (`{}` when the call had none),
 * then the body for an endpoint that takes one, whichever way the call was written.
 */
export type ProcessParameters<P extends string, SP, B> =
  IsAny<P> extends true
    ? unknown[]
    : [B] extends [undefined]
      ? [args: UrlArgs<P, SP>]
      : [args: UrlArgs<P, SP>, body: B];

/** `[body]`, optional when `B` admits `undefined`. */
type BodyParameter<B> = undefined extends B ? [body?: B] : [body: B];
