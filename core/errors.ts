/**
 * Named errors of rx-rest. Every message says what failed (which entity, endpoint or URL), what was
 * found instead, and what to do about it. In an app's production build (where the bundler defines
 * `process.env.NODE_ENV` as `"production"`, as Vite and esbuild do) the advice and the longer
 * explanations are left out of the bundle: each error keeps its class, its name and its fields, and its
 * message names what failed. Each guard is written `process.env.NODE_ENV !== 'production'` where the prose
 * is, so that the bundler's constant folding drops the prose there.
 */

/** Shortens any value to a readable one-line preview for error messages. */
export function preview(value: unknown, max = 120): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'function') text = `[function ${value.name || 'anonymous'}]`;
  else if (typeof value !== 'object')
    text = String(value); // number, bigint, boolean, symbol, undefined
  else {
    try {
      text =
        JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) ??
        String(value);
    } catch {
      text = Array.isArray(value) ? `[array of ${value.length}]` : Object.prototype.toString.call(value);
    }
  }
  return truncate(text, max);
}

/** `text`, cut to `max` characters (the last one an ellipsis) when longer. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An `Error` as it is, anything else thrown wrapped in one. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Describes the JavaScript kind of a value: `array (length 3)`, `string "abc"`, `null`, ... */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${preview(value, 60)}`;
}

/**
 * Thrown when a response (or a value given to `setResponse`) does not fit its schema: a missing or
 * unusable primary key, an array where an entity was expected, a cycle in the input, ... The store is
 * never changed by a normalize that throws.
 */
export class NormalizeError extends Error {
  override readonly name = 'NormalizeError';
  /** The `key` of the entity or schema that rejected the input (e.g. `'Todo'`). */
  declare readonly schemaKey: string;
  /** The offending input value. */
  declare readonly input: unknown;

  /** The request whose response did not fit, when the controller normalized one. */
  declare readonly request: RequestDescription | undefined;
  readonly #detail: string;

  constructor(schemaKey: string, message: string, input: unknown, request?: RequestDescription) {
    const where = request ? `${/[.!?]$/.test(message) ? '' : '.'} In the response to ${describeRequest(request)}.` : '';
    super(`${schemaKey}: ${message}${where}`);
    this.schemaKey = schemaKey;
    // not enumerable: an error kept in the state must not carry a (possibly cyclic) input into JSON
    Object.defineProperty(this, 'input', { value: input, enumerable: false });
    this.request = request;
    this.#detail = message;
  }

  /** The same error, its message also naming the request whose response it rejected (the controller adds this). */
  inResponseTo(request: RequestDescription): NormalizeError {
    const error = new NormalizeError(this.schemaKey, this.#detail, this.input, request);
    if (this.stack) error.stack = this.stack.replace(this.message, error.message);
    return error;
  }
}

/** One issue a Standard Schema validator found (its spec's `Issue`): a message and where in the value. */
export interface StandardIssue {
  /** What is wrong, in the validator's words. */
  readonly message: string;
  /** Where in the value: keys and indexes from the top (`['items', 0, 'title']`), or segments holding them. */
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

/** A segment of an issue's path, as some validators give it (`{ key: 'title' }`). */
export interface StandardPathSegment {
  /** The key or index. */
  readonly key: PropertyKey;
}

/** Where a `ValidationError` happened: the request, the entity and its pk, as far as they are known. */
export interface ValidationContext {
  /** The request whose response failed (the controller adds it to an entity's failure). */
  readonly request?: RequestDescription | undefined;
  /** The entity whose `static validator` rejected a record (e.g. `'Todo'`). */
  readonly entity?: string | undefined;
  /** The pk of the rejected record, when it could be computed. */
  readonly pk?: string | undefined;
}

/**
 * Rejects a request whose response a validator refused: the endpoint's `responseSchema` (the whole
 * body) or an entity's `static validator` (one record). Nothing of that response is written; an
 * observer that had data keeps it and shows this error, and the request is not retried.
 *
 * @example
 * try { await controller.fetch(TodoResource.get, { id: 1 }); }
 * catch (error) { if (error instanceof ValidationError) console.warn(error.entity, error.pk, error.issues); }
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  /** The issues, as the validator gave them. */
  declare readonly issues: readonly StandardIssue[];
  /** The request, when known. */
  declare readonly request: RequestDescription | undefined;
  /** The entity whose validator refused a record (`undefined` for an endpoint's `responseSchema`). */
  declare readonly entity: string | undefined;
  /** The pk of the refused record, when it could be computed. */
  declare readonly pk: string | undefined;
  /** The value that was refused (the body, or the processed record). */
  declare readonly value: unknown;

  constructor(issues: readonly StandardIssue[], value: unknown, context: ValidationContext) {
    const { request, entity, pk } = context;
    super(
      process.env.NODE_ENV !== 'production'
        ? validationMessage(issues, context)
        : `${entity ?? 'responseSchema'}: ${issues[0]?.message}`,
    );
    this.issues = issues;
    this.request = request;
    this.entity = entity;
    this.pk = pk;
    // not enumerable: an error kept in the state must not carry the value into JSON
    Object.defineProperty(this, 'value', { value });
  }

  /** The same error, its message also naming the request whose response it rejected (the controller adds this). */
  inResponseTo(request: RequestDescription): ValidationError {
    return new ValidationError(this.issues, this.value, { request, entity: this.entity, pk: this.pk });
  }
}

/** A `ValidationError`'s message: who failed, in the response to what, where in the value, and the first issue. */
function validationMessage(issues: readonly StandardIssue[], { request, entity, pk }: ValidationContext): string {
  // the first issue's path as text: `[2].title`
  let path = '';
  for (const segment of issues[0]?.path ?? []) {
    const key = (segment as StandardPathSegment).key ?? segment;
    path += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return (
    `${entity ? `${entity}${pk == null ? '' : ` "${pk}"`} failed its validator` : 'The response failed its responseSchema'}` +
    `${request ? ` in the response to ${describeRequest(request)}` : ''}${path && ` at ${path.replace(/^\./, '')}`}: ` +
    `${issues[0]?.message}${issues.length > 1 ? ` (+${issues.length - 1} more issues)` : ''}`
  );
}

/**
 * Thrown when reading an entity whose field deserializer (`static schema = { createdAt: Temporal.Instant.from }`)
 * rejects the stored value. The raw value stays in the store; fix the data or make the deserializer tolerant.
 */
export class DeserializeError extends Error {
  override readonly name = 'DeserializeError';
  /** The entity key (e.g. `'Todo'`). */
  declare readonly schemaKey: string;
  /** The field whose deserializer failed. */
  declare readonly field: string;
  /** The stored value it was given. */
  declare readonly value: unknown;

  constructor(schemaKey: string, field: string, value: unknown, cause: unknown) {
    super(
      process.env.NODE_ENV !== 'production'
        ? `${schemaKey}.${field}: the deserializer failed on ${preview(value)}: ${cause instanceof Error ? cause.message : String(cause)}`
        : `${schemaKey}.${field}`,
      { cause },
    );
    this.schemaKey = schemaKey;
    this.field = field;
    this.value = value;
  }
}

/** Thrown when a schema itself is malformed (e.g. an Entity without `pk()`, `new schema.Invalidate()` without an entity). */
export class SchemaDefinitionError extends Error {
  override readonly name = 'SchemaDefinitionError';
}

/**
 * Thrown when an endpoint or a resource is defined or derived wrongly: a resource path without a
 * parameter, `getList.push` on an endpoint whose schema holds no Collection, ... The message names the
 * endpoint and what to change.
 */
export class EndpointDefinitionError extends Error {
  override readonly name = 'EndpointDefinitionError';
}

/**
 * Thrown by `restoreSnapshot` and `new Controller({ initialState })` for a snapshot that cannot be
 * restored safely: a time (`date`, `fetchedAt`, `expiresAt`) that is not a finite number, or values
 * nested more than 4,096 levels deep (which the merge and the reads could not walk). Nothing of the
 * snapshot is written: the store is as it was. A `TypeError`, like the error for a value that is no
 * snapshot at all.
 *
 * @example
 * try { restoreSnapshot(controller, JSON.parse(saved)); }
 * catch (error) { if (error instanceof SnapshotError) console.warn(error.path, error.message); }
 */
export class SnapshotError extends TypeError {
  override readonly name = 'SnapshotError';
  /** Where in the snapshot the problem is, e.g. `entitiesMeta.Todo.1.fetchedAt` (`''` for the whole value). */
  declare readonly path: string;
  /** What is wrong there (the message without the call and the path). */
  declare readonly detail: string;

  /** `source`: what was restoring (`'restoreSnapshot'`, `'new Controller({ initialState })'`). */
  constructor(path: string, detail: string, source = 'restoreSnapshot') {
    super(`${source}: ${path ? `${path}: ` : ''}${detail}`);
    this.path = path;
    this.detail = detail;
  }
}

/** What the request errors (`NetworkError`, `ParseError`, `TimeoutError`, `AbortError`) need to know about the request that failed. */
export interface RequestDescription {
  /** The HTTP method, e.g. `'GET'`. */
  readonly method: string;
  /** The full URL that was requested. */
  readonly url: string;
  /** The endpoint's name (e.g. `'Todo.get'`, or `urlPrefix + path` for an unnamed one). */
  readonly endpoint?: string | undefined;
}

/** `GET https://api/todos/1 (endpoint Todo.get)`: how every request error starts. */
function describeRequest({ method, url, endpoint }: RequestDescription): string {
  return `${method} ${url}${endpoint ? ` (endpoint ${endpoint})` : ''}`;
}

/** What to check for a failed request with this status (0: none arrived). */
function statusHint(status: number): string {
  return status === 0
    ? 'Never reached the server: check that the server runs, urlPrefix and (in a browser) CORS.'
    : status >= 500
      ? 'The server failed: retrying later may help.'
      : status === 404 || status === 405
        ? 'Check the path, method, urlPrefix and URL arguments.'
        : status >= 400
          ? 'Check the URL arguments, the body and the credentials (see getRequestInit).'
          : 'See error.response.';
}

/**
 * The base of the errors of one request (`NetworkError`, `ParseError`, `TimeoutError`, `AbortError`):
 * each names the request's method, URL and endpoint.
 *
 * @example
 * catch (error) { if (error instanceof RequestError) console.warn(error.method, error.url, error.endpoint); }
 */
export abstract class RequestError extends Error {
  /** The method of the request. */
  declare readonly method: string;
  /** The full URL of the request. */
  declare readonly url: string;
  /** The name of the endpoint that sent it (`'Todo.get'`, or `urlPrefix + path`), when known. */
  declare readonly endpoint: string | undefined;

  constructor(request: RequestDescription, message: string, options?: { cause: unknown }) {
    super(message, options);
    this.method = request.method;
    this.url = request.url;
    this.endpoint = request.endpoint;
  }
}

/**
 * Rejects a request whose response is not 2xx (`status` is the HTTP status), or that never reached
 * the server (`status` is 0, `response` is `undefined` and `cause` is the original error). The body of
 * `response` is left unread: `await error.response.json()` works.
 *
 * @example
 * try { await TodoResource.get({ id: 5 }); }
 * catch (error) { if (error instanceof NetworkError && error.status === 404) { ... } }
 */
export class NetworkError extends RequestError {
  override readonly name = 'NetworkError';
  /** The HTTP status, or 0 when no response arrived. */
  declare readonly status: number;
  /** The response, body unread; `undefined` when no response arrived. */
  declare readonly response: Response | undefined;

  /**
   * @param request what was requested
   * @param failure the non-2xx `Response`, or for a request that never got one, `{ cause }`
   * @param bodyPreview a short preview of the response body, shown in the message
   */
  constructor(request: RequestDescription, failure: Response | { readonly cause: unknown }, bodyPreview?: string) {
    const response = failure instanceof Response ? failure : undefined;
    const status = response?.status ?? 0;
    const cause = response ? undefined : (failure as { readonly cause: unknown }).cause;
    super(
      request,
      process.env.NODE_ENV !== 'production'
        ? `${describeRequest(request)} ${
            response
              ? `answered ${status}${response.statusText ? ` ${response.statusText}` : ''}${bodyPreview ? ` with ${bodyPreview}` : ''}`
              : `failed before any response (status 0): ${errorText(cause)}`
          }. ${statusHint(status)}`
        : `${describeRequest(request)} ${status}`,
      response ? undefined : { cause },
    );
    this.status = status;
    this.response = response;
  }

  /**
   * The error as plain data for logs and `JSON.stringify` (an Error's own members are not enumerable,
   * so it would otherwise give `{}`): `{ name, status, message, url }`.
   */
  toJSON(): { name: 'NetworkError'; status: number; message: string; url: string } {
    return { name: this.name, status: this.status, message: this.message, url: this.url };
  }
}

/**
 * Rejects a 2xx response whose body is not valid JSON where JSON was needed: the endpoint has a
 * schema, or the server said `content-type: application/json`. Usually an HTML page (a dev server's
 * index.html, a login page, a proxy error) answered instead of the API.
 */
export class ParseError extends RequestError {
  override readonly name = 'ParseError';
  /** The HTTP status of the response (2xx). */
  declare readonly status: number;
  /** The response's `content-type` header, or `''` when it had none. */
  declare readonly contentType: string;
  /** The start of the body text that could not be parsed. */
  declare readonly text: string;

  constructor(request: RequestDescription, status: number, contentType: string, text: string, cause?: unknown) {
    const shown = truncate(text, 200);
    const reason = cause instanceof Error ? ` (${cause.message})` : '';
    super(
      request,
      process.env.NODE_ENV !== 'production'
        ? `${describeRequest(request)} answered ${status} with ${contentType ? `content-type "${contentType}"` : 'no content-type'} ` +
            `and a body that is not JSON${reason}: ${JSON.stringify(shown)}. ` +
            'Check urlPrefix and path: an HTML page usually means a web page answered, not the API (else override parseResponse).'
        : `${describeRequest(request)} ${status}`,
      cause === undefined ? undefined : { cause },
    );
    this.status = status;
    this.contentType = contentType;
    this.text = shown;
  }
}

/**
 * Rejects a request that got no complete response within the endpoint's `timeout` (ms); the underlying
 * `fetch` is aborted. Like a request that never reached the server, its `status` is 0: the controller
 * retries it (GET) and an observer keeps showing its cached data.
 *
 * @example
 * const get = TodoResource.get.extend({ timeout: 5_000 });
 * try { await get({ id: 1 }); } catch (error) { if (error instanceof TimeoutError) showSlowServerNotice(); }
 */
export class TimeoutError extends RequestError {
  override readonly name = 'TimeoutError' as const;
  /** Always 0: no (complete) response arrived. */
  readonly status = 0 as const;
  /** The limit that passed, in ms. */
  declare readonly timeout: number;

  constructor(request: RequestDescription, timeout: number) {
    super(
      request,
      process.env.NODE_ENV !== 'production'
        ? `${describeRequest(request)} got no complete response within its timeout of ${timeout} ms (status 0): aborted. Check the server, or raise the timeout option.`
        : `${describeRequest(request)} ${timeout} ms`,
    );
    this.timeout = timeout;
  }
}

/**
 * Rejects a request that was aborted before it completed: by the endpoint's `signal`, by a `signal` in
 * the `RequestInit`, or by the controller when the last observer of a GET unsubscribed and nobody else
 * awaited it. Nothing is stored for an aborted request (an optimistic layer is rolled back) and it is
 * never retried. `cause` is the abort reason (for `abortController.abort()`, fetch's `DOMException`).
 *
 * @example
 * const abort = new AbortController();
 * const search = SearchResource.getList.extend({ signal: abort.signal });
 * controller.fetch(search, { q }).catch((error) => { if (error.name !== 'AbortError') throw error; });
 * abort.abort();
 */
export class AbortError extends RequestError {
  override readonly name = 'AbortError' as const;

  constructor(request: RequestDescription, reason?: unknown) {
    super(
      request,
      process.env.NODE_ENV !== 'production'
        ? `${describeRequest(request)} was aborted${reason === undefined ? '' : `: ${typeof reason === 'string' ? reason : errorText(reason)}`}. Nothing was stored for it.`
        : describeRequest(request),
      reason === undefined ? undefined : { cause: reason },
    );
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const inner = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.name}: ${error.message}${inner}`;
  }
  return preview(error);
}
