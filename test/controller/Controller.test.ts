import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { Controller, type QueryState } from '../../core/controller/index.js';
import { createResource, RestEndpoint } from '../../core/endpoint/index.js';
import { MemoCache, peekQuery, schema, watchQuery } from '../../core/index.js';
import { Article, Todo, User } from '../fixtures/entities.js';
import { record, settled } from '../fixtures/streams.js';
import { TodoResource } from '../fixtures/todoResource.js';
import { API, createTodoServer } from '../fixtures/todoServer.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;

const fresh = () => {
  const server = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of server.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  fake.setLatency(0);
};

beforeEach(() => {
  fresh();
  controller = new Controller();
});
afterEach(() => vi.useRealTimers());

describe('Controller.fetch', () => {
  it('resolves denormalized instances once the store holds them', async () => {
    const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
    expect(todos.map((t) => t.id)).toEqual([1, 3]);
    expect(todos[0]).toBeInstanceOf(Todo);
    expect(todos[0]!.createdAt).toBeInstanceOf(Temporal.Instant);
    const state = controller.getState();
    expect(state.entities.Todo!['1']).toMatchObject({ id: 1, createdAt: '2024-01-01T00:00:00Z' });
    expect(state.endpoints[TodoResource.getList.key({ userId: 1 })]).toBe('{"userId":"1"}');
  });

  it('shares one request among identical GETs in flight, never among mutations', async () => {
    const [a, b] = await Promise.all([
      controller.fetch(TodoResource.get, { id: 1 }),
      controller.fetch(TodoResource.get, { id: 1 }),
    ]);
    expect(a).toBe(b);
    expect(fake.requests).toEqual(['GET /todos/1']);
    await Promise.all([
      controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' }),
      controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' }),
    ]);
    expect(fake.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(2);
  });

  it('rejects with the endpoint error and leaves the data as it was', async () => {
    await controller.fetch(TodoResource.getList);
    const before = controller.getState().entities;
    fake.fail('PATCH', 422);
    await expect(controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'rejected' })).rejects.toMatchObject({
      name: 'NetworkError',
      status: 422,
    });
    expect(controller.getState().entities).toBe(before);
    expect(controller.getState().optimistic).toEqual([]);
  });

  it('rejects with a NormalizeError for a response that does not fit the schema, storing nothing', async () => {
    await controller.fetch(TodoResource.get, { id: 1 });
    const before = controller.getState().entities;
    const listAsEntity = new RestEndpoint({ urlPrefix: API, path: '/todos', schema: Todo });
    await expect(controller.fetch(listAsEntity)).rejects.toMatchObject({ name: 'NormalizeError', schemaKey: 'Todo' });
    await expect(controller.fetch(listAsEntity)).rejects.toThrow(/expected an object but got an array \(length 4\)/);
    expect(controller.getState().entities).toBe(before);
    expect(controller.getState().meta[listAsEntity.key()]!.error!.name).toBe('NormalizeError');
  });

  it('fetchIfStale resolves from the store while fresh and fetches when stale', async () => {
    let now = 1_000;
    controller = new Controller({ now: () => now });
    await controller.fetch(TodoResource.get, { id: 2 });
    const cached = await controller.fetchIfStale(TodoResource.get, { id: 2 });
    expect(cached.id).toBe(2);
    expect(fake.requests).toHaveLength(1);
    now += 61_000;
    await controller.fetchIfStale(TodoResource.get, { id: 2 });
    expect(fake.requests).toHaveLength(2);
  });

  it('push resolves the created entity and adds it to every matching list', async () => {
    await controller.fetch(TodoResource.getList);
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList, { userId: 2 });
    const created = await controller.fetch(TodoResource.getList.push, {}, { id: 50, userId: 2, title: 'new' });
    expect(created).toBeInstanceOf(Todo);
    expect(created.title).toBe('new');
    const read = (args?: { userId: number }) =>
      controller.getResponse(TodoResource.getList, args).data!.map((t) => t.id);
    expect(read()).toEqual([1, 2, 3, 4, 50]);
    expect(read({ userId: 2 })).toEqual([2, 4, 50]);
    expect(read({ userId: 1 })).toEqual([1, 3]);
  });

  it('a response to an older request never overwrites what a newer one wrote', async () => {
    await controller.fetch(TodoResource.getList);
    fake.setLatency(60);
    const slowList = controller.fetch(TodoResource.getList, { userId: 1 });
    await new Promise((r) => setTimeout(r, 5));
    fake.setLatency(0);
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    fake.todos.get(1)!.title = 'server changed it back';
    await slowList;
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data!.title).toBe('renamed');
  });

  it('settles requests in flight during resetEntireStore without writing', async () => {
    fake.setLatency(30);
    const pending = controller.fetch(TodoResource.getList);
    controller.resetEntireStore();
    const value = await pending;
    expect(value.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    expect(controller.getState().entities).toEqual({});
    expect(controller.getState().endpoints).toEqual({});
  });
});

describe('Controller store verbs', () => {
  it('setResponse, setError and getResponse', () => {
    let now = 10_000;
    controller = new Controller({ now: () => now });
    controller.setResponse(
      TodoResource.get,
      { id: 9 },
      { id: 9, title: 'set', userId: 1, completed: false, createdAt: '2024-01-01T00:00:00Z' },
    );
    const snap = controller.getResponse(TodoResource.get, { id: 9 });
    expect(snap.data!.title).toBe('set');
    expect(snap).toMatchObject({ expiresAt: 70_000, stale: false, invalid: false });
    now = 80_000;
    expect(controller.getResponse(TodoResource.get, { id: 9 }).stale).toBe(true);
    controller.setError(TodoResource.get, { id: 9 }, new Error('nope'));
    expect(controller.getState().meta[TodoResource.get.key({ id: 9 })]!.error!.message).toBe('nope');
  });

  it('restores a JSON round-tripped state with new Controller({ initialState })', async () => {
    await controller.fetch(TodoResource.getList, { userId: 1 });
    const restored = new Controller({ initialState: JSON.parse(JSON.stringify(controller.getState())) });
    const list = restored.getResponse(TodoResource.getList, { userId: 1 });
    expect(list.data!.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    expect(list.data![0]!.createdAt).toBeInstanceOf(Temporal.Instant);
  });

  it('invalidate, invalidateAll and expireAll', async () => {
    await controller.fetch(TodoResource.get, { id: 1 });
    await controller.fetch(TodoResource.get, { id: 2 });
    controller.invalidate(TodoResource.get, { id: 1 });
    expect(controller.getResponse(TodoResource.get, { id: 1 }).invalid).toBe(true);
    expect(controller.getResponse(TodoResource.get, { id: 2 }).invalid).toBe(false);
    controller.expireAll(TodoResource.get);
    expect(controller.getResponse(TodoResource.get, { id: 2 })).toMatchObject({ stale: true, invalid: false });
    controller.invalidateAll(TodoResource.get);
    expect(controller.getResponse(TodoResource.get, { id: 2 }).invalid).toBe(true);
  });
});

describe('Controller.observe', () => {
  it('emits loading synchronously, then data; one request for many subscribers', async () => {
    const a = record(controller.observe(TodoResource.getList, { userId: 1 }));
    const b = record(controller.observe(TodoResource.getList, { userId: 1 }));
    expect(a.values[0]).toEqual({
      data: undefined,
      error: undefined,
      loading: true,
      fetching: true,
      stale: false,
      paused: false,
    });
    await settled(() => expect(a.last().data).toBeDefined());
    expect(a.last()).toMatchObject({ loading: false, fetching: false, stale: false, error: undefined });
    expect(a.last().data!.map((t) => t.id)).toEqual([1, 3]);
    expect(b.last().data).toBe(a.last().data);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    a.unsubscribe();
    b.unsubscribe();
  });

  it('emits only when a field changed, keeping the same data object through unrelated changes', async () => {
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    const count = stream.values.length;
    const data = stream.last().data;
    await controller.fetch(TodoResource.get, { id: 2 });
    await controller.fetch(TodoResource.getList, { userId: 2 });
    expect(stream.values).toHaveLength(count);
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'changed' });
    expect(stream.last().data).not.toBe(data);
    expect(stream.last().data!.title).toBe('changed');
    stream.unsubscribe();
  });

  it('serves an entity loaded by another request at once (and refreshes its own result)', async () => {
    await controller.fetch(TodoResource.getList);
    const stream = record(controller.observe(TodoResource.get, { id: 3 }));
    expect(stream.values[0]!.data!.title).toBe('todo 3');
    expect(stream.values[0]!.loading).toBe(false);
    await settled(() => expect(stream.last().fetching).toBe(false));
    expect(fake.requests).toContain('GET /todos/3');
    stream.unsubscribe();
  });

  it('gives an idle stream for null args', () => {
    const stream = record(controller.observe(TodoResource.get, null));
    expect(stream.values).toEqual([
      { data: undefined, error: undefined, loading: false, fetching: false, stale: false, paused: false },
    ]);
    expect(fake.requests).toEqual([]);
  });

  it('refetches when invalidated while subscribed', async () => {
    const stream = record(controller.observe(TodoResource.getList, { userId: 2 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    fake.todos.get(2)!.title = 'from the server';
    controller.invalidate(TodoResource.getList, { userId: 2 });
    expect(stream.last()).toMatchObject({ data: undefined, loading: true });
    await settled(() => expect(stream.last().data?.[0]?.title).toBe('from the server'));
    stream.unsubscribe();
  });

  it('drops an entity deleted by a mutation from every list without refetching them', async () => {
    const all = record(controller.observe(TodoResource.getList));
    const mine = record(controller.observe(TodoResource.getList, { userId: 1 }));
    await settled(() => expect(all.last().data && mine.last().data).toBeDefined());
    const before = fake.requests.length;
    await controller.fetch(TodoResource.delete, { id: 3 });
    expect(all.last().data!.map((t) => t.id)).toEqual([1, 2, 4]);
    expect(mine.last().data!.map((t) => t.id)).toEqual([1]);
    expect(fake.requests.slice(before)).toEqual(['DELETE /todos/3']);
    all.unsubscribe();
    mine.unsubscribe();
  });

  it('refetches a result that requires an invalidated entity', async () => {
    const stream = record(controller.observe(TodoResource.get, { id: 4 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    controller.setResponse(
      new RestEndpoint({ urlPrefix: API, path: '/todos/:id', method: 'DELETE', schema: new schema.Invalidate(Todo) }),
      { id: 4 },
      { id: 4 },
    );
    // the result is unusable: the observer sees it as loading (no data) while it refetches
    expect(stream.last()).toMatchObject({ data: undefined, loading: true });
    await settled(() => expect(fake.requests.filter((r) => r === 'GET /todos/4')).toHaveLength(2));
    await settled(() => expect(stream.last().data?.id).toBe(4));
    stream.unsubscribe();
  });

  it('keeps data and reports the error on a 5xx refresh; surfaces a 4xx', async () => {
    let now = 1_000;
    controller = new Controller({ now: () => now, retry: 0 }); // the 5xx is reported at once (retries: test/reliability)
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    fake.fail('GET', 503);
    now += 2_000;
    controller.expireAll(TodoResource.get);
    await settled(() => expect(stream.last().error).toBeDefined());
    expect(stream.last().data!.id).toBe(1);
    expect(stream.last().error).toMatchObject({ status: 503 });
    stream.unsubscribe();

    const missing = record(controller.observe(TodoResource.get, { id: 404 }));
    await settled(() => expect(missing.last().error).toBeDefined());
    expect(missing.last()).toMatchObject({ data: undefined, loading: false, error: { status: 404 } });
    missing.unsubscribe();
  });

  it('polls every pollFrequency ms with one timer per key, stopping after the last subscriber', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const Live = createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, pollFrequency: 1_000 });
    const a = record(controller.observe(Live.get, { id: 1 }));
    const b = record(controller.observe(Live.get, { id: 1 }));
    await settled(() => expect(a.last().fetching).toBe(false));
    expect(fake.requests).toHaveLength(1);
    for (let tick = 1; tick <= 3; tick++) {
      vi.advanceTimersByTime(1_000);
      await settled(() => expect(fake.requests).toHaveLength(1 + tick));
      await settled(() => expect(a.last().fetching).toBe(false));
    }
    fake.todos.get(1)!.title = 'polled';
    vi.advanceTimersByTime(1_000);
    await settled(() => expect(b.last().data!.title).toBe('polled'));
    a.unsubscribe();
    b.unsubscribe();
    const count = fake.requests.length;
    vi.advanceTimersByTime(5_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests).toHaveLength(count);
  });

  it('recomputes only the streams that read what changed', async () => {
    await controller.fetch(TodoResource.getList);
    const streams = [1, 2, 3, 4].map((id) => record(controller.observe(TodoResource.get, { id })));
    await settled(() => expect(streams.every((s) => s.last().fetching === false)).toBe(true));
    const counts = streams.map((s) => s.values.length);
    const spy = vi.spyOn(MemoCache.prototype, 'denormalize');
    controller.setResponse(TodoResource.get, { id: 2 }, { ...fake.todos.get(2)!, title: 'only two' });
    // only the stream of todo 2 read the changed record: one recomputation, one emission
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(streams.map((s) => s.values.length)).toEqual(counts.map((n, i) => (i === 1 ? n + 1 : n)));
    expect(streams[1]!.last().data!.title).toBe('only two');
    streams.forEach((s) => s.unsubscribe());
  });

  it('a stream that reads no record yet gets its own result, then the records it reads from then on', () => {
    const offline = { urlPrefix: API, fetchResponse: () => new Promise<Response>(() => {}) };
    const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: Article });
    const getUser = new RestEndpoint({ ...offline, path: '/users/:id', schema: User });
    const stream = record(controller.observe(getArticle, { id: 1 }));
    // no stream reads a record: a write of records only changes nothing it shows
    controller.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Ann' });
    expect(stream.last()).toMatchObject({ data: undefined, loading: true });
    const count = stream.values.length;
    controller.setResponse(
      getArticle,
      { id: 1 },
      { id: 1, title: 'a', author: { id: 'u1', name: 'Ann' }, comments: [] },
    );
    expect(stream.values).toHaveLength(count + 1);
    expect(stream.last().data!.author.name).toBe('Ann');
    controller.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Bob' });
    expect(stream.values).toHaveLength(count + 2);
    expect(stream.last().data!.author.name).toBe('Bob');
    stream.unsubscribe();
  });

  it('re-reads the data of a stream whose nested entity changed, keeping its own error, expiry and invalidation', () => {
    let now = 1_000;
    controller = new Controller({ now: () => now, retry: 0 });
    // requests never answer: the streams stay fetching, and nothing reaches the network
    const offline = { urlPrefix: API, fetchResponse: () => new Promise<Response>(() => {}), dataExpiryLength: 500 };
    const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: Article });
    const getUser = new RestEndpoint({ ...offline, path: '/users/:id', schema: User });
    const article = (id: number) => ({ id, title: `article ${id}`, author: { id: 'u1', name: 'Ann' }, comments: [] });
    controller.setResponse(getArticle, { id: 1 }, article(1));
    controller.setResponse(getArticle, { id: 2 }, article(2));
    controller.setResponse(getArticle, { id: 3 }, article(3));
    controller.setError(getArticle, { id: 1 }, Object.assign(new Error('unavailable'), { status: 503 }));
    controller.invalidate(getArticle, { id: 3 });
    const streams = [1, 2, 3].map((id) => record(controller.observe(getArticle, { id })));
    now += 1_000; // the stored results are stale now
    controller.setResponse(getUser, { id: 'u1' }, { id: 'u1', name: 'Bob' });
    const expected = [1, 2, 3].map((id) => peekQuery(controller, getArticle, { id }));
    expect(streams.map((s) => s.last())).toEqual(expected);
    expect(streams[0]!.last()).toMatchObject({ error: { status: 503 }, stale: true, fetching: true });
    expect(streams[0]!.last().data!.author.name).toBe('Bob');
    expect(streams[1]!.last()).toMatchObject({ error: undefined, stale: true });
    expect(streams[1]!.last().data!.author.name).toBe('Bob');
    // invalidated: no data shown, so none to call stale (API.md: `stale`: the data is past its expiry)
    expect(streams[2]!.last()).toMatchObject({ data: undefined, stale: false, loading: true });
    streams.forEach((s) => s.unsubscribe());
  });
});

describe('optimistic updates', () => {
  it('shows the expected result in every observer at once and keeps the real one after success', async () => {
    const list = record(controller.observe(TodoResource.getList));
    const one = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    fake.setLatency(30);
    const done = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
    expect(one.last().data!.completed).toBe(true);
    expect(list.last().data![0]!.completed).toBe(true);
    expect(list.last().data![1]).toBe(list.values[list.values.length - 2]!.data![1]);
    await done;
    expect(one.last().data!.completed).toBe(true);
    expect(controller.getState().optimistic).toEqual([]);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('rolls back exactly the failed layer; several in flight resolve in any order', async () => {
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    fake.fail('PATCH', 500, 1, 60);
    const failing = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'will fail' });
    fake.setLatency(5);
    const succeeding = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'will stay' });
    const titles = () => list.last().data!.map((t) => t.title);
    expect(titles()).toEqual(['will fail', 'will stay', 'todo 3', 'todo 4']);
    await succeeding;
    expect(titles()).toEqual(['will fail', 'will stay', 'todo 3', 'todo 4']);
    await expect(failing).rejects.toMatchObject({ status: 500 });
    expect(titles()).toEqual(['todo 1', 'will stay', 'todo 3', 'todo 4']);
    list.unsubscribe();
  });

  it('optimistic delete removes at once and comes back on failure; optimistic push needs an id', async () => {
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    fake.setLatency(20);
    fake.fail('DELETE', 500);
    const deleting = controller.fetch(TodoResource.delete, { id: 2 });
    expect(list.last().data!.map((t) => t.id)).toEqual([1, 3, 4]);
    await expect(deleting).rejects.toBeDefined();
    expect(list.last().data!.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    const pushing = controller.fetch(TodoResource.getList.push, {}, { id: 77, userId: 1, title: 'optimistic' });
    expect(list.last().data!.map((t) => t.id)).toEqual([1, 2, 3, 4, 77]);
    await pushing;
    expect(list.last().data!.map((t) => t.id)).toEqual([1, 2, 3, 4, 77]);
    list.unsubscribe();
  });
});

describe('QueryState type', () => {
  it('is typed from the endpoint', async () => {
    const state: QueryState<Todo[]> = await firstValueFrom(controller.observe(TodoResource.getList, { userId: 1 }));
    expect(state.loading).toBe(true);
  });
});

describe('sequences and ordering', () => {
  const summary = (s: QueryState<Todo>) =>
    `${s.data?.title ?? '-'}|${s.loading ? 'L' : ''}${s.fetching ? 'F' : ''}${s.stale ? 'S' : ''}${s.error ? 'E' : ''}`;

  it('emits loading -> data -> refreshing (data kept, stale) -> refreshed', async () => {
    let now = 1_000;
    controller = new Controller({ now: () => now });
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().fetching).toBe(false));
    fake.todos.get(1)!.title = 'refreshed';
    now += 61_000;
    controller.expireAll(TodoResource.get);
    await settled(() => expect(stream.last().data!.title).toBe('refreshed'));
    expect(stream.values.map(summary)).toEqual(['-|LF', 'todo 1|', 'todo 1|FS', 'refreshed|']);
    stream.unsubscribe();
  });

  it('several mutations of one entity in flight end in the state of the last request, whatever order they answer in', async () => {
    await controller.fetch(TodoResource.get, { id: 1 });
    fake.setLatency(50);
    const first = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'first' });
    await new Promise((r) => setTimeout(r, 5));
    fake.setLatency(0);
    const second = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'second' });
    await second;
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data!.title).toBe('second');
    await first; // answers last, with the older request's data
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data!.title).toBe('second');
  });

  it('restores from a serialized state and serves it without a request', async () => {
    await controller.fetch(TodoResource.getList, { userId: 2 });
    const serialized = JSON.stringify(controller.getState());
    fake.requests.length = 0;
    const restored = new Controller({ initialState: JSON.parse(serialized) });
    const stream = record(restored.observe(TodoResource.getList, { userId: 2 }));
    expect(stream.values).toHaveLength(1);
    expect(stream.values[0]).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(stream.values[0]!.data!.map((t) => t.id)).toEqual([2, 4]);
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests).toEqual([]);
    stream.unsubscribe();
  });
});

describe('peekQuery and watchQuery', () => {
  it('gives the first emission of observe without a request or a timer, following the error policy', async () => {
    expect(peekQuery(controller, TodoResource.get, { id: 1 })).toEqual({
      data: undefined,
      error: undefined,
      loading: true,
      fetching: true,
      stale: false,
      paused: false,
    });
    expect(peekQuery(controller, TodoResource.get, null)).toMatchObject({ loading: false, fetching: false });
    await controller.fetch(TodoResource.get, { id: 1 });
    const peeked = peekQuery(controller, TodoResource.get, { id: 1 });
    expect(peeked).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(peeked.data!.title).toBe('todo 1');
    controller.setError(TodoResource.get, { id: 1 }, Object.assign(new Error('gone'), { status: 404 }));
    // a 4xx replaces the data; a subscriber would refetch at once, so it is loading and the old error is cleared
    expect(peekQuery(controller, TodoResource.get, { id: 1 })).toMatchObject({
      data: undefined,
      loading: true,
      error: undefined,
    });
    controller.setError(TodoResource.get, { id: 1 }, Object.assign(new Error('down'), { status: 503 }));
    expect(peekQuery(controller, TodoResource.get, { id: 1 }).data!.id).toBe(1);
    expect(fake.requests).toEqual(['GET /todos/1']);
  });

  it('watchQuery is observe with the arguments as one list; both refuse what observe refuses', async () => {
    const states: QueryState<Todo>[] = [];
    const subscription = watchQuery(controller, TodoResource.get, [{ id: 1 }], { poll: false }).subscribe((s) =>
      states.push(s),
    );
    expect(states[0]).toMatchObject({ loading: true, fetching: true });
    await vi.waitFor(() => expect(states.at(-1)?.data?.title).toBe('todo 1'));
    subscription.unsubscribe();
    const idle: QueryState<Todo>[] = [];
    watchQuery(controller, TodoResource.get, [null], { poll: true }).subscribe((s) => idle.push(s));
    expect(idle).toEqual([
      { data: undefined, error: undefined, loading: false, fetching: false, stale: false, paused: false },
    ]);
    expect(() => watchQuery(controller, TodoResource.partialUpdate, [{ id: 1 }, {}] as never, { poll: false })).toThrow(
      /watchQuery\(Todo.partialUpdate\)/,
    );
    controller.dispose();
    expect(() => watchQuery(controller, TodoResource.get, [{ id: 1 }], { poll: false })).toThrow(
      /watchQuery.*disposed/,
    );
    expect(() => peekQuery(controller, TodoResource.get, { id: 1 })).toThrow(/peekQuery.*disposed/);
  });
});
