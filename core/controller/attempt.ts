/**
 * The parts of a request that know nothing of the runner: one attempt on the wire, the description of a
 * request that error messages use, and the value of one response read on its own.
 */
import type { FetchFunction } from '../endpoint/index.js';
import type { RequestDescription } from '../errors.js';
import { MemoCache, normalize } from '../schema/index.js';
import type { State } from '../store/index.js';
import type { ControllerEndpoint } from './types.js';

/** The request of a key, as error messages name it. */
export function describe(endpoint: ControllerEndpoint, key: string): RequestDescription {
  const url = key.startsWith(`${endpoint.method} `) ? key.slice(endpoint.method.length + 1) : key;
  return { method: endpoint.method, url, endpoint: endpoint.name };
}

/**
 * One attempt: `fetchWith` with the request's abort signal and the controller's `fetch` when the endpoint
 * has it (it rejects at once on an abort); any other endpoint is raced against the signal here.
 */
export function tryOnce(
  endpoint: ControllerEndpoint,
  args: readonly unknown[],
  signal: AbortSignal,
  fetch: FetchFunction | undefined,
): Promise<unknown> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (typeof endpoint.fetchWith === 'function')
    return endpoint.fetchWith(fetch === undefined ? { signal } : { signal, fetch }, ...args);
  const call = endpoint(...args);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The value of one response read on its own, over `state` when given: its own records over the
 * stored ones (merged as a newer write would be), the records it only refers to as stored. A memo of
 * its own, so that the observers' reads stay as they are.
 */
export function readOwn(
  endpoint: ControllerEndpoint,
  args: readonly unknown[],
  response: unknown,
  state?: State,
): unknown {
  const schema = endpoint.schema;
  if (schema === undefined) return response;
  const own = normalize(schema, response, args, state, { fetchedAt: Number.MAX_VALUE });
  return new MemoCache().denormalize(schema, own.result, own.entities, args).data;
}
