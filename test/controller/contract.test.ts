/**
 * Behaviours API.md states, checked against the todo server behind msw where they meet: a reset while an
 * optimistic mutation is in flight, an invalidation or an error written while a request is in flight, `expireAll`
 * on a shown list, `fetchIfStale` on fresh and stale data, an idle stream, dispose in the middle of a request.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type QueryState } from '../../core/index.js';
import { useControllers } from '../fixtures/controllers.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { record, settled } from '../fixtures/streams.js';

const fake = createTodoServer(3);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  fake.todos.clear();
  for (const id of [1, 2, 3]) fake.todos.set(id, row(id));
  fake.requests.length = 0;
  fake.setLatency(0);
  fake.clearFailures();
});
afterEach(() => fake.server.resetHandlers());
afterAll(() => fake.server.close());

const { make } = useControllers({ retry: 0, environment: {} });
const titles = (state: QueryState<Todo[]>) => state.data?.map((todo) => todo.title);

describe('resetEntireStore while an optimistic mutation is in flight', () => {
  it('the layer goes with the store, the answer writes nothing, observers refetch what the server holds', async () => {
    const c = make();
    const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(list.last())).toEqual(['todo 1', 'todo 2', 'todo 3']));
    fake.setLatency(30);
    const mutation = c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' });
    expect(titles(list.last())).toEqual(['todo 1', 'renamed', 'todo 3']);
    c.resetEntireStore();
    expect(c.getState().optimistic).toEqual([]);
    expect(list.last().data).toBeUndefined();
    expect(list.last().loading).toBe(true);
    const outcome = await mutation.then(
      () => 'resolved',
      (error: Error) => error.name,
    );
    expect(['resolved', 'AbortError']).toContain(outcome);
    fake.setLatency(0);
    // the mutation's own answer wrote nothing; the list, refetched, shows what the server holds
    expect(c.getState().endpoints[TodoResource.partialUpdate.key({ id: 2 }, { title: 'renamed' })]).toBeUndefined();
    expect(c.getState().optimistic).toEqual([]);
    c.invalidate(TodoResource.getList, {});
    await settled(() => expect(titles(list.last())).toEqual([...fake.todos.values()].map((todo) => todo.title)));
  });

  it('a mutation that fails after the reset leaves the empty store as it is', async () => {
    const c = make();
    c.setResponse(TodoResource.getList, {}, [row(1), row(2)]);
    fake.fail('PATCH', 500, 1, 20);
    const mutation = c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' }).catch((e: Error) => e);
    c.resetEntireStore();
    const state = c.getState();
    await mutation;
    expect(c.getState().entities).toEqual(state.entities);
    expect(c.getState().endpoints).toEqual({});
    expect(c.getState().meta).toEqual({});
    expect(c.getState().optimistic).toEqual([]);
  });
});

describe('marks written while a request is in flight', () => {
  it('invalidate during a refetch: the answer is shown but the key stays invalid and is fetched again', async () => {
    const c = make();
    const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    await settled(() => expect(list.last().data).toHaveLength(3));
    fake.setLatency(20);
    c.expireAll(TodoResource.getList);
    await settled(() => expect(fake.requests).toHaveLength(2));
    fake.todos.set(4, row(4));
    c.invalidate(TodoResource.getList, {});
    expect(list.last().data).toBeUndefined(); // an invalid result is not shown
    // the refetch in flight started before the mark: its answer leaves the key invalid, and a new request follows
    await settled(() => expect(fake.requests.length).toBeGreaterThanOrEqual(3));
    await settled(() => expect(list.last().data).toHaveLength(4));
    expect(c.getResponse(TodoResource.getList, {}).invalid).toBe(false);
    expect(list.last().loading).toBe(false);
  });

  it('setError during a first load is the answer: the older load does not replace it', async () => {
    const c = make();
    fake.setLatency(20);
    const one = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 1 }));
    expect(one.last().loading).toBe(true);
    const error = Object.assign(new Error('gone'), { status: 404 });
    c.setError(TodoResource.get, { id: 1 }, error);
    expect(one.last()).toMatchObject({ error, loading: false, data: undefined });
    // the load started before the error was written: its answer is older, the error stays the key's answer
    await settled(() => expect(one.last().fetching).toBe(false));
    expect(one.last()).toMatchObject({ error, loading: false, data: undefined });
    expect(fake.requests).toEqual(['GET /todos/1']);
    // a newer request answers
    fake.setLatency(0);
    expect((await c.fetch(TodoResource.get, { id: 1 })).title).toBe('todo 1');
    expect(one.last()).toMatchObject({ error: undefined, loading: false });
    expect(one.last().data?.title).toBe('todo 1');
  });
});

describe('expireAll and fetchIfStale', () => {
  it('expireAll keeps the list shown (stale) and refetches it in the background, once for every observer', async () => {
    const c = make();
    const first = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    const second = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    await settled(() => expect(first.last().data).toHaveLength(3));
    const shown = first.last().data;
    fake.setLatency(20);
    fake.requests.length = 0;
    c.expireAll(TodoResource.getList);
    expect(first.last().data).toBe(shown);
    expect(first.last().loading).toBe(false);
    expect(first.last().fetching).toBe(true);
    await settled(() => expect(first.last().fetching).toBe(false));
    expect(fake.requests).toEqual(['GET /todos']);
    expect(first.last().stale).toBe(false);
    expect(second.last()).toBe(first.last());
    expect(first.last().data).toBe(shown); // the same answer: the same list
  });

  it('fetchIfStale answers fresh data from the store without a request, and fetches stale data', async () => {
    const clock = { now: 1_000_000 };
    const c = make({ now: () => clock.now });
    const fetched = await c.fetch(TodoResource.get, { id: 1 });
    expect(await c.fetchIfStale(TodoResource.get, { id: 1 })).toBe(fetched);
    expect(fake.requests).toEqual(['GET /todos/1']);
    clock.now += TodoResource.get.dataExpiryLength + 1;
    fake.todos.set(1, row(1, 'newer'));
    expect((await c.fetchIfStale(TodoResource.get, { id: 1 })).title).toBe('newer');
    expect(fake.requests).toEqual(['GET /todos/1', 'GET /todos/1']);
  });
});

describe('idle streams and dispose', () => {
  it('observe(endpoint, null) emits an idle state and never fetches', async () => {
    const c = make();
    const idle = record<QueryState<Todo>>(c.observe(TodoResource.get, null));
    c.setResponse(TodoResource.get, { id: 1 }, row(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle.values).toHaveLength(1);
    expect(idle.last()).toMatchObject({ data: undefined, loading: false, fetching: false, error: undefined });
    expect(fake.requests).toEqual([]);
  });

  it('dispose during a first load: the stream completes, nothing is written, later calls throw', async () => {
    const c = make();
    fake.setLatency(20);
    let completed = false;
    const states: QueryState<unknown>[] = [];
    c.observe(TodoResource.get, { id: 1 }).subscribe({
      next: (s) => states.push(s),
      complete: () => (completed = true),
    });
    const pending = c.fetch(TodoResource.get, { id: 2 }).catch((error: Error) => error);
    c.dispose();
    expect(completed).toBe(true);
    expect(((await pending) as Error).name).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(c.getState().endpoints).toEqual({});
    expect(() => c.invalidate(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    expect(() => c.observe(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    await expect(c.fetch(TodoResource.get, { id: 1 })).rejects.toThrow(/disposed/);
  });
});
