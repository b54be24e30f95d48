/**
 * Outside review (API.md's "Infinite lists" alone; TanStack Query's useInfiniteQuery where it is silent): the core's
 * infinite source against invalidation mid-page, duplicates, empty last pages, cursor failures, and two readers of
 * one list that switch arguments or leave while a page is out.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller, infiniteSource, observeInfinite, type InfiniteState } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { API, Todo, TodoResource, cursorFeed, flush, todo, useLiveServer } from './harness.js';

const live = useLiveServer();
const make = () => new Controller({ retry: 0 });
const titles = (state: InfiniteState<readonly Todo[] | undefined> | InfiniteState<{ results: Todo[] }>) => {
  const data = state.data as readonly Todo[] | { results: readonly Todo[] } | undefined;
  return (Array.isArray(data) ? data : (data as { results: readonly Todo[] } | undefined)?.results)?.map((t) => t.id);
};
const seed = (n: number) => {
  for (let id = 1; id <= n; id++) live.todos.set(id, todo(id));
};

describe('page numbers', () => {
  it('invalidating the list while page 2 is out: the refetched first page wins, no row twice, paging starts over', async () => {
    const c = make();
    seed(6);
    const feed = observeInfinite(c, TodoResource.getList, undefined, { pageSize: 2 });
    const view = record(feed.state$);
    await settled(() => expect(titles(view.last())).toEqual([1, 2]));
    live.hold.on = true;
    const next = feed.loadNext();
    await settled(() => expect(live.held).toHaveLength(1));
    expect(view.last().fetchingNext).toBe(true);
    c.invalidate(TodoResource.getList);
    await settled(() => expect(live.held).toHaveLength(2));
    expect(live.held[1]!.url.search).toBe('');
    // the server changed meanwhile: todo 2 is gone
    live.todos.delete(2);
    live.held[0]!.json([todo(3), todo(4)]);
    await next;
    live.held[1]!.json([todo(1), todo(3)]);
    await settled(() => expect(view.last().fetching).toBe(false));
    expect(titles(view.last())).toEqual([1, 3]);
    expect(view.last()).toMatchObject({ hasNext: true, fetchingNext: false, loading: false, error: undefined });
    live.hold.on = false;
    await feed.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=2');
    expect(titles(view.last())).toEqual([1, 3, 4, 5]);
    view.unsubscribe();
    c.dispose();
  });

  it('a row a later page repeats (the list shifted on the server) shows once', async () => {
    const c = make();
    seed(5);
    const feed = observeInfinite(c, TodoResource.getList, undefined, { pageSize: 2 });
    const view = record(feed.state$);
    await settled(() => expect(titles(view.last())).toEqual([1, 2]));
    // todo 2 again: a row was inserted before it on the server
    live.server.use(http.get(`${API}/todos`, () => HttpResponse.json([todo(2), todo(3)])));
    await feed.loadNext();
    expect(titles(view.last())).toEqual([1, 2, 3]);
    expect(view.last().hasNext).toBe(true);
    view.unsubscribe();
    c.dispose();
  });

  it('an empty last page (no pageSize): hasNext turns false, the list is unchanged, loadNext then asks nothing', async () => {
    const c = make();
    seed(4);
    const feed = observeInfinite(c, TodoResource.getList, undefined);
    const view = record(feed.state$);
    await settled(() => expect(titles(view.last())).toEqual([1, 2]));
    await feed.loadNext();
    expect(titles(view.last())).toEqual([1, 2, 3, 4]);
    expect(view.last().hasNext).toBe(true);
    const before = view.last().data;
    await feed.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=3');
    expect(view.last().hasNext).toBe(false);
    expect(view.last().data).toBe(before);
    const asked = live.requests.length;
    await feed.loadNext();
    expect(live.requests).toHaveLength(asked);
    view.unsubscribe();
    c.dispose();
  });
});

describe('cursors ({ results, next })', () => {
  it('a page that fails is asked again with the same cursor by the next loadNext; the error then clears', async () => {
    const c = make();
    let failing = true;
    live.server.use(
      http.get(`${API}/feed`, ({ request }) => {
        const url = new URL(request.url);
        live.requests.push(`GET ${url.pathname}${url.search}`);
        const cursor = url.searchParams.get('cursor');
        if (cursor === null) return HttpResponse.json({ results: [todo(1), todo(2)], next: 'c2' });
        if (failing)
          return new HttpResponse('<html>upstream down</html>', {
            status: 502,
            headers: { 'Content-Type': 'text/html' },
          });
        return HttpResponse.json({ results: [todo(3)], next: null });
      }),
    );
    const feed = observeInfinite(c, cursorFeed, { tag: 'a' });
    const view = record(feed.state$);
    await settled(() => expect(titles(view.last())).toEqual([1, 2]));
    await feed.loadNext();
    expect(view.last().error).toMatchObject({ name: 'NetworkError', status: 502 });
    expect(view.last()).toMatchObject({ hasNext: true, fetchingNext: false });
    expect(titles(view.last())).toEqual([1, 2]);
    failing = false;
    await feed.loadNext();
    expect(live.requests.filter((r) => r.includes('cursor='))).toEqual([
      'GET /feed?cursor=c2&tag=a',
      'GET /feed?cursor=c2&tag=a',
    ]);
    expect(view.last().error).toBeUndefined();
    expect(titles(view.last())).toEqual([1, 2, 3]);
    expect(view.last().hasNext).toBe(false);
    view.unsubscribe();
    c.dispose();
  });
});

describe('two readers of one list', () => {
  it('one leaves while its page is out: the other sees fetchingNext, then the page, and one request', async () => {
    const c = make();
    seed(6);
    const a = observeInfinite(c, TodoResource.getList, undefined, { pageSize: 2 });
    const b = observeInfinite(c, TodoResource.getList, undefined, { pageSize: 2 });
    const viewA = record(a.state$);
    const viewB = record(b.state$);
    await settled(() => expect(titles(viewB.last())).toEqual([1, 2]));
    live.hold.on = true;
    const loading = a.loadNext();
    await settled(() => expect(live.held).toHaveLength(1));
    viewA.unsubscribe();
    expect(viewB.last().fetchingNext).toBe(true);
    expect(b.loadNext()).toBe(loading);
    live.held[0]!.json([todo(3), todo(4)]);
    await loading;
    await flush();
    expect(titles(viewB.last())).toEqual([1, 2, 3, 4]);
    expect(viewB.last()).toMatchObject({ fetchingNext: false, hasNext: true });
    expect(live.held).toHaveLength(1);
    viewB.unsubscribe();
    c.dispose();
  });

  it('one switches arguments while its page is out: the other list keeps its paging, the new list pages on its own', async () => {
    const c = make();
    seed(6);
    const one = infiniteSource(c, TodoResource.getList, { pageSize: 2 });
    const other = observeInfinite(c, TodoResource.getList, { userId: 1 }, { pageSize: 2 });
    const viewOther = record(other.state$);
    let current = record(one.open([{ userId: 1 }]));
    await settled(() => expect(titles(viewOther.last())).toEqual([1, 2]));
    live.hold.on = true;
    const out = one.loadNext();
    await settled(() => expect(live.held).toHaveLength(1));
    expect(live.held[0]!.url.search).toBe('?page=2&userId=1');
    current.unsubscribe();
    current = record(one.open([{ userId: 2 }])); // the reader's args changed
    await settled(() => expect(live.held).toHaveLength(2));
    expect(live.held[1]!.url.search).toBe('?userId=2');
    expect(current.last()).toMatchObject({ loading: true, fetchingNext: false, hasNext: false });
    // loadNext of the new list before its first page: nothing (and not the old list's page again)
    await one.loadNext();
    expect(live.held).toHaveLength(2);
    live.held[1]!.json([todo(5), todo(6)]);
    await settled(() => expect(titles(current.last())).toEqual([5, 6]));
    expect(current.last()).toMatchObject({ fetchingNext: false, hasNext: true });
    live.held[0]!.json([todo(3), todo(4)]);
    await out;
    await flush();
    expect(titles(viewOther.last())).toEqual([1, 2, 3, 4]);
    expect(viewOther.last()).toMatchObject({ fetchingNext: false, hasNext: true });
    expect(titles(current.last())).toEqual([5, 6]);
    live.hold.on = false;
    await one.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=2&userId=2');
    await other.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=3&userId=1');
    current.unsubscribe();
    viewOther.unsubscribe();
    c.dispose();
  });

  it('keepPreviousData: while the new list loads, the old one shows (placeholder) and loadNext appends nothing to it', async () => {
    const c = make();
    seed(6);
    const one = infiniteSource(c, TodoResource.getList, { pageSize: 2, keepPreviousData: true });
    let view = record(one.open([{ userId: 1 }]));
    await settled(() => expect(titles(view.last())).toEqual([1, 2]));
    live.hold.on = true;
    view.unsubscribe();
    view = record(one.open([{ userId: 2 }]));
    await settled(() => expect(live.held).toHaveLength(1));
    expect(view.last()).toMatchObject({ placeholder: true });
    expect(titles(view.last())).toEqual([1, 2]);
    await one.loadNext();
    expect(live.held).toHaveLength(1); // no page of either list before the new first page
    live.held[0]!.json([todo(5), todo(6)]);
    await settled(() => expect(titles(view.last())).toEqual([5, 6]));
    expect(view.last()).toMatchObject({ placeholder: false, hasNext: true });
    view.unsubscribe();
    c.dispose();
  });
});
