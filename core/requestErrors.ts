/**
 * The errors of one request (`NetworkError`, `ParseError`, `TimeoutError`, `AbortError`, all a
 * `RequestError`): each names the request's method, URL and endpoint, what happened and what to check.
 * Re-exported by core/errors.ts (import them from there). As there, the advice is written behind
 * `process.env.NODE_ENV !== 'production'` so that an app's production build leaves it out.
 */
import { preview, truncate } from './preview.js';

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
export function describeRequest({ method, url, endpoint }: RequestDescription): string {
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
    super(
      request,
      process.env.NODE_ENV !== 'production'
        ? `${describeRequest(request)} answered ${status} with ${contentType ? `content-type "${contentType}"` : 'no content-type'} ` +
            `and a body that is not JSON${cause instanceof Error ? ` (${cause.message})` : ''}: ${JSON.stringify(shown)}. ` +
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
