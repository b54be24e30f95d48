/**
 * The request itself, hook by hook (`getRequestInit` → `fetchResponse` → `parseResponse` →
 * `responseSchema` → `process`), and the preview of a failed response's body for its error.
 */
import { truncate } from '../errors.js';
import { validated, type Schema } from '../schema/index.js';
import type { RequestAbort } from './abort.js';
import type { RestEndpoint } from './RestEndpoint.js';
import type { FetchFunction, HttpMethod, ProcessParameters, ResultOf } from './types.js';

/** Where `perform` hands the per-call `fetch` to the default `fetchResponse`, inside its `RequestInit`. */
export const SEND_WITH = Symbol('rx-rest fetch');

/** The request itself (`fetchWith` without the abort race), with the linked abort signal (if any) in the `RequestInit`. */
export async function perform<P extends string, S extends Schema | undefined, M extends HttpMethod, SP, B, R>(
  endpoint: RestEndpoint<P, S, M, SP, B, R>,
  url: string,
  body: B | undefined,
  normalized: ProcessParameters<P, SP, B>,
  send: FetchFunction | undefined,
  abort?: RequestAbort,
): Promise<R> {
  let init = await endpoint.getRequestInit(body);
  if (abort) {
    if (init.signal) abort.follow(init.signal);
    init = { ...init, signal: abort.signal };
  }
  // the default fetchResponse takes it out again (a spread copy in an override keeps it)
  if (send !== undefined) init = { ...init, [SEND_WITH]: send } as RequestInit;
  const response = await endpoint.fetchResponse(url, init);
  let value = await endpoint.parseResponse(response);
  const schema = endpoint.responseSchema;
  if (schema)
    value = await validated(schema, value, () => ({
      request: { method: endpoint.method, url, endpoint: endpoint.name },
    }));
  return endpoint.process(value as ResultOf<S>, ...normalized);
}

/** A short preview of a failed response's body for the error message, read from a clone. */
export async function bodyPreview(response: Response): Promise<string | undefined> {
  try {
    const text = (await response.clone().text()).trim();
    if (text === '') return undefined;
    return JSON.stringify(truncate(text, 120));
  } catch {
    return undefined;
  }
}
