/**
 * Infinite lists over the controller's public verbs: the first page is the list endpoint observed as
 * usual, every following page is fetched with a page endpoint whose schema appends to that same
 * normalized list. Pages are numbered (`?page=2`) or follow a cursor read from the response
 * (`{ results: Collection, next }`).
 */
import { BehaviorSubject, Observable, combineLatest, distinctUntilChanged, map, of } from 'rxjs';
import { Collection, INVALID, ObjectSchema, appendUnique, collectionArgsKey } from '../schema/index.js';
import { controllerInternals, type Controller } from './Controller.js';
import { assertAlive } from './disposal.js';
import { keepPrevious } from './placeholder.js';
import { peekQuery } from './watchQuery.js';
import {
  IDLE as IDLE_QUERY,
  type ControllerEndpoint,
  type EndpointArgs,
  type EndpointData,
  type QueryState,
  type ReadEndpoint,
} from './types.js';

/** The state of an infinite list: the list's `QueryState` plus where paging stands. */
export interface InfiniteState<T> extends QueryState<T> {
  /** A following page exists (as far as the last page loaded says). */
  readonly hasNext: boolean;
  /** A following page is being fetched. */
  readonly fetchingNext: boolean;
}

/** Options of `observeInfinite` (and the adapters' `createInfiniteQuery`). */
export interface InfiniteOptions {
  /**
   * The endpoint that fetches a following page into the list. Default: the list endpoint's `getPage`
   * for a Collection schema, else the list endpoint extended with a schema that appends its results.
   */
  readonly page?: ControllerEndpoint;
  /** The argument that carries the page number or cursor. Default: the endpoint's `paginationField` (`'cursor'` for a cursor list). */
  readonly paginationField?: string;
  /** Page-number lists: a page shorter than this is the last one. */
  readonly pageSize?: number;
  /**
   * The argument of the page after `page` (the data of the page just loaded, the list's data for the
   * first page; `param` is `undefined` for the first page); `null`/`undefined` when there is none.
   * Default: the next number while pages are not empty (page numbers), `page.next` (cursors). The
   * function may type `page` as the page endpoint's data (`(page: { next: string | null }) => page.next`).
   */
  next?(page: unknown, param: unknown): unknown;
}

/** An infinite list: its state and the verb that loads one more page. */
export interface InfiniteQuery<T> {
  /** The list's state with `hasNext` and `fetchingNext`; emits on subscribe and on every change. */
  readonly state$: Observable<InfiniteState<T>>;
  /**
   * Fetches the next page into the list (nothing when there is none, no first page yet or the controller was
   * disposed; the running load when one is in flight). Never throws or rejects: a failure shows as `error` in the state.
   */
  loadNext(): Promise<void>;
}

/** Where paging of one list stands; shared by every reader of that list on one controller. */
interface Cursor {
  /** When the list's first page was requested: a newer response for the list starts paging over. */
  readonly fetchedAt: number | undefined;
  param: unknown;
  next: unknown;
}

const cursors = new WeakMap<Controller, Map<string, Cursor>>();

/** A list's page on its way, or the failure of its last page: `failedIn` is the paging that error belongs to. */
interface Paged {
  readonly fetchingNext: boolean;
  readonly error: Error | undefined;
  readonly failedIn?: Cursor;
}

/**
 * What the readers of one list on one controller share besides its cursor: the page on its way (`loading`,
 * which every reader's `loadNext` returns while it runs) and `paged`, which tells each of them when paging moved.
 */
interface Pager {
  readonly paged: BehaviorSubject<Paged>;
  loading: Promise<void> | undefined;
}

const pagers = new WeakMap<Controller, Map<string, Pager>>();

/** @internal How many lists' cursors and pagers `controller` keeps (tests). */
export const infiniteInternals = (controller: Controller) => ({
  cursors: cursors.get(controller)?.size ?? 0,
  pagers: pagers.get(controller)?.size ?? 0,
});

/** Per map of cursors or pagers, the size at which it is next looked through (see `forget`). */
const sweepAt = new WeakMap<Map<string, unknown>, number>();

/**
 * Before a list joins `lists`: once it doubled since it was last looked through, forgets the lists the store no
 * longer holds (collected: a new first page would start their paging over anyway) that are not `busy`.
 */
function forget<T>(controller: Controller, lists: Map<string, T>, busy?: (value: T) => boolean): void {
  if (lists.size < (sweepAt.get(lists) ?? 32)) return;
  const meta = controllerInternals(controller).store.current.meta;
  for (const [key, value] of lists) if (meta[key] === undefined && !busy?.(value)) lists.delete(key);
  sweepAt.set(lists, Math.max(32, lists.size * 2));
}

/** The pager of the list `key` on `controller` (a reader's own one when the arguments have no key). */
function pagerOf(controller: Controller, key: string | undefined): Pager {
  const made = (): Pager => ({
    paged: new BehaviorSubject<Paged>({ fetchingNext: false, error: undefined }),
    loading: undefined,
  });
  if (key === undefined) return made();
  let lists = pagers.get(controller);
  if (!lists) pagers.set(controller, (lists = new Map()));
  let pager = lists.get(key);
  if (!pager) {
    forget(controller, lists, (kept) => kept.loading !== undefined || kept.paged.observed);
    lists.set(key, (pager = made()));
  }
  return pager;
}

const IDLE: InfiniteState<never> = Object.freeze({ ...IDLE_QUERY, hasNext: false, fetchingNext: false });

function sameState<S extends object>(a: S, b: S): boolean {
  for (const key of Object.keys(b))
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  return true;
}

/** Lists stored under exactly the request's arguments without the paging one: the pages' list. */
function samePageList(field: string) {
  return (urlArgs?: unknown) => {
    const { [field]: _param, ...listArgs } = (urlArgs ?? {}) as Record<string, unknown>;
    const wanted = collectionArgsKey(listArgs);
    return (collectionArgs: Readonly<Record<string, string>>) => collectionArgsKey(collectionArgs) === wanted;
  };
}

interface Paging {
  readonly page: ControllerEndpoint;
  readonly field: string;
  readonly next: (page: unknown, param: unknown) => unknown;
  /** The items of a page's or the list's data (its Collection member for cursor lists). */
  readonly items: (data: unknown) => readonly unknown[] | undefined;
  /** The list's Collection. */
  readonly list: Collection;
}

const pkOf = (item: unknown): string | undefined => {
  const pk = (item as { pk?: unknown } | null | undefined)?.pk;
  return typeof pk === 'function' ? String(pk.call(item)) : undefined;
};

/**
 * Whether a loaded page joined the list: each of its rows is in the list now, or left it since (`left`:
 * deleted, or removed by a logged edit), or it cannot tell (an empty page, items without a pk). Not
 * when the list was replaced meanwhile by a newer whole list (`set`, `setResponse`, a refetch: the
 * older page does not join it, and a row of the page that list happens to hold is not the page), nor
 * when the store kept a newer list over the page's answer (more changes meanwhile than the list logs):
 * paging then goes on from the list as it is, rather than past rows it does not hold.
 */
function joinedList(
  pageItems: readonly unknown[] | undefined,
  listItems: readonly unknown[] | undefined,
  left: (item: unknown, pk: string) => boolean,
): boolean {
  if (pageItems === undefined || pageItems.length === 0) return true;
  const pks = pageItems.map(pkOf);
  if (pks.includes(undefined)) return true;
  const listed = new Set((listItems ?? []).map(pkOf));
  return pageItems.every((item, at) => listed.has(pks[at]) || left(item, pks[at]!));
}

/** The page endpoint, paging argument and next-page rule of a list endpoint; a clear error when it cannot page. */
function pagingOf(endpoint: ControllerEndpoint, options: InfiniteOptions): Paging {
  const name = endpoint.name || 'endpoint';
  const schema: unknown = endpoint.schema;
  const members = schema instanceof ObjectSchema ? schema.schema : schema;
  const listMember =
    schema instanceof Collection || typeof members !== 'object' || members === null
      ? undefined
      : Object.keys(members).find((key) => (members as Record<string, unknown>)[key] instanceof Collection);
  if (!(schema instanceof Collection) && listMember === undefined) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `observeInfinite(${name}): its schema must be a Collection (pages by number) or an object holding one ({ results: new schema.Collection([Entity]), next }) for cursors.`
        : `observeInfinite(${name}): schema`,
    );
  }
  const paginated = (endpoint as { paginationField?: string }).paginationField;
  const field = options.paginationField ?? paginated ?? (listMember === undefined ? undefined : 'cursor');
  if (field === undefined) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `observeInfinite(${name}): no paginationField. Give the resource one (createResource({ paginationField: 'page', ... })) or pass { paginationField: 'page' }.`
        : `observeInfinite(${name}): paginationField`,
    );
  }
  const list = (listMember === undefined ? schema : (members as Record<string, unknown>)[listMember]) as Collection;
  const pageSize = options.pageSize;
  const next =
    options.next ??
    (listMember === undefined
      ? (page: unknown, param: unknown) => {
          const length = Array.isArray(page) ? page.length : 0;
          return length === 0 || (pageSize !== undefined && length < pageSize)
            ? null
            : (typeof param === 'number' ? param : 1) + 1;
        }
      : (page: { next?: unknown } | undefined) => page?.next);
  let page =
    options.page ?? (listMember === undefined ? (endpoint as { getPage?: ControllerEndpoint }).getPage : undefined);
  if (page === undefined) {
    const extend = (endpoint as { extend?: (options: object) => ControllerEndpoint }).extend;
    if (typeof extend !== 'function') {
      throw new TypeError(
        process.env.NODE_ENV !== 'production'
          ? `observeInfinite(${name}): cannot derive a page endpoint; pass { page } (an endpoint that appends a page).`
          : `observeInfinite(${name}): page`,
      );
    }
    const adder = list.addWith(appendUnique, samePageList(field));
    const pageSchema =
      listMember === undefined ? adder : { ...(members as Record<string, unknown>), [listMember]: adder };
    page = extend.call(endpoint, { schema: pageSchema, paginationField: field, name: `${name}.getPage` });
  }
  const items = (data: unknown) => {
    const list = listMember === undefined ? data : (data as Record<string, unknown> | null | undefined)?.[listMember];
    return Array.isArray(list) ? list : undefined;
  };
  return { page, field, next, items, list };
}

/**
 * An infinite list: `args` are the list's arguments (`null`: idle); the first page is
 * `observe(endpoint, args)`, `loadNext()` fetches the following page with the page endpoint, which
 * appends to the same normalized list (so items created with `getList.push` join it too). `hasNext`
 * comes from `options.next`. A new response for the list (a refetch, `setResponse`) starts paging
 * over from its new first page; a failed refetch keeps the pages. A page answered after the list was
 * replaced (`set` of a whole array, `setResponse`) does not join it, and paging starts over from it.
 *
 * @example
 * const feed = observeInfinite(controller, TodoResource.getList, { userId: 1 }, { pageSize: 20 });
 * feed.state$.subscribe(({ data, hasNext, fetchingNext }) => render(data, hasNext, fetchingNext));
 * button.onclick = () => feed.loadNext();
 */
export function observeInfinite<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  args: EndpointArgs<E>[0] | null,
  options: InfiniteOptions = {},
): InfiniteQuery<EndpointData<E>> {
  assertAlive(controller, 'observeInfinite');
  const paging = pagingOf(endpoint, options);
  if (args === null) return { state$: of(IDLE), loadNext: () => Promise.resolve() };
  const list = (args === undefined ? [] : [args]) as EndpointArgs<E>;
  let memory = cursors.get(controller);
  if (!memory) cursors.set(controller, (memory = new Map()));
  const lists = memory;
  let key: string | undefined;
  try {
    key = endpoint.key(...list);
  } catch {
    key = undefined; // bad arguments: observe reports the error as state
  }
  const cursor = (): Cursor | undefined => {
    if (key === undefined) return undefined;
    const snapshot = controller.getResponse(endpoint, ...list);
    if (snapshot.data === undefined) return undefined;
    let current = lists.get(key);
    // a newer response for the list (refetch, setResponse) replaced its pages; a failed refetch keeps them.
    // The store's current state, not getState(): that hands the state out, and the next write copies its tables
    const meta = controllerInternals(controller).store.current.meta[key];
    if (!current || (current.fetchedAt !== meta?.fetchedAt && !meta?.error)) {
      if (!current) forget(controller, lists);
      current = { fetchedAt: meta?.fetchedAt, param: undefined, next: paging.next(snapshot.data, undefined) };
      lists.set(key, current);
    }
    return current;
  };
  const listPk = collectionArgsKey(args);
  /** A row of a page that is not in the list left it since: deleted, or removed by an edit the list logs. */
  const left = (item: unknown, pk: string): boolean => {
    const state = controllerInternals(controller).store.current;
    // the class's key, read through the prototype: a record may hold a field named `constructor` (data)
    const table =
      typeof item === 'object' && item !== null
        ? (Object.getPrototypeOf(item) as { constructor?: { key?: unknown } } | null)?.constructor?.key
        : undefined;
    if (typeof table === 'string') {
      const record = state.entities[table]?.[pk];
      if (record === undefined || record === INVALID) return true;
    }
    const edits = state.entitiesMeta[paging.list.key]?.[listPk]?.edits ?? [];
    return edits.some((edit) => edit[0] === pk && edit[2] === 'remove');
  };
  // shared by the list's readers: a page one of them loads moves the others' hasNext and fetchingNext too.
  // `failedIn`: the paging the page's error belongs to (a new first page starts paging over, without it)
  const pager = pagerOf(controller, key);
  const { paged } = pager;
  const state$ = combineLatest([controller.observe(endpoint, ...list), paged]).pipe(
    map(([state, { fetchingNext, error, failedIn }]): InfiniteState<EndpointData<E>> => {
      const current = state.data === undefined ? undefined : cursor();
      return {
        ...state,
        error: state.error ?? (failedIn === undefined || failedIn === current ? error : undefined),
        hasNext: current !== undefined && current.next !== null && current.next !== undefined,
        fetchingNext,
      };
    }),
    distinctUntilChanged(sameState),
  );
  const loadNext = (): Promise<void> => {
    if (pager.loading) return pager.loading;
    // a disposed controller ended the list's streams: no list to append to (and no verb to call, which would throw)
    if (controllerInternals(controller).disposed) return Promise.resolve();
    const current = cursor();
    if (!current || current.next === null || current.next === undefined) return Promise.resolve();
    const param = current.next;
    const pageArgs = { ...(args as object), [paging.field]: param };
    paged.next({ fetchingNext: true, error: undefined });
    const loading = (pager.loading = controller.fetch(paging.page, pageArgs).then(
      (value) => {
        // a list refetched meanwhile starts over from its own first page; a page that did not join is loaded again
        const stored = controller.getResponse(endpoint, ...list).data;
        if (lists.get(key!) === current) {
          if (joinedList(paging.items(value), paging.items(stored), left)) {
            current.param = param;
            current.next = paging.next(value, param);
          } else if (stored !== undefined) {
            // the list is not the one the page followed (replaced meanwhile): paging starts over from it
            lists.set(key!, { fetchedAt: current.fetchedAt, param: undefined, next: paging.next(stored, undefined) });
          }
        }
        pager.loading = undefined;
        paged.next({ fetchingNext: false, error: undefined });
      },
      (error: unknown) => {
        pager.loading = undefined;
        const failed = error instanceof Error ? error : new Error(String(error));
        paged.next({ fetchingNext: false, error: failed, failedIn: current });
      },
    ));
    return loading;
  };
  return { state$, loadNext };
}

/**
 * What an adapter's infinite list is made of: the first state without subscribing (`peek`), the live
 * state of an argument list (`open`; with `keepPreviousData` the previous list stays, `placeholder`
 * true, until the new first page arrives), and `loadNext` of the list opened last.
 */
export function infiniteSource<E extends ReadEndpoint>(
  controller: Controller,
  endpoint: E,
  options: InfiniteOptions & { readonly keepPreviousData?: boolean | undefined },
) {
  const kept = keepPrevious<InfiniteState<EndpointData<E>>>(!!options.keepPreviousData, { controller, endpoint });
  let current: { loadNext(): Promise<void> } | undefined;
  /** Whether a page follows the stored list, as its live state will say (a server render shows the same). */
  const hasNext = (list: EndpointArgs<E>, data: unknown): boolean => {
    if (data === undefined || list[0] === null) return false;
    try {
      const cursor = cursors.get(controller)?.get(endpoint.key(...list));
      const next = cursor ? cursor.next : pagingOf(endpoint, options).next(data, undefined);
      return next !== null && next !== undefined;
    } catch {
      return false; // bad arguments or an endpoint that cannot page: the live state reports it
    }
  };
  return {
    peek: (list: EndpointArgs<E>) => {
      const state = peekQuery(controller, endpoint, ...list);
      return kept({ ...state, hasNext: hasNext(list, state.data), fetchingNext: false });
    },
    open: (list: EndpointArgs<E>) =>
      kept.open(list, (current = observeInfinite(controller, endpoint, list[0], options)).state$),
    loadNext: (): Promise<void> => current?.loadNext() ?? Promise.resolve(),
  };
}
