/**
 * A row deleted (a DELETE that succeeded, or a Collection remove) while the next page's GET is out stays gone
 * when that page lands, whichever page holds it and whether or not the store held the row before.
 */
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { Controller, RestEndpoint, observeInfinite, type InfiniteState } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { API, Todo, cursorFeed, TodoResource, flush, todo, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();
const ids = (state: InfiniteState<readonly Todo[] | undefined>) => state.data?.map((t) => t.id);
const seed = (n: number) => {
  for (let id = 1; id <= n; id++) live.todos.set(id, todo(id));
};

/** Page 1 (todos 1, 2) loaded and page 2 (todos 3, 4) held at the server. */
async function pageTwoHeld(controller: Controller) {
  if (live.todos.size === 0) seed(6);
  const feed = observeInfinite(controller, TodoResource.getList, undefined, { pageSize: 2 });
  const view = record(feed.state$);
  await settled(() => expect(ids(view.last())).toEqual([1, 2]));
  live.hold.on = true;
  const next = feed.loadNext();
  await settled(() => expect(live.held).toHaveLength(1));
  return { feed, view, next, page: live.held[0]! };
}

const plainDelete = new RestEndpoint({
  urlPrefix: API,
  path: '/todos/:id',
  method: 'DELETE',
  schema: TodoResource.delete.schema,
});

describe('a row deleted while the page holding it is out', () => {
  for (const [name, endpoint] of [
    ['optimistic delete', TodoResource.delete],
    ['plain delete', plainDelete],
  ] as const) {
    it(`${name}: a row the store never held stays gone when the page lands`, async () => {
      const c = new Controller({ retry: 0 });
      const { view, next, page } = await pageTwoHeld(c);
      live.hold.on = false;
      await c.fetch(endpoint, { id: 3 });
      page.json([todo(3), todo(4)]);
      await next;
      await flush();
      expect(ids(view.last())).toEqual([1, 2, 4]);
      expect(c.get(Todo, { id: 3 })).toBeUndefined();
      view.unsubscribe();
      c.dispose();
    });

    it(`${name}: a row the store held (read by its own query) stays gone when the page lands`, async () => {
      const c = new Controller({ retry: 0 });
      seed(6);
      await c.fetch(TodoResource.get, { id: 3 });
      const { view, next, page } = await pageTwoHeld(c);
      live.hold.on = false;
      await c.fetch(endpoint, { id: 3 });
      page.json([todo(3), todo(4)]);
      await next;
      await flush();
      expect(ids(view.last())).toEqual([1, 2, 4]);
      view.unsubscribe();
      c.dispose();
    });
  }

  it('a Collection remove (getList.remove) made while the page is out keeps the row out of the list', async () => {
    const c = new Controller({ retry: 0 });
    const { view, next, page } = await pageTwoHeld(c);
    c.set(TodoResource.getList.schema.remove, {}, { id: 3 });
    page.json([todo(3), todo(4)]);
    await next;
    await flush();
    expect(ids(view.last())).toEqual([1, 2, 4]);
    view.unsubscribe();
    c.dispose();
  });

  it('a delete answered after the page, started before it lands, still removes the row', async () => {
    const c = new Controller({ retry: 0 });
    const { view, next, page } = await pageTwoHeld(c);
    const deleting = c.fetch(plainDelete, { id: 3 });
    await settled(() => expect(live.held).toHaveLength(2));
    page.json([todo(3), todo(4)]);
    await next;
    live.held[1]!.json({ id: 3 });
    await deleting;
    await flush();
    expect(ids(view.last())).toEqual([1, 2, 4]);
    view.unsubscribe();
    c.dispose();
  });
});

describe('the same for cursor lists and Collection removes a mutation answers', () => {
  it('cursor feed: rows deleted while the next page is out (one of them already listed) stay gone', async () => {
    const c = new Controller({ retry: 0 });
    let n = 0;
    live.server.use(
      http.get(`${API}/feed`, async ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        n++;
        if (!cursor) return HttpResponse.json({ results: [todo(1), todo(2)], next: 'c2' });
        await new Promise((r) => setTimeout(r, 50));
        return HttpResponse.json({ results: [todo(2), todo(3), todo(4)], next: null });
      }),
    );
    seed(6);
    const feed = observeInfinite(c, cursorFeed, undefined);
    const view = record(feed.state$);
    await settled(() =>
      expect((view.last().data as { results: Todo[] } | undefined)?.results.map((t) => t.id)).toEqual([1, 2]),
    );
    const next = feed.loadNext();
    await c.fetch(plainDelete, { id: 3 });
    await c.fetch(plainDelete, { id: 2 });
    await next;
    await flush();
    expect((view.last().data as { results: Todo[] }).results.map((t) => t.id)).toEqual([1, 4]);
    expect(n).toBe(2);
    view.unsubscribe();
    c.dispose();
  });
  it('rows a mutation removes from the list (getList.remove schema) while the page is out stay out, listed or not', async () => {
    const c = new Controller({ retry: 0 });
    const removeEp = new RestEndpoint({
      urlPrefix: API,
      path: '/todos/:id',
      method: 'PATCH',
      body: {} as object,
      schema: TodoResource.getList.schema.remove,
    });
    const { view, next, page } = await pageTwoHeld(c);
    live.hold.on = false;
    await c.fetch(removeEp, { id: 3 }, { title: 'x' });
    await c.fetch(removeEp, { id: 1 }, { title: 'x' });
    expect(ids(view.last())).toEqual([2]);
    page.json([todo(1), todo(3), todo(4)]);
    await next;
    await flush();
    expect(ids(view.last())).toEqual([2, 4]);
    view.unsubscribe();
    c.dispose();
  });
});
