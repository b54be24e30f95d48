/**
 * An outside review of the controller's verbs (API.md "The controller and the store"): fetchIfStale, invalidate,
 * expireAll, setError, and push matching by the body, each against the msw todo server.
 */
import { describe, expect, it } from 'vitest';
import { Controller, createResource, schema, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { API, TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';

const fake = useTodoServer();
const gets = (path: string) => fake.requests.filter((r) => r === `GET ${path}`).length;
const make = () => new Controller({ retry: 0, environment: {} });

describe('fetchIfStale', () => {
  it('answers fresh data from the store, fetches invalidated or expired data', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    expect((await c.fetchIfStale(TodoResource.get, { id: 1 })).title).toBe('todo 1');
    expect(gets('/todos/1')).toBe(1);
    c.invalidate(TodoResource.get, { id: 1 });
    await c.fetchIfStale(TodoResource.get, { id: 1 });
    expect(gets('/todos/1')).toBe(2);
    c.expireAll(TodoResource.get);
    await c.fetchIfStale(TodoResource.get, { id: 1 });
    expect(gets('/todos/1')).toBe(3);
    c.dispose();
  });
});

describe('invalidate and expire', () => {
  it('expireAll keeps the data on screen, marks it stale and refetches in the background', async () => {
    const c = make();
    const s = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    await settled(() => expect(s.last().data).toHaveLength(4));
    c.expireAll(TodoResource.getList);
    expect(s.values.some((v) => v.stale && v.data !== undefined)).toBe(true);
    expect(s.values.every((v, i) => i === 0 || v.data !== undefined || v.loading)).toBe(true);
    await settled(() => expect(gets('/todos')).toBe(2));
    await settled(() => expect(s.last()).toMatchObject({ stale: false, fetching: false }));
    s.unsubscribe();
    c.dispose();
  });

  it('invalidateAll makes every observed key of the endpoint refetch', async () => {
    const c = make();
    const a = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 1 }));
    const b = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(b.last().data?.title).toBe('todo 2'));
    fake.todos.get(1)!.title = 'changed 1';
    c.invalidateAll(TodoResource.get);
    await settled(() => expect(a.last().data?.title).toBe('changed 1'));
    expect(gets('/todos/1')).toBe(2);
    expect(gets('/todos/2')).toBe(2);
    a.unsubscribe();
    b.unsubscribe();
    c.dispose();
  });

  it('setError on a key with data: a 5xx keeps the data, a 404 replaces it', () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'kept' });
    const server = Object.assign(new Error('down'), { status: 503, name: 'NetworkError' });
    c.setError(TodoResource.get, { id: 1 }, server);
    const s = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 1 }));
    expect(s.last().data?.title).toBe('kept');
    expect(s.last().error).toBe(server);
    const missing = Object.assign(new Error('gone'), { status: 404, name: 'NetworkError' });
    c.setError(TodoResource.get, { id: 1 }, missing);
    expect(s.last().data).toBeUndefined();
    expect(s.last().error).toBe(missing);
    s.unsubscribe();
    c.dispose();
  });
});

describe('push matching by the body', () => {
  it('a push with the filter in its body reaches the lists of that value and the unfiltered list only', async () => {
    const c = make();
    await c.fetch(TodoResource.getList, { userId: 1 });
    await c.fetch(TodoResource.getList, { userId: 2 });
    await c.fetch(TodoResource.getList, {});
    const created = await c.fetch(TodoResource.getList.push, {}, { userId: 2, title: 'new', completed: false });
    await flush();
    const ids = (args: object) => c.getResponse(TodoResource.getList, args as never).data?.map((t) => t.id);
    expect(ids({ userId: 2 })).toContain(created.id);
    expect(ids({})).toContain(created.id);
    expect(ids({ userId: 1 })).not.toContain(created.id);
    c.dispose();
  });

  it('an argument starting with order is ignored when matching', () => {
    const Sorted = createResource({
      urlPrefix: API,
      path: '/todos/:id',
      schema: Todo,
      searchParams: {} as { userId?: number; orderBy?: string } | undefined,
    });
    const c = make();
    c.setResponse(Sorted.getList, { userId: 1, orderBy: 'title' }, [{ id: 1, userId: 1, title: 'a' }]);
    c.setResponse(Sorted.getList.push, { userId: 1 }, { id: 9 }, { id: 9, userId: 1, title: 'b' });
    expect(c.getResponse(Sorted.getList, { userId: 1, orderBy: 'title' }).data?.map((t) => t.id)).toEqual([1, 9]);
    expect(Sorted.getList.schema).toBeInstanceOf(schema.Collection);
    c.dispose();
  });
});
