/**
 * Outside review (API.md's "Adapters, next"; TanStack Query's useMutation/useInfiniteQuery where it is silent):
 * rx-rest/solid's createMutation with overlapping calls, reset and an owner disposed mid-call, and
 * createInfiniteQuery whose args change while a page is out, or one of whose two readers is disposed then.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRoot, createSignal } from 'solid-js';
import { Controller } from '../../../../core/index.js';
import { createInfiniteQuery, createMutation, createQuery } from '../../../../adapters/solid/index.js';
import { Todo, TodoResource, flush, todo, useLiveServer } from '../harness.js';

const live = useLiveServer();
const controllers: Controller[] = [];
const make = () => {
  const c = new Controller({ retry: 0 });
  controllers.push(c);
  return c;
};
afterEach(() => {
  controllers.splice(0).forEach((c) => c.dispose());
  vi.restoreAllMocks();
});
const ids = (list: readonly Todo[] | undefined) => list?.map((t) => t.id);

describe('createMutation', () => {
  it('overlapping calls: each resolves its own value, the accessors follow the latest', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    await c.fetch(TodoResource.get, { id: 1 });
    live.hold.on = true;
    const { m, stop } = createRoot((stop) => ({
      m: createMutation(TodoResource.partialUpdate, { controller: c }),
      stop,
    }));
    const first = m.mutate({ id: 1 }, { title: 'first' });
    const second = m.mutate({ id: 1 }, { title: 'second' });
    await vi.waitFor(() => expect(live.held).toHaveLength(2));
    live.held[1]!.json(todo(1, 'second'));
    await expect(second).resolves.toMatchObject({ title: 'second' });
    await flush();
    expect([m.pending(), m.data()?.title, m.error()]).toEqual([false, 'second', undefined]);
    live.held[0]!.json(todo(1, 'first'));
    await expect(first).resolves.toMatchObject({ title: 'first' });
    await flush();
    expect([m.pending(), m.data()?.title]).toEqual([false, 'second']);
    stop();
  });

  it('reset during a call: idle, and the answer does not bring pending or data back', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    await c.fetch(TodoResource.get, { id: 1 });
    live.hold.on = true;
    const { m, stop } = createRoot((stop) => ({
      m: createMutation(TodoResource.partialUpdate, { controller: c }),
      stop,
    }));
    const call = m.mutate({ id: 1 }, { title: 'x' });
    expect(m.pending()).toBe(true);
    m.reset();
    expect([m.pending(), m.data(), m.error()]).toEqual([false, undefined, undefined]);
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    live.held[0]!.json(todo(1, 'x'));
    await call;
    await flush();
    expect([m.pending(), m.data(), m.error()]).toEqual([false, undefined, undefined]);
    stop();
  });

  it('its owner disposed mid-call (a component unmounted): no warning or error, the call resolves, the store has it', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    await c.fetch(TodoResource.get, { id: 1 });
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    live.hold.on = true;
    const { m, stop } = createRoot((stop) => ({
      m: createMutation(TodoResource.partialUpdate, { controller: c }),
      stop,
    }));
    const call = m.mutate({ id: 1 }, { title: 'saved after unmount' });
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    stop();
    live.held[0]!.json(todo(1, 'saved after unmount'));
    await expect(call).resolves.toMatchObject({ title: 'saved after unmount' });
    await flush();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved after unmount');
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('an optimistic call that fails: the query in the same owner shows the change, then exactly the old data and the error', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    live.todos.set(2, todo(2));
    const { list, m, stop } = createRoot((stop) => ({
      list: createQuery(TodoResource.getList, undefined, { controller: c }),
      m: createMutation(TodoResource.partialUpdate, { controller: c }),
      stop,
    }));
    await vi.waitFor(() => expect(list()?.map((t) => t.title)).toEqual(['todo 1', 'todo 2']));
    live.hold.on = true;
    const call = m.mutate({ id: 2 }, { title: 'renamed' }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    expect(list()?.map((t) => t.title)).toEqual(['todo 1', 'renamed']);
    live.held[0]!.raw('<html>502</html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    expect(await call).toMatchObject({ name: 'NetworkError', status: 502 });
    await flush();
    expect(list()?.map((t) => t.title)).toEqual(['todo 1', 'todo 2']);
    expect(m.error()).toMatchObject({ name: 'NetworkError', status: 502 });
    expect(m.pending()).toBe(false);
    stop();
  });
});

describe('createInfiniteQuery', () => {
  const seed = (n: number) => {
    for (let id = 1; id <= n; id++) live.todos.set(id, todo(id));
  };

  it('args change while a page is out: the new list shows its own first page, the old page does not join it', async () => {
    const c = make();
    seed(6);
    const [userId, setUserId] = createSignal(1);
    const { feed, stop } = createRoot((stop) => ({
      feed: createInfiniteQuery(TodoResource.getList, () => ({ userId: userId() }), { controller: c, pageSize: 2 }),
      stop,
    }));
    await vi.waitFor(() => expect(ids(feed().data)).toEqual([1, 2]));
    live.hold.on = true;
    const out = feed.loadNext();
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    expect(feed().fetchingNext).toBe(true);
    setUserId(2);
    await vi.waitFor(() => expect(live.held).toHaveLength(2));
    expect(feed()).toMatchObject({ loading: true, fetchingNext: false });
    live.held[0]!.json([todo(3), todo(4)]);
    await out;
    live.held[1]!.json([todo(5), todo(6)]);
    await vi.waitFor(() => expect(ids(feed().data)).toEqual([5, 6]));
    expect(feed()).toMatchObject({ fetchingNext: false, hasNext: true });
    live.hold.on = false;
    await feed.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=2&userId=2');
    expect(ids(c.getResponse(TodoResource.getList, { userId: 1 }).data)).toEqual([1, 2, 3, 4]);
    stop();
  });

  it('two readers, one disposed while the page it asked for is out: the other gets the page and fetchingNext ends', async () => {
    const c = make();
    seed(6);
    const reader = () =>
      createRoot((stop) => ({
        feed: createInfiniteQuery(TodoResource.getList, undefined, { controller: c, pageSize: 2 }),
        stop,
      }));
    const a = reader();
    const b = reader();
    await vi.waitFor(() => expect(ids(b.feed().data)).toEqual([1, 2]));
    live.hold.on = true;
    const out = a.feed.loadNext();
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    a.stop();
    expect(b.feed().fetchingNext).toBe(true);
    live.held[0]!.json([todo(3), todo(4)]);
    await out;
    await vi.waitFor(() => expect(ids(b.feed().data)).toEqual([1, 2, 3, 4]));
    expect(b.feed()).toMatchObject({ fetchingNext: false, hasNext: true });
    b.stop();
  });
});
