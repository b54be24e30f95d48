/** `keepPreviousData` for the adapters: the data on screen stands in while the next arguments load. */
import { Observable, skip, type Subscription } from 'rxjs';
import type { Controller } from './Controller.js';
import type { ControllerEndpoint, QueryState } from './types.js';
import { peekQuery } from './watchQuery.js';

/** A query's state as the adapters show it: `placeholder` is true while the previous arguments' data stands in. */
export interface QueryResult<T> extends QueryState<T> {
  /** `data` is the previous arguments' data, shown while this request loads (`keepPreviousData`). */
  readonly placeholder: boolean;
}

/**
 * A mapper over the states of one query across argument changes: with `keep`, a loading state with no
 * data shows the last data instead (`loading: false`, `placeholder: true`; `fetching` stays true). An
 * error, or idle arguments, end the stand-in. Other fields of the state (`hasNext`, ...) pass through.
 *
 * Its `open(list, states$)` maps the states of the request of `list` (an argument list) the same way, and
 * with `live` (the controller and endpoint of the query; `present` maps every state given) the data standing in is read again from the store
 * on every change while it stands in: a write to it shows, a deleted row leaves, and the previous request
 * is not subscribed to again (nothing refetches it). The adapters' `keepPreviousData` is this.
 *
 * @example
 * const view = keepPrevious<QueryState<Todo[]>>(true);
 * controller.observe(TodoResource.getList, { userId }).subscribe((state) => render(view(state)));
 * // the placeholder follows writes to the previous list
 * const live = keepPrevious<QueryState<Todo[]>>(true, { controller, endpoint: TodoResource.getList });
 * live.open([{ userId }], controller.observe(TodoResource.getList, { userId })).subscribe(render);
 */
export function keepPrevious<S extends QueryState<unknown>>(
  keep: boolean,
  live?: {
    readonly controller: Controller;
    readonly endpoint: ControllerEndpoint;
    /** Maps each state given (both forms): the adapters' `reconcile` rows. */
    readonly present?:
      ((state: S & { readonly placeholder: boolean }) => S & { readonly placeholder: boolean }) | undefined;
  },
): ((state: S) => S & { readonly placeholder: boolean }) & {
  open(list: readonly unknown[], states$: Observable<S>): Observable<S & { readonly placeholder: boolean }>;
} {
  type L = readonly unknown[];
  type Shown = S & { readonly placeholder: boolean };
  const present = live?.present ?? ((state: Shown) => state);
  let shown: S['data'] | undefined;
  let from: L | undefined; // the argument list whose data `shown` is
  const show = (state: S, list?: L): Shown => {
    const hold = keep && state.data === undefined && state.loading && shown !== undefined;
    if (!hold) {
      shown = state.data;
      from = list;
    }
    return hold ? { ...state, data: shown, loading: false, placeholder: true } : { ...state, placeholder: false };
  };
  const open = (list: L, states$: Observable<S>): Observable<Shown> =>
    new Observable<Shown>((subscriber) => {
      let latest: S;
      let watch: Subscription | undefined;
      const stop = () => (watch?.unsubscribe(), (watch = undefined));
      /** Reads the data shown again; true when it changed. */
      const refresh = (held: L) => {
        const data = peekQuery(live!.controller, live!.endpoint, ...(held as [])).data as S['data'];
        return data !== shown && ((shown = data), true);
      };
      const subscription = states$.subscribe((state) => {
        // without keepPreviousData nothing is held or watched: the state as shown, in one call (a page's first writes
        // run this before the engine has type feedback for it, where every call counts)
        if (!keep) return subscriber.next(present({ ...state, placeholder: false }));
        latest = state;
        let out = show(state, list);
        if (out.placeholder && live && !watch && from !== undefined) {
          const held = from;
          if (refresh(held)) out = show(state, list); // a write of this task the previous stream did not emit yet
          if (out.placeholder)
            watch = live.controller.state$.pipe(skip(1)).subscribe(() => {
              if (!refresh(held)) return;
              const now = show(latest, list);
              if (!now.placeholder) stop();
              subscriber.next(present(now));
            });
        } else if (!out.placeholder) stop();
        subscriber.next(present(out));
      });
      return () => (subscription.unsubscribe(), stop());
    });
  return Object.assign((state: S) => present(show(state)), { open });
}

/** The adapters' `createQuery` options (a `Controller` alone is accepted there too). */
export interface QueryOptions {
  /** Default: the one the adapter's context holds (`setController`, `<ControllerProvider>`). */
  readonly controller?: Controller | undefined;
  /** While new args load, keep showing the previous args' data, with `placeholder: true`. */
  readonly keepPreviousData?: boolean | undefined;
}
