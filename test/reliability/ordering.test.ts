/**
 * Ordering: responses that arrive in another order than their requests started. The rule is "the
 * request that started last wins", so the store ends where the server is. Each test compares the
 * store with the msw server's data at the end and checks that the controller works on.
 */
import { HttpResponse, delay, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller, NetworkError } from '../../core/index.js';
import {
  TodoResource,
  answerNext,
  onceHandler,
  record,
  serverTodos,
  settled,
  storedTodos,
  useTodoServer,
  type TodoJson,
} from './faultHarness.js';

const fake = useTodoServer();
const titles = (todos: readonly { title: string }[] | undefined) => todos?.map((todo) => todo.title);

/** A GET answer that reads the server's data when the request arrives and sends it `ms` later (a slow network). */
const snapshotThenWait = (ms: number, read: () => unknown) => async () => {
  const body = structuredClone(read()) as JsonBodyType;
  await delay(ms);
  return HttpResponse.json(body);
};

/** A PATCH/PUT answer that applies the change when the request arrives and confirms it `ms` later. */
const applyThenWait = (ms: number) => async (request: Request) => {
  const id = Number(new URL(request.url).pathname.split('/').pop());
  const body = (await request.json()) as Partial<TodoJson>;
  const next = request.method === 'PUT' ? ({ ...body, id } as TodoJson) : { ...fake.todos.get(id)!, ...body, id };
  fake.todos.set(id, next);
  await delay(ms);
  return HttpResponse.json(next);
};

describe('out-of-order responses', () => {
  it('for the same key across a reset: the answer to the older request never shows; the newer one does', async () => {
    const controller = new Controller();
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    controller.expireAll(TodoResource.get); // no-op for the ordering, keeps the stream honest
    answerNext(
      fake,
      'get',
      '/todos/1',
      snapshotThenWait(60, () => ({ ...fake.todos.get(1)!, title: 'the older answer' })),
    );
    const older = controller.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(fake.requests).toHaveLength(2));
    fake.todos.get(1)!.title = 'the newer answer';
    controller.resetEntireStore(); // the observer refetches at once: a newer request for the same key
    await settled(() => expect(stream.last().data?.title).toBe('the newer answer'));
    expect((await older).title).toBe('the older answer'); // its caller still gets it ...
    expect(stream.last().data!.title).toBe('the newer answer'); // ... the store does not
    expect(stream.values.some((state) => state.data?.title === 'the older answer')).toBe(false);
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(1)]);
    stream.unsubscribe();
  });

  it('for the same entity from two keys: an older, slower item response does not overwrite a newer list', async () => {
    const controller = new Controller();
    const item = record(controller.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(item.last().data).toBeDefined());
    answerNext(
      fake,
      'get',
      '/todos/2',
      snapshotThenWait(60, () => fake.todos.get(2)),
    );
    controller.invalidate(TodoResource.get, { id: 2 }); // starts the slow item request (it reads "todo 2")
    await settled(() => expect(fake.requests).toHaveLength(2));
    fake.todos.get(2)!.title = 'changed after the item request started';
    const list = await controller.fetch(TodoResource.getList); // starts later, answers first
    expect(list[1]!.title).toBe('changed after the item request started');
    await settled(() => expect(item.last().fetching).toBe(false));
    expect(item.last().data!.title).toBe('changed after the item request started');
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    item.unsubscribe();
  });

  it('two mutations of one todo answered in reverse order: the later request wins, as on the server', async () => {
    const controller = new Controller();
    const item = record(controller.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(item.last().data).toBeDefined());
    answerNext(fake, 'patch', '/todos/3', applyThenWait(50), applyThenWait(0));
    const first = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'first' });
    const second = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'second' });
    expect(item.last().data!.title).toBe('second'); // both optimistic layers, in order
    await second;
    expect(item.last().data!.title).toBe('second');
    await first; // answers last, with the older request's data
    expect(item.last().data!.title).toBe('second');
    expect(fake.todos.get(3)!.title).toBe('second');
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(3)]);
    item.unsubscribe();
  });

  it('two mutations started in the same millisecond (a frozen clock), answered in reverse order: the later still wins', async () => {
    const controller = new Controller({ now: () => 1_700_000_000_000 });
    await controller.fetch(TodoResource.get, { id: 2 });
    answerNext(fake, 'patch', '/todos/2', applyThenWait(40), applyThenWait(0));
    const first = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'first' });
    const second = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'second' });
    await Promise.all([first, second]);
    expect(fake.todos.get(2)!.title).toBe('second');
    expect(controller.getResponse(TodoResource.get, { id: 2 }).data!.title).toBe('second');
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(2)]);
  });
});

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
    answerNext(fake, 'patch', '/todos/2', applyThenWait(60));
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
    answerNext(fake, 'patch', '/todos/4', applyThenWait(40));
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
  /** A small seeded generator (mulberry32): the same seed, the same run. */
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it.each([1, 2, 3, 4, 5, 6])('seed %i: the store ends exactly where the server is', async (seed) => {
    const next = random(seed);
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
          ? applyThenWait(plan.wait)
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
