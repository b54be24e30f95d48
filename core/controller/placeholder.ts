/** `keepPreviousData` for the adapters: the data on screen stands in while the next arguments load. */
import type { QueryState } from './types.js';

/** A query's state as the adapters show it: `placeholder` is true while the previous arguments' data stands in. */
export interface QueryResult<T> extends QueryState<T> {
  /** `data` is the previous arguments' data, shown while this request loads (`keepPreviousData`). */
  readonly placeholder: boolean;
}

/**
 * A mapper over the states of one query across argument changes: with `keep`, a loading state with no
 * data shows the last data instead (`loading: false`, `placeholder: true`; `fetching` stays true). An
 * error, or idle arguments, end the stand-in.
 *
 * @example
 * const view = keepPrevious<Todo[]>(true);
 * controller.observe(TodoResource.getList, { userId }).subscribe((state) => render(view(state)));
 */
export function keepPrevious<T>(keep: boolean): (state: QueryState<T>) => QueryResult<T> {
  let shown: T | undefined;
  return (state) => {
    const hold = keep && state.data === undefined && state.loading && shown !== undefined;
    if (!hold) shown = state.data;
    return hold ? { ...state, data: shown, loading: false, placeholder: true } : { ...state, placeholder: false };
  };
}
