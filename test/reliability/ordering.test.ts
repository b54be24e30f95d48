/**
 * Ordering: responses that arrive in another order than their requests started. The rule is "the
 * request that started last wins", so the store ends where the server is (plain out-of-order responses
 * are the request runner's tests: test/controller/Requests.test.ts; here, mutations racing refreshes,
 * resets and optimistic failures). Each test compares the
 * store with the msw server's data at the end and checks that the controller works on.
 */
import { HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller, NetworkError } from '../../core/index.js';
import {
  TodoResource,
  answerNext,
  applyThenWait,
  onceHandler,
  record,
  serverTodos,
  settled,
  snapshotThenWait,
  storedTodos,
  useTodoServer,
} from './faultHarness.js';
import { seeded } from '../fixtures/random.js';

const fake = useTodoServer();
const titles = (todos: readonly { title: string }[] | undefined) => todos?.map((todo) => todo.title);

describe('a mutation racing a refresh', () => {
  it('the refresh started first and answers last with old data: the mutation stays; store = server', async () => {
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    answerNext(
      fake,
      'get',
      '/todos',
      snapshotThenWait(60, () => [...fake.todos.values()]),
    );
    controller.invalidateAll(TodoResource.getList); // the slow refresh: it read the data before the mutation
    await settled(() => expect(fake.requests).toHaveLength(2));
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true, title: 'done while refreshing' });
    const afterMutation = list.values.length;
    await settled(() => expect(list.last().fetching).toBe(false));
    expect(titles(list.last().data)).toEqual(['done while refreshing', 'todo 2', 'todo 3', 'todo 4']);
    expect(
      list.values
        .slice(afterMutation)
        .every((state) => state.data === undefined || state.data[0]!.title === 'done while refreshing'),
    ).toBe(true);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    list.unsubscribe();
  });

  it('the mutation started first and answers last; the refresh already saw its result: store = server', async () => {
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    answerNext(fake, 'patch', '/todos/2', applyThenWait(fake, 60));
    const mutation = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'slow confirmation' });
    await settled(() => expect(fake.todos.get(2)!.title).toBe('slow confirmation'));
    await controller.fetch(TodoResource.getList); // sees the change and answers first
    expect(titles(list.last().data)).toEqual(['todo 1', 'slow confirmation', 'todo 3', 'todo 4']);
    await mutation;
    expect(titles(list.last().data)).toEqual(['todo 1', 'slow confirmation', 'todo 3', 'todo 4']);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    expect(controller.getState().optimistic).toEqual([]);
    list.unsubscribe();
  });
});

describe('reset during a request', () => {
  it('a GET in flight settles without writing; observers refetch and end at the server', async () => {
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList, { userId: 2 }));
    await settled(() => expect(list.last().data).toBeDefined());
    fake.setLatency(40);
    const inFlight = controller.fetch(TodoResource.getList);
    controller.resetEntireStore();
    expect(list.last()).toMatchObject({ data: undefined, loading: true });
    expect((await inFlight).map((todo) => todo.id)).toEqual([1, 2, 3, 4]); // its caller gets the answer
    await settled(() => expect(list.last().data).toBeDefined());
    expect(controller.getState().endpoints[TodoResource.getList.key()]).toBeUndefined(); // never written
    expect(list.last().data!.map((todo) => todo.id)).toEqual([2, 4]);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake).filter((todo) => todo.userId === 2));
    list.unsubscribe();
  });

  it('an optimistic mutation in flight: its layer goes with the reset, its answer is not written, the refetch shows the server', async () => {
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    answerNext(fake, 'patch', '/todos/4', applyThenWait(fake, 40));
    const renaming = controller.fetch(TodoResource.partialUpdate, { id: 4 }, { title: 'renamed across a reset' });
    expect(titles(list.last().data)![3]).toBe('renamed across a reset');
    await settled(() => expect(fake.todos.get(4)!.title).toBe('renamed across a reset'));
    controller.resetEntireStore();
    expect(controller.getState().optimistic).toEqual([]);
    await settled(() => expect(list.last().data).toBeDefined());
    await renaming;
    expect(titles(list.last().data)).toEqual(titles(serverTodos(fake)));
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    list.unsubscribe();
  });
});

describe('many optimistic mutations failing in arbitrary order', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: the store ends exactly where the server is', async (seed) => {
    const next = seeded(seed).next;
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    const outcomes: readonly ('ok' | 'refused' | 409 | 422 | 500)[] = ['ok', 'ok', 500, 422, 409, 'refused'];
    const plans = Array.from({ length: 30 }, (_, index) => ({
      id: 1 + Math.floor(next() * 4),
      put: next() < 0.3,
      title: `change ${index}`,
      completed: next() < 0.5,
      outcome: outcomes[Math.floor(next() * outcomes.length)]!,
      wait: Math.floor(next() * 30),
    }));
    // the server answers each request as planned: a success is applied on arrival, confirmed after `wait`
    const handlers = [];
    for (const plan of plans) {
      const answer =
        plan.outcome === 'ok'
          ? applyThenWait(fake, plan.wait)
          : async () => {
              await delay(plan.wait);
              return plan.outcome === 'refused'
                ? HttpResponse.error()
                : HttpResponse.json({ message: 'no' }, { status: plan.outcome as number });
            };
      handlers.push(onceHandler(fake, plan.put ? 'put' : 'patch', `/todos/${plan.id}`, answer));
    }
    fake.server.use(...handlers);
    const results = plans.map((plan) => {
      const request = plan.put
        ? controller.fetch(
            TodoResource.update,
            { id: plan.id },
            { ...fake.todos.get(plan.id)!, title: plan.title, completed: plan.completed },
          )
        : controller.fetch(
            TodoResource.partialUpdate,
            { id: plan.id },
            { title: plan.title, completed: plan.completed },
          );
      return request.then(
        () => 'ok',
        (error: unknown) => (error as NetworkError).status,
      );
    });
    // meanwhile the user sees every change at once
    const last = new Map(plans.map((plan) => [plan.id, plan.title]));
    expect(titles(list.last().data)).toEqual([1, 2, 3, 4].map((id) => last.get(id) ?? `todo ${id}`));
    const settledResults = await Promise.all(results);
    expect(settledResults).toEqual(plans.map((plan) => (plan.outcome === 'refused' ? 0 : plan.outcome)));
    // every layer is gone, and the store holds exactly what the server holds
    expect(controller.getState().optimistic).toEqual([]);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    expect(titles(list.last().data)).toEqual(titles(serverTodos(fake)));
    // and the controller works on: a refresh changes nothing
    await controller.fetch(TodoResource.getList);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    list.unsubscribe();
  });
});
