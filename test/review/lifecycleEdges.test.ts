/**
 * An outside review of the app lifecycle (API.md "The app lifecycle"): polling, retries with backoff, garbage
 * collection and dispose, under fake timers, against the msw todo server.
 */
import { BehaviorSubject, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, type ControllerOptions, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import {
  API,
  TodoResource,
  answerNext,
  record,
  refused,
  status,
  tick,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';

const fake = useTodoServer();
afterEach(() => {
  vi.useRealTimers();
});

function environment() {
  return { online$: new BehaviorSubject(true), visible$: new BehaviorSubject(true), focus$: new Subject<void>() };
}
const count = (request: string) => fake.requests.filter((r) => r === request).length;
let controllers: Controller[] = [];
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});
const make = (options: ControllerOptions = {}) => {
  const c = new Controller({ environment: environment(), ...options });
  controllers.push(c);
  return c;
};

const PolledTodo = TodoResource.get.extend({ pollFrequency: 1000 });

describe('polling', () => {
  it('one timer per key for several subscribers; it stops when the last one leaves', async () => {
    useFakeClock();
    const c = make({ retry: 0 });
    const a = record(c.observe(PolledTodo, { id: 1 }));
    const b = record(c.observe(PolledTodo, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    a.unsubscribe();
    await tick(1000);
    expect(count('GET /todos/1')).toBe(4);
    b.unsubscribe();
    await tick(5000);
    expect(count('GET /todos/1')).toBe(4);
  });

  it('a poll that answers slower than the frequency does not pile up requests', async () => {
    useFakeClock();
    const c = make({ retry: 0 });
    fake.setLatency(2500);
    const s = record(c.observe(PolledTodo, { id: 1 }));
    await tick(10_000);
    // one request at a time: at most one every 2.5 s over 10 s
    expect(count('GET /todos/1')).toBeLessThanOrEqual(5);
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
  });

  it('a failed poll keeps the data and shows the error; the next poll clears it', async () => {
    useFakeClock();
    const c = make({ retry: 0 });
    const s = record(c.observe(PolledTodo, { id: 1 }));
    await tick(0);
    expect(s.last().data?.title).toBe('todo 1');
    answerNext(fake, 'get', '/todos/1', status(503));
    await tick(1000);
    expect(s.last().error?.name).toBe('NetworkError');
    expect(s.last().data?.title).toBe('todo 1');
    await tick(1000);
    expect(s.last().error).toBeUndefined();
    s.unsubscribe();
  });
});

describe('retries', () => {
  it('a GET that fails with 5xx is retried with growing waits, and succeeds; a 4xx is not retried', async () => {
    useFakeClock();
    const c = make({ retry: 3, retryDelay: (attempt) => 1000 * 2 ** attempt });
    answerNext(fake, 'get', '/todos/1', status(500), status(500));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    await tick(999);
    expect(count('GET /todos/1')).toBe(1);
    await tick(1);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1999);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1);
    expect(count('GET /todos/1')).toBe(3);
    expect(s.last().data?.title).toBe('todo 1');
    expect(s.last().error).toBeUndefined();
    s.unsubscribe();

    answerNext(fake, 'get', '/todos/2', status(404));
    const missing = c.fetch(TodoResource.get, { id: 2 }).catch((e: unknown) => e as { status: number }) as Promise<{
      status: number;
    }>;
    await tick(10_000);
    expect((await missing).status).toBe(404);
    expect(count('GET /todos/2')).toBe(1);
  });

  it('a mutation is not retried by default', async () => {
    useFakeClock();
    const c = make({ retry: 3 });
    answerNext(fake, 'patch', '/todos/1', status(503));
    const done = c
      .fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })
      .catch((e: unknown) => e as { status: number }) as Promise<{ status: number }>;
    await tick(60_000);
    expect((await done).status).toBe(503);
    expect(count('PATCH /todos/1')).toBe(1);
  });

  it('dispose while a retry waits: no more requests, the waiting fetch rejects naming the disposal', async () => {
    useFakeClock();
    const c = make({ retry: 3 });
    answerNext(fake, 'get', '/todos/1', ...Array(10).fill(status(500)));
    const done = c.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e as Error);
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    c.dispose();
    await tick(60_000);
    expect(count('GET /todos/1')).toBe(1);
    const error = await done;
    expect(error).toBeInstanceOf(Error);
  });
});

describe('garbage collection', () => {
  it('a key dropped by gc while a new subscriber came back before gcTime is kept', async () => {
    useFakeClock();
    const c = make({ retry: 0, gcTime: 5000 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    s.unsubscribe();
    await tick(4000);
    const again = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(2000);
    c.gc();
    expect(again.last().data?.title).toBe('todo 1');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
    again.unsubscribe();
    await tick(5000);
    c.gc();
    expect(c.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    expect(c.getState().entities.Todo?.['1']).toBeUndefined();
  });

  it('an entity read by a kept list survives gc of its own key', async () => {
    useFakeClock();
    const c = make({ retry: 0, gcTime: 1000 });
    const list = record(c.observe(TodoResource.getList, {}));
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    one.unsubscribe();
    await tick(2000);
    c.gc();
    expect(c.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    expect(c.getState().entities.Todo?.['1']).toBeDefined();
    expect(list.last().data?.[0]?.title).toBe('todo 1');
    list.unsubscribe();
  });
});

describe('dispose', () => {
  it('completes every stream, and later calls throw saying the controller was disposed', async () => {
    const c = make({ retry: 0 });
    let completed = 0;
    c.observe(TodoResource.get, { id: 1 }).subscribe({ complete: () => completed++ });
    c.observe(TodoResource.getList, {}).subscribe({ complete: () => completed++ });
    c.dispose();
    expect(completed).toBe(2);
    expect(() => c.observe(TodoResource.get, { id: 1 })).toThrow(/dispos/);
    expect(() => c.setResponse(TodoResource.get, { id: 1 }, { id: 1 })).toThrow(/dispos/);
    expect(() => c.invalidate(TodoResource.get, { id: 1 })).toThrow(/dispos/);
    expect(() => c.set(Todo, { id: 1 }, { id: 1 })).toThrow(/dispos/);
    expect(() => c.resetEntireStore()).toThrow(/dispos/);
    await expect(Promise.resolve().then(() => c.fetch(TodoResource.get, { id: 1 }))).rejects.toThrow(/dispos/);
  });

  it('an observe of a mutation endpoint is a TypeError from the call', () => {
    const c = make();
    const post = new RestEndpoint({ urlPrefix: API, path: '/todos', method: 'POST', schema: Todo });
    expect(() => c.observe(post as never)).toThrow(TypeError);
  });
});

describe('network', () => {
  it('a request that fails to connect is retried and then shows a NetworkError of status 0, keeping no loading state', async () => {
    useFakeClock();
    const c = make({ retry: 1, retryDelay: () => 100 });
    answerNext(fake, 'get', '/todos/1', refused, refused);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    await tick(100);
    const last = s.last() as QueryState<Todo>;
    expect(last.error).toMatchObject({ name: 'NetworkError', status: 0 });
    expect(last.loading).toBe(false);
    expect(last.fetching).toBe(false);
    s.unsubscribe();
  });
});
