/**
 * How the demo panels get back on their feet after the REST server was unreachable, shared by both apps
 * and written against the public API only (`controller.observe`, `controller.fetch`).
 *
 * A query whose load failed stays in its error until something asks again, so while a panel shows a
 * failure this retries its request every `RETRY_MS`. This is the demos' own stopgap until the
 * controller refetches failed queries by itself when the network comes back; then `recovery` only
 * needs to report the failure.
 */
import { concat, distinctUntilChanged, ignoreElements, of, scan, switchMap, tap, timer, type Observable } from 'rxjs';
import type { Controller, EndpointArgs, ReadEndpoint } from 'rx-rest';

/** How often a panel whose request failed tries again, in milliseconds. */
export const RETRY_MS = 3_000;

/**
 * The failure a panel shows for `endpoint` with `args`: the last error, kept while the next attempt is
 * on its way (so the panel shows the error, not "Loading…", between attempts), and `undefined` once a
 * request succeeded. While there is a failure it fetches again every `RETRY_MS`.
 *
 * @example
 * recovery(controller, TodoResource.getList, { userId: 1 }).subscribe((failure) => show(failure));
 */
export function recovery<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  ...args: EndpointArgs<E>
): Observable<Error | undefined> {
  const retry = () => controller.fetch(endpoint, ...args).catch(() => undefined); // the state shows the outcome
  return controller.observe(endpoint, ...args).pipe(
    scan<{ error: Error | undefined; fetching: boolean }, Error | undefined>(
      (failure, state) => state.error ?? (state.fetching ? failure : undefined),
      undefined,
    ),
    distinctUntilChanged(),
    switchMap((failure) =>
      failure ? concat(of(failure), timer(RETRY_MS, RETRY_MS).pipe(tap(retry), ignoreElements())) : of(undefined),
    ),
  );
}
