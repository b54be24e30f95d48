/**
 * The app lifecycle: the network and the page's visibility and focus, given as Subjects, with fake
 * timers for time. HTTP goes through the msw todo server.
 */
import { describe, expect, it } from 'vitest';
import { Controller, observeInfinite, peekQuery, watchQuery } from '../../core/index.js';
import { PostResource } from '../fixtures/feedServer.js';
import {
  TodoResource,
  answerNext,
  controllerIn,
  flush,
  record,
  settled,
  status,
  testEnvironment,
  tick,
  todoGets,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';

const fake = useTodoServer();

const gets = (id: number) => todoGets(fake, id);

describe('offline', () => {
  it('a GET waits while offline, its state paused and loading, and starts when the network returns', async () => {
    const env = testEnvironment();
    env.online$.next(false);
    const controller = controllerIn(env);
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await flush(10);
    expect(stream.last()).toMatchObject({ data: undefined, loading: true, fetching: true, paused: true });
    expect(fake.requests).toEqual([]);
    env.online$.next(true);
    await settled(() => expect(stream.last().data?.title).toBe('todo 1'));
    expect(stream.last()).toMatchObject({ loading: false, fetching: false, paused: false });
    expect(fake.requests).toEqual(['GET /todos/1']);
    stream.unsubscribe();
  });

  it('a fetch waits too, and an observer that leaves while it waits lets it go', async () => {
    const env = testEnvironment();
    env.online$.next(false);
    const controller = controllerIn(env);
    const fetched = controller.fetch(TodoResource.get, { id: 2 });
    const stream = record(controller.observe(TodoResource.get, { id: 3 }));
    await flush(10);
    stream.unsubscribe(); // nobody waits for todo 3 any more: its request is dropped, not sent later
    env.online$.next(true);
    expect((await fetched).title).toBe('todo 2');
    await flush(10);
    expect(fake.requests).toEqual(['GET /todos/2']);
  });

  it('a mutation offline rejects at once with a NetworkError of status 0 and leaves the store as it was', async () => {
    const env = testEnvironment();
    const controller = controllerIn(env);
    await controller.fetch(TodoResource.get, { id: 1 });
    const before = controller.getState().entities;
    env.online$.next(false);
    await expect(controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })).rejects.toMatchObject({
      name: 'NetworkError',
      status: 0,
    });
    expect(controller.getState().entities).toEqual(before);
    expect(controller.getState().optimistic).toEqual([]);
    expect(fake.requests).toEqual(['GET /todos/1']);
  });

  it('a mutation whose endpoint sets retry waits for the network instead', async () => {
    const env = testEnvironment();
    env.online$.next(false);
    const controller = controllerIn(env);
    const patch = TodoResource.partialUpdate.extend({ retry: 1 });
    const done = controller.fetch(patch, { id: 1 }, { title: 'sent later' });
    await flush(10);
    expect(fake.requests).toEqual([]);
    env.online$.next(true);
    expect((await done).title).toBe('sent later');
    expect(fake.requests).toEqual(['PATCH /todos/1']);
  });
});

describe('refetchOnReconnect', () => {
  it('by default, a stream whose load failed refetches by itself when the network comes back', async () => {
    const env = testEnvironment();
    const controller = controllerIn(env);
    answerNext(fake, 'get', '/todos/1', status(503));
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().error).toBeDefined());
    env.online$.next(false);
    env.online$.next(true);
    await settled(() => expect(stream.last().data?.title).toBe('todo 1'));
    expect(stream.last().error).toBeUndefined();
    expect(gets(1)).toBe(2);
    stream.unsubscribe();
  });

  it('turned off, it does not', async () => {
    const env = testEnvironment();
    const controller = controllerIn(env, { refetchOnReconnect: false });
    answerNext(fake, 'get', '/todos/1', status(503));
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().error).toBeDefined());
    env.online$.next(false);
    env.online$.next(true);
    await flush(10);
    expect(gets(1)).toBe(1);
    stream.unsubscribe();
  });

  it('fresh data is not refetched on reconnect', async () => {
    const env = testEnvironment();
    const controller = controllerIn(env);
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    env.online$.next(false);
    env.online$.next(true);
    await flush(10);
    expect(gets(1)).toBe(1);
    stream.unsubscribe();
  });
});

describe('polling in the background', () => {
  const Live = TodoResource.get.extend({ pollFrequency: 1_000 });

  it("starts from the data's age: data fetched 600 ms before the subscriber came is polled 400 ms later", async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    await controller.fetch(Live, { id: 1 }); // rendered on the server, or prefetched by a load
    await tick(600);
    const stream = record(controller.observe(Live, { id: 1 })); // hydration: fresh data, no request
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(399);
    expect(gets(1)).toBe(1);
    await tick(1);
    expect(gets(1)).toBe(2);
    await tick(1_000);
    expect(gets(1)).toBe(3);
    await tick(999);
    expect(gets(1)).toBe(3);
    await tick(1);
    expect(gets(1)).toBe(4);
    stream.unsubscribe();
    await tick(5_000); // no poll once its subscriber left
    expect(gets(1)).toBe(4);
  });

  it('pauses while the page is hidden and resumes with one refetch at once when a poll was missed', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const stream = record(controller.observe(Live, { id: 1 }));
    await tick(0);
    await tick(1_000);
    expect(gets(1)).toBe(2);
    env.visible$.next(false);
    await tick(5_000);
    expect(gets(1)).toBe(2);
    env.visible$.next(true);
    await tick(0);
    expect(gets(1)).toBe(3);
    await tick(1_000);
    expect(gets(1)).toBe(4);
    stream.unsubscribe();
  });

  it('pauses while offline too', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const stream = record(controller.observe(Live, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    await tick(5_000);
    expect(gets(1)).toBe(1);
    expect(stream.last().paused).toBe(false); // no request waits: polling stopped
    stream.unsubscribe();
  });

  it('goes on with pollInBackground', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env, { pollInBackground: true });
    const stream = record(controller.observe(Live, { id: 1 }));
    await tick(0);
    env.visible$.next(false);
    await tick(1_000);
    await tick(1_000);
    expect(gets(1)).toBe(3);
    stream.unsubscribe();
  });
});

describe('refetchOnFocus', () => {
  it('opt-in: stale streams refetch when the window regains focus, once for a burst of focus events', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env, { refetchOnFocus: true });
    const Short = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    const stream = record(controller.observe(Short, { id: 1 }));
    await tick(0);
    env.focus$.next(); // fresh: nothing to do
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(2_000);
    env.focus$.next();
    env.focus$.next();
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(2);
    stream.unsubscribe();
  });

  it('off by default', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const Short = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    const stream = record(controller.observe(Short, { id: 1 }));
    await tick(2_000);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(1);
    stream.unsubscribe();
  });
});

describe('error and loading', () => {
  it('when a refetch starts with no data to show, the old error is cleared', async () => {
    const env = testEnvironment();
    const controller = controllerIn(env);
    answerNext(fake, 'get', '/todos/4', status(404));
    const stream = record(controller.observe(TodoResource.get, { id: 4 }));
    await settled(() => expect(stream.last().error).toBeDefined());
    controller.invalidate(TodoResource.get, { id: 4 });
    expect(stream.last()).toMatchObject({ loading: true, error: undefined });
    await settled(() => expect(stream.last().data?.title).toBe('todo 4'));
    expect(stream.values.some((state) => state.loading && state.error !== undefined)).toBe(false);
    stream.unsubscribe();
  });
});

describe('observe takes endpoints without side effects', () => {
  it('throws a TypeError at the call (not on subscribe) naming the endpoint and pointing to controller.fetch', async () => {
    const controller = controllerIn(testEnvironment());
    const observe = controller.observe.bind(controller) as (endpoint: unknown, ...args: unknown[]) => unknown;
    expect(() => observe(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })).toThrow(TypeError);
    expect(() => observe(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })).toThrow(
      /Todo\.partialUpdate.*controller\.fetch/,
    );
    expect(() => observe(TodoResource.getList.push, {}, { title: 'x' })).toThrow(/POST/);
    await flush(5);
    expect(fake.requests).toEqual([]);
  });
});

describe('dispose and managers', () => {
  it('starts managers with the controller and stops them, polling, requests and streams on dispose', async () => {
    useFakeClock();
    const env = testEnvironment();
    const events: string[] = [];
    const controller = controllerIn(env, {
      managers: [
        (started) => {
          events.push(started instanceof Controller ? 'started' : 'wrong');
          return () => events.push('stopped');
        },
        () => undefined, // a manager without teardown
      ],
    });
    expect(events).toEqual(['started']);
    const Live = TodoResource.get.extend({ pollFrequency: 1_000 });
    let completed = 0;
    const subscription = controller.observe(Live, { id: 1 }).subscribe({ complete: () => completed++ });
    await tick(0);
    answerNext(fake, 'get', '/todos/2', async () => new Promise<Response>(() => undefined));
    const hanging = controller.fetch(TodoResource.get, { id: 2 });
    await tick(0);
    const requests = fake.requests.length;
    controller.dispose();
    expect(events).toEqual(['started', 'stopped']);
    expect(completed).toBe(1);
    expect(subscription.closed).toBe(true);
    await expect(hanging).rejects.toMatchObject({ name: 'AbortError' });
    await tick(5_000);
    expect(fake.requests).toHaveLength(requests); // no polling after dispose
    controller.dispose(); // twice is fine
    expect(events).toEqual(['started', 'stopped']);
  });

  it('later calls throw a clear error (fetch rejects); the state stays readable', async () => {
    const controller = controllerIn(testEnvironment());
    await controller.fetch(TodoResource.get, { id: 1 });
    controller.dispose();
    expect(() => controller.observe(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    expect(() => controller.setResponse(TodoResource.get, { id: 1 }, { id: 1 })).toThrow(/setResponse.*disposed/);
    expect(() => controller.invalidate(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    expect(() => controller.resetEntireStore()).toThrow(/disposed/);
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toThrow(/fetch.*disposed/);
    expect(controller.getState().entities.Todo?.['1']).toBeDefined();
  });

  it('functions beside the controller name themselves in that error, not the verb they call inside', () => {
    const controller = controllerIn(testEnvironment());
    controller.dispose();
    const after = /^(\w+)\(\) was called after controller\.dispose\(\)/;
    expect(() => observeInfinite(controller, PostResource.getList, undefined)).toThrow(after);
    expect(() => observeInfinite(controller, PostResource.getList, undefined)).toThrow(/^observeInfinite\(\)/);
    expect(() => peekQuery(controller, TodoResource.get, { id: 1 })).toThrow(/^peekQuery\(\)/);
    expect(() => watchQuery(controller, TodoResource.get, [{ id: 1 }], { poll: true })).toThrow(/^watchQuery\(\)/);
  });
});

describe('actions$', () => {
  it('emits every committed change as a typed action with its key, endpoint and args', async () => {
    const controller = controllerIn(testEnvironment());
    const actions = record(controller.actions$);
    await controller.fetch(TodoResource.get, { id: 1 });
    controller.setResponse(TodoResource.get, { id: 2 }, { id: 2, title: 'pushed' });
    controller.invalidate(TodoResource.get, { id: 2 });
    controller.expireAll(TodoResource.get);
    answerNext(fake, 'patch', '/todos/1', status(500));
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' }).catch(() => undefined);
    controller.setError(TodoResource.get, { id: 3 }, new Error('gone'));
    controller.resetEntireStore();
    expect(actions.values.map((action) => action.type)).toEqual([
      'fetch',
      'set',
      'invalidate',
      'expire',
      'optimistic',
      'rollback',
      'setError',
      'reset',
    ]);
    expect(actions.values[0]).toMatchObject({
      key: 'GET http://api.test/todos/1',
      endpoint: TodoResource.get,
      args: [{ id: 1 }],
    });
    expect(actions.values[2]).toMatchObject({ key: 'GET http://api.test/todos/2', args: [{ id: 2 }] });
    expect(actions.values[5]?.error).toMatchObject({ status: 500 });
    actions.unsubscribe();
  });
});
