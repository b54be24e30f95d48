/**
 * Structural sharing across writes: a record rewritten to what its readers last read (a change and its revert in
 * one task, read by streams that re-read once per task; an optimistic mutation whose server answer equals the
 * expected one) reads back as the instances those readers hold, and nothing emits.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Controller, watchQuery, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { record } from '../fixtures/streams.js';

const fake = createTodoServer(3);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => fake.server.resetHandlers());
afterAll(() => fake.server.close());

const microtasks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

let controllers: Controller[] = [];
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});

/** A controller holding the list of three todos and each todo's own result, nothing to fetch for an hour. */
function setup(): Controller {
  const c = new Controller({ retry: 0, environment: {} });
  controllers.push(c);
  for (const id of [1, 2, 3]) fake.todos.set(id, row(id)); // the server holds what the store holds
  c.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
  for (const id of [1, 2, 3]) c.setResponse(TodoResource.get, { id }, row(id));
  return c;
}

const batched = <T>(c: Controller, endpoint: typeof TodoResource.get | typeof TodoResource.getList, args: object) =>
  record<QueryState<T>>(
    watchQuery(c, endpoint, [args] as never, { poll: false, batch: true }) as unknown as {
      subscribe(next: (value: QueryState<T>) => void): { unsubscribe(): void };
    },
  );

describe('a change and its revert in one task', () => {
  it('a batching stream keeps the record and the list instances and does not emit', async () => {
    const c = setup();
    const list = batched<Todo[]>(c, TodoResource.getList, {});
    const one = batched<Todo>(c, TodoResource.get, { id: 2 });
    const [listBefore, oneBefore] = [list.last().data!, one.last().data!];
    const [emittedList, emittedOne] = [list.values.length, one.values.length];
    c.set(Todo, { id: 2 }, { id: 2, title: 'x' });
    c.set(Todo, { id: 2 }, { id: 2, title: 'todo 2' });
    await microtasks();
    expect(list.values.length).toBe(emittedList);
    expect(one.values.length).toBe(emittedOne);
    expect(list.last().data).toBe(listBefore);
    expect(one.last().data).toBe(oneBefore);
    // a later real change still shows, with the other records' instances kept
    c.set(Todo, { id: 2 }, { id: 2, title: 'y' });
    await microtasks();
    expect(list.last().data![1]!.title).toBe('y');
    expect(list.last().data![0]).toBe(listBefore[0]);
    expect(one.last().data!.title).toBe('y');
  });

  it('the same with a batch write and a response in between', async () => {
    const c = setup();
    const list = batched<Todo[]>(c, TodoResource.getList, {});
    const before = list.last().data!;
    const emitted = list.values.length;
    c.set(
      [Todo],
      [
        { id: 1, completed: true },
        { id: 3, title: 'z' },
      ],
    );
    c.setResponse(TodoResource.get, { id: 3 }, row(3));
    c.set([Todo], [{ id: 1, completed: false }]);
    await microtasks();
    expect(list.values.length).toBe(emitted);
    expect(list.last().data).toBe(before);
  });

  it('a list result changed and put back by two responses: the list keeps its instance', async () => {
    const c = setup();
    const list = batched<Todo[]>(c, TodoResource.getList, {});
    const before = list.last().data!;
    const emitted = list.values.length;
    c.setResponse(TodoResource.getList, {}, [row(1), row(2)]);
    c.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
    await microtasks();
    expect(list.values.length).toBe(emitted);
    expect(list.last().data).toBe(before);
  });

  it('an eager stream sees both writes, each record read back as the instance it had', () => {
    const c = setup();
    const seen = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 2 }));
    const first = seen.last().data!;
    c.set(Todo, { id: 2 }, { id: 2, title: 'x' });
    expect(seen.last().data!.title).toBe('x');
    c.set(Todo, { id: 2 }, { id: 2, title: 'todo 2' });
    expect(seen.last().data!.title).toBe('todo 2');
    expect(JSON.stringify(seen.last().data)).toBe(JSON.stringify(first));
  });
});

describe('an optimistic mutation whose answer equals what was shown', () => {
  it('keeps the instances the optimistic data gave and emits nothing when it commits', async () => {
    const c = setup();
    const eager = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    const list = batched<Todo[]>(c, TodoResource.getList, {});
    const one = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 2 }));
    const done = c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'todo 2 renamed' });
    await microtasks();
    const shown = eager.last().data!;
    const shownOne = one.last().data!;
    expect(shown[1]!.title).toBe('todo 2 renamed');
    expect(shownOne).toBe(shown[1]);
    expect(list.last().data![1]).toBe(shown[1]);
    const counts = [eager.values.length, list.values.length, one.values.length];
    const answer = await done;
    await flush();
    expect([eager.values.length, list.values.length, one.values.length]).toEqual(counts);
    expect(eager.last().data).toBe(shown);
    expect(one.last().data).toBe(shownOne);
    expect(answer).toBe(shownOne);
    expect(c.getState().optimistic).toEqual([]);
    expect(c.getState().entities.Todo?.['2']).toMatchObject({ title: 'todo 2 renamed' });
  });

  it('an answer that differs from what was shown still gives new instances', async () => {
    const c = setup();
    const eager = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    const done = c.fetch(TodoResource.update, { id: 2 }, { ...row(2, 'put'), completed: true });
    await microtasks();
    const shown = eager.last().data!;
    fake.todos.set(2, { ...row(2, 'put'), completed: true });
    await done;
    await flush();
    expect(eager.last().data![1]!.completed).toBe(true);
    expect(eager.last().data![0]).toBe(shown[0]);
  });
});
