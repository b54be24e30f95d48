/**
 * `watchQuery(..., { batch: true })`, what the adapters subscribe with: while every subscriber of a key
 * batches, the writes of one task re-read the store once, at its end, instead of once per write; the first
 * state still comes synchronously; `flushQueries` re-reads at once; one subscriber that does not batch
 * gets every write's state synchronously, as `controller.observe` always does.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Controller, watchQuery, type QueryState } from '../../core/index.js';
import { controllerInternals } from '../../core/controller/Controller.js';
import { afterQueries, flushQueries, onQueriesWait } from '../../core/internal.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { Todo } from '../fixtures/entities.js';
import { createTodoServer } from '../fixtures/todoServer.js';

const fake = createTodoServer(3);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

const microtask = () => Promise.resolve();

let controller: Controller;
afterEach(() => controller.dispose());

/** A controller holding a list of three todos, and a count of the store reads its streams make. */
function setup() {
  controller = new Controller();
  controller.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
  const reader = controllerInternals(controller).cache.reader;
  const read = reader.read.bind(reader);
  const counts = { reads: 0 };
  reader.read = (...args: Parameters<typeof read>) => {
    counts.reads++;
    return read(...args);
  };
  return counts;
}

const titles = (state: QueryState<Todo[]> | undefined) => state?.data?.map((todo) => todo.title);

describe('watchQuery with batch: one re-read per task', () => {
  it('gives the first state at once, then a task of three writes as one re-read and one emission at its end', async () => {
    const counts = setup();
    const seen: QueryState<Todo[]>[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe(
      (state) => seen.push(state),
    );
    expect(seen.map(titles)).toEqual([['todo 1', 'todo 2', 'todo 3']]);
    const first = seen[0]!;
    counts.reads = 0;
    for (const title of ['a', 'b', 'c']) controller.set(Todo, { id: 2 }, row(2, title));
    expect(seen).toHaveLength(1); // nothing re-read yet
    expect(counts.reads).toBe(0);
    await microtask();
    expect(counts.reads).toBe(1);
    expect(seen.map(titles)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['todo 1', 'c', 'todo 3'],
    ]);
    const last = seen[1]!.data!;
    expect(last[0]).toBe(first.data![0]); // unchanged rows keep their objects
    expect(last[2]).toBe(first.data![2]);
    subscription.unsubscribe();
  });

  it('flushQueries re-reads at once; the end of the task then has nothing left to do', async () => {
    const counts = setup();
    const seen: QueryState<Todo[]>[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe(
      (state) => seen.push(state),
    );
    counts.reads = 0;
    controller.set(Todo, { id: 1 }, row(1, 'now'));
    flushQueries();
    expect(counts.reads).toBe(1);
    expect(titles(seen.at(-1))).toEqual(['now', 'todo 2', 'todo 3']);
    await microtask();
    expect(counts.reads).toBe(1);
    expect(seen).toHaveLength(2);
    subscription.unsubscribe();
  });

  it('a subscriber that does not batch gets every write at once, and so does a batching one of the same key', () => {
    setup();
    const eager: (string[] | undefined)[] = [];
    const batched: (string[] | undefined)[] = [];
    const one = controller.observe(TodoResource.getList, {}).subscribe((state) => eager.push(titles(state)));
    const two = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe((state) =>
      batched.push(titles(state)),
    );
    controller.set(Todo, { id: 3 }, row(3, 'x'));
    controller.set(Todo, { id: 3 }, row(3, 'y'));
    expect(eager.map((list) => list?.[2])).toEqual(['todo 3', 'x', 'y']);
    expect(batched.map((list) => list?.[2])).toEqual(['todo 3', 'x', 'y']);
    one.unsubscribe();
    two.unsubscribe();
  });

  it("a key's result replaced and then a record changed in one task: the end of the task reads the new result", async () => {
    setup();
    const seen: (string[] | undefined)[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe(
      (state) => seen.push(titles(state)),
    );
    controller.setResponse(TodoResource.getList, {}, [row(4), row(1)]);
    controller.set(Todo, { id: 1 }, row(1, 'renamed'));
    await microtask();
    expect(seen).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['todo 4', 'renamed'],
    ]);
    subscription.unsubscribe();
  });

  it('an invalidation asks for its request at the end of the task, and the answer is shown', async () => {
    setup();
    fake.requests.length = 0;
    const seen: QueryState<Todo[]>[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe(
      (state) => seen.push(state),
    );
    controller.invalidate(TodoResource.getList, {});
    expect(fake.requests).toEqual([]);
    await microtask();
    expect(seen.at(-1)?.fetching).toBe(true);
    await expect.poll(() => seen.at(-1)?.fetching).toBe(false);
    expect(fake.requests).toEqual(['GET /todos']);
    expect(titles(seen.at(-1))).toEqual(['todo 1', 'todo 2', 'todo 3']);
    subscription.unsubscribe();
  });

  it('an awaited fetch: the batching subscriber shows its answer when the await resumes', async () => {
    controller = new Controller();
    const seen: QueryState<Todo[]>[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe(
      (state) => seen.push(state),
    );
    expect(seen.at(-1)).toMatchObject({ loading: true, fetching: true });
    const data = await controller.fetch(TodoResource.getList);
    expect(seen.at(-1)).toMatchObject({ loading: false, fetching: false });
    expect(seen.at(-1)?.data).toBe(data);
    subscription.unsubscribe();
  });

  it('a disposed controller re-reads nothing at the end of the task', async () => {
    setup();
    const seen: QueryState<Todo[]>[] = [];
    watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe((state) =>
      seen.push(state),
    );
    controller.set(Todo, { id: 1 }, row(1, 'renamed'));
    controller.dispose();
    await microtask();
    expect(seen.map(titles)).toEqual([['todo 1', 'todo 2', 'todo 3']]);
  });

  it('afterQueries runs after the emissions of the end of the task, in the same microtask', async () => {
    setup();
    const order: string[] = [];
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe(
      (state) => {
        order.push(`emit ${titles(state)?.[0]}`);
        if (order.length > 1) afterQueries(() => order.push('after'));
      },
    );
    await microtask();
    controller.set(Todo, { id: 1 }, row(1, 'renamed'));
    await microtask();
    expect(order).toEqual(['emit todo 1', 'emit renamed', 'after']);
    subscription.unsubscribe();
  });

  it("onQueriesWait hears a task's first write, and the first after a flush, not every write", async () => {
    setup();
    const heard: string[] = [];
    const stop = onQueriesWait(() => heard.push('wait'));
    const subscription = watchQuery(controller, TodoResource.getList, [{}], { poll: true, batch: true }).subscribe();
    controller.set(Todo, { id: 1 }, row(1, 'a'));
    controller.set(Todo, { id: 2 }, row(2, 'b'));
    expect(heard).toEqual(['wait']);
    flushQueries();
    controller.set(Todo, { id: 3 }, row(3, 'c'));
    expect(heard).toEqual(['wait', 'wait']);
    await microtask();
    stop();
    controller.set(Todo, { id: 1 }, row(1, 'd'));
    expect(heard).toEqual(['wait', 'wait']);
    subscription.unsubscribe();
  });
});
