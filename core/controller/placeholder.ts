/** `keepPreviousData` for the adapters: the data on screen stands in while the next arguments load. */
import type { Controller } from './Controller.js';
import type { QueryState } from './types.js';

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
 * @example
 * const view = keepPrevious<QueryState<Todo[]>>(true);
 * controller.observe(TodoResource.getList, { userId }).subscribe((state) => render(view(state)));
 */
export function keepPrevious<S extends QueryState<unknown>>(
  keep: boolean,
): (state: S) => S & { readonly placeholder: boolean } {
  let shown: S['data'] | undefined;
  return (state) => {
    const hold = keep && state.data === undefined && state.loading && shown !== undefined;
    if (!hold) shown = state.data;
    return hold ? { ...state, data: shown, loading: false, placeholder: true } : { ...state, placeholder: false };
  };
}

/** The adapters' `createQuery` options (a `Controller` alone is accepted there too). */
export interface QueryOptions {
  /** Default: the one the adapter's context holds (`setController`, `<ControllerProvider>`). */
  readonly controller?: Controller | undefined;
  /** While new args load, keep showing the previous args' data, with `placeholder: true`. */
  readonly keepPreviousData?: boolean | undefined;
}
