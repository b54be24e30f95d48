/**
 * What a call sends: its arguments in one shape, its URL and its `RequestInit` (the defaults of
 * `RestEndpoint`'s `normalizeArguments`, `url` and `getRequestInit`), and which request keys are an
 * endpoint's (`testKey`).
 */
import { takesBody } from './endpointOptions.js';
import { compilePath, parsePath, pathKeys, pathRegex } from './path.js';

/** What `urlOf` reads of an endpoint (`searchToString` may be overridden). */
interface UrlParts {
  readonly path: string;
  readonly urlPrefix: string;
  searchToString(searchParams: Readonly<Record<string, unknown>>): string;
}

/** The arguments of a call of `endpoint` as `[urlArgs]` or `[urlArgs, body]` (see `RestEndpoint.normalizeArguments`). */
export function argumentsOf(endpoint: { readonly path: string }, list: readonly unknown[]): unknown[] {
  if (!takesBody.get(endpoint)) return [list[0] ?? {}];
  if (list.length === 1 && parsePath(endpoint.path).length === 0) return [{}, list[0]];
  return [list[0] ?? {}, list[1]];
}

/** The full URL for `args`: `urlPrefix` + the filled path + the query string of the other arguments. */
export function urlOf(endpoint: UrlParts, args: Readonly<Record<string, unknown>> | undefined): string {
  const all = (args ?? {}) as Readonly<Record<string, unknown>>;
  const compiled = compilePath(endpoint.path, all);
  let search: Record<string, unknown> | undefined;
  const inPath = parsePath(endpoint.path).length === 0 ? undefined : new Set(pathKeys(endpoint.path));
  for (const key of Object.keys(all)) {
    if (inPath?.has(key)) continue;
    // a table without a prototype: an argument named `__proto__` stays an argument
    (search ??= Object.create(null) as Record<string, unknown>)[key] = all[key];
  }
  const query = search === undefined ? '' : endpoint.searchToString(search);
  const path = query === '' ? compiled : `${compiled}${compiled.includes('?') ? '&' : '?'}${query}`;
  // 'https://api.example.com/' + '/todos' would give a double slash.
  const prefix =
    endpoint.urlPrefix.endsWith('/') && path.startsWith('/') ? endpoint.urlPrefix.slice(0, -1) : endpoint.urlPrefix;
  return prefix + path;
}

/** Whether `key` is a request key of `endpoint`: same method, same `urlPrefix`, a path its path matches. */
export function keyMatches(
  endpoint: { readonly method: string; readonly urlPrefix: string; readonly path: string },
  key: string,
): boolean {
  const prefix = `${endpoint.method} ${endpoint.urlPrefix}`;
  if (!key.startsWith(prefix)) return false;
  const question = key.indexOf('?', prefix.length);
  let path = key.slice(prefix.length, question === -1 ? undefined : question);
  if (endpoint.urlPrefix.endsWith('/') && endpoint.path.startsWith('/')) path = `/${path}`;
  return pathRegex(endpoint.path).test(path);
}

/** The default `RequestInit` (see `RestEndpoint.getRequestInit`): JSON, unless the body is already one `fetch` takes. */
export function requestInitOf(method: string, body: unknown): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, headers };
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

/** Whether `body` goes to `fetch` as it is (form data, a blob, search params, binary data). */
function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}
