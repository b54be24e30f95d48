/** Polling against a slow server and during retry waits, gc due times, offline with data. */
import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse, delay } from 'msw';
import {
  TodoResource,
  answerNext,
  controllerIn,
  record,
  status,
  testEnvironment,
  tick,
  todoGets,
  until,
  useFakeClock,
  useTodoServer,
} from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const gets = (id: number) => todoGets(fake, id);

describe('polling and gc over time', () => {
  it('a slow answer longer than the poll period: one request at a time', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    const live = TodoResource.get.extend({ pollFrequency: 500 });
    let inflight = 0;
    let most = 0;
    fake.server.use(
      http.get('http://api.test/todos/1', async () => {
        fake.requests.push('GET /todos/1');
        inflight++;
        most = Math.max(most, inflight);
        await delay(1_200);
        inflight--;
        return HttpResponse.json({ id: 1, userId: 1, title: 'slow', completed: false });
      }),
    );
    const s = record(controller.observe(live, { id: 1 }));
    for (let i = 0; i < 20; i++) await tick(250);
    expect(most).toBe(1);
    expect(gets(1)).toBeGreaterThanOrEqual(3);
    s.unsubscribe();
    controller.dispose();
  });

  it('poll during a retry wait does not add requests', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { retry: 3, retryDelay: 1_000 });
    const live = TodoResource.get.extend({ pollFrequency: 300 });
    answerNext(fake, 'get', '/todos/1', status(503), status(503), status(503), status(503));
    const s = record(controller.observe(live, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(900);
    expect(gets(1)).toBe(1);
    await tick(100);
    expect(gets(1)).toBe(2);
    s.unsubscribe();
    controller.dispose();
  });

  it('gc due time restarts when a key is observed again', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { gcTime: 1_000 });
    const a = record(controller.observe(TodoResource.get, { id: 1 }));
    await until(() => expect(a.last().data).toBeDefined());
    a.unsubscribe();
    await tick(500);
    const b = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(100);
    b.unsubscribe();
    await tick(600);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeDefined();
    await tick(500);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    controller.dispose();
  });

  it('offline with data: paused, fetching, not loading, data kept', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    await controller.fetch(TodoResource.get, { id: 1 });
    env.online$.next(false);
    controller.expireAll(TodoResource.get);
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(s.last()).toMatchObject({ loading: false, fetching: true, paused: true, stale: true });
    expect(s.last().data?.title).toBe('todo 1');
    env.online$.next(true);
    await until(() => expect(s.last()).toMatchObject({ fetching: false, paused: false, stale: false }));
    s.unsubscribe();
    controller.dispose();
  });

  it('polling continues after an error', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    const live = TodoResource.get.extend({ pollFrequency: 1_000 });
    answerNext(fake, 'get', '/todos/1', status(500));
    const s = record(controller.observe(live, { id: 1 }));
    await until(() => expect(s.last().error).toBeDefined());
    await tick(1_000);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last().error).toBeUndefined();
    s.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
