/**
 * Outside review (API.md "The app lifecycle"): retries with backoff meeting offline/online, focus and
 * polling, subscribers coming and going, and the timers left once nobody listens (counted under fake timers).
 */
import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import {
  API,
  TodoResource,
  answerNext,
  status,
  record,
  tick,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';
import { counter, useControllers } from './fixtures.js';

const fake = useTodoServer();
const count = counter(fake);
const { withEnvironment: make } = useControllers({ gcTime: Infinity, retry: 3, retryDelay: (n) => 1000 * 2 ** n });
const Polled = TodoResource.get.extend({ pollFrequency: 1000 });

describe('retry waits and the network', () => {
  it('a retry due while offline waits (paused) and starts once when the network returns', async () => {
    useFakeClock();
    const { c, env } = make();
    fake.fail('GET', 500, 1);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    await tick(500);
    env.online$.next(false);
    await tick(2000);
    expect(count('GET /todos/1')).toBe(1);
    expect(s.last()).toMatchObject({ paused: true, loading: true });
    env.online$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ paused: false, loading: false, fetching: false });
    expect(s.last().data?.title).toBe('todo 1');
    await tick(10_000);
    expect(count('GET /todos/1')).toBe(2);
    s.unsubscribe();
  });

  it('the network returning during a retry wait starts one request, not two', async () => {
    useFakeClock();
    const { c, env } = make();
    fake.fail('GET', 500, 1);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    env.online$.next(true);
    await tick(5000);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
  });

  it('a focus during a retry wait does not add a request', async () => {
    useFakeClock();
    const { c, env } = make({ refetchOnFocus: true });
    fake.fail('GET', 500, 2);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.focus$.next();
    await tick(500);
    env.focus$.next();
    await tick(10_000);
    expect(count('GET /todos/1')).toBe(3);
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
  });

  it('the last observer leaving during a retry wait: no more requests and no timer left', async () => {
    useFakeClock();
    const { c } = make();
    // answered at once (the todo server's injected failures wait on a timer of their own)
    answerNext(fake, 'get', '/todos/:id', status(500), status(500), status(500));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    s.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
    await tick(30_000);
    expect(count('GET /todos/1')).toBe(2);
  });

  it('the last observer leaving while its request waits for the network: none starts when it returns', async () => {
    useFakeClock();
    const { c, env } = make();
    env.online$.next(false);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(s.last()).toMatchObject({ paused: true });
    s.unsubscribe();
    env.online$.next(true);
    await tick(1000);
    expect(fake.requests).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('offline, stale data with focus and reconnect: one refetch when the network returns', async () => {
    useFakeClock();
    const { c, env } = make({ refetchOnFocus: true });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    c.expireAll(TodoResource.get);
    env.focus$.next();
    await tick(100);
    expect(count('GET /todos/1')).toBe(1);
    expect(s.last().data?.title).toBe('todo 1');
    env.online$.next(true);
    env.focus$.next();
    await tick(100);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ stale: false, fetching: false, paused: false });
    s.unsubscribe();
  });
});

describe('polling with subscribers coming and going', () => {
  it('leave and come back within the period: one timer, polls keep their pace, none left at the end', async () => {
    useFakeClock();
    const { c } = make({ retry: 0 });
    const a = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    a.unsubscribe();
    const b = record(c.observe(Polled, { id: 1 }));
    const d = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    b.unsubscribe();
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    d.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
    await tick(5000);
    expect(count('GET /todos/1')).toBe(3);
  });

  it('a failing poll with retries does not pile up requests, and the retry timers end with the last subscriber', async () => {
    useFakeClock();
    const { c } = make({ retry: 2, retryDelay: () => 300 });
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    fake.server.use(
      http.get(`${API}/todos/:id`, ({ request }) => {
        fake.requests.push(`GET ${new URL(request.url).pathname}`);
        return HttpResponse.json({ message: 'down' }, { status: 500 });
      }),
    );
    await tick(10_000);
    // at most one request in each 300 ms window
    expect(count('GET /todos/1')).toBeLessThanOrEqual(1 + Math.ceil(10_000 / 300));
    expect(s.last().data?.title).toBe('todo 1');
    expect(s.last().error).toBeDefined();
    s.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
    const n = fake.requests.length;
    await tick(10_000);
    expect(fake.requests.length).toBe(n);
  });

  it('polling paused offline; back online it polls again, one timer', async () => {
    useFakeClock();
    const { c, env } = make({ retry: 0 });
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    await tick(3000);
    expect(count('GET /todos/1')).toBe(1);
    env.online$.next(true);
    await tick(0);
    const back = count('GET /todos/1');
    expect(back).toBeLessThanOrEqual(2);
    await tick(3000);
    expect(count('GET /todos/1')).toBe(back + 3);
    s.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('dispose while polling, retrying and waiting offline leaves no timer', async () => {
    useFakeClock();
    const { c, env } = make({ gcTime: 5000 });
    record(c.observe(Polled, { id: 1 }));
    fake.fail('GET', 500, 1);
    record(c.observe(TodoResource.get, { id: 2 }));
    await tick(0);
    env.online$.next(false);
    record(c.observe(TodoResource.get, { id: 3 }));
    await tick(0);
    c.dispose();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('polling and the page being hidden', () => {
  it('the last subscriber leaving while hidden leaves no timer; a new one while hidden polls once visible', async () => {
    useFakeClock();
    const { c, env } = make({ retry: 0 });
    const a = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    env.visible$.next(false);
    await tick(2500);
    expect(count('GET /todos/1')).toBe(1);
    a.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
    const b = record(c.observe(Polled, { id: 1 }));
    await tick(3000);
    expect(count('GET /todos/1')).toBe(1);
    env.visible$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    b.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('hidden and offline at once: one refetch when both are back, not two', async () => {
    useFakeClock();
    const { c, env } = make({ retry: 0 });
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    env.visible$.next(false);
    env.online$.next(false);
    await tick(5000);
    env.online$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    env.visible$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    await tick(999);
    expect(count('GET /todos/1')).toBe(2);
    s.unsubscribe();
  });
});

describe('polling from the data’s age', () => {
  it('a subscriber that comes when fresh data is already older than the period polls at once, then every period', async () => {
    useFakeClock();
    const { c } = make({ retry: 0 });
    await c.fetch(TodoResource.get, { id: 1 });
    await tick(2500); // fresh for 60 s, but two periods old
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    await tick(999);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1);
    expect(count('GET /todos/1')).toBe(3);
    s.unsubscribe();
  });

  it('a subscriber that comes when the data is stale fetches once, not twice (load and poll)', async () => {
    useFakeClock();
    const { c } = make({ retry: 0 });
    await c.fetch(TodoResource.get, { id: 1 });
    await tick(61_000);
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    s.unsubscribe();
  });
});

describe('marks while offline', () => {
  it('invalidate while offline: paused and loading, one request when the network returns', async () => {
    useFakeClock();
    const { c, env } = make({ retry: 0 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    c.invalidate(TodoResource.get, { id: 1 });
    await tick(0);
    expect(s.last()).toMatchObject({ paused: true, loading: true, data: undefined });
    env.online$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ paused: false, loading: false, fetching: false });
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
  });

  it('expireAll while offline: the data stays, paused, one request when the network returns', async () => {
    useFakeClock();
    const { c, env } = make({ retry: 0 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    c.expireAll(TodoResource.get);
    await tick(0);
    expect(s.last()).toMatchObject({ loading: false, stale: true });
    expect(s.last().data?.title).toBe('todo 1');
    env.online$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ paused: false, stale: false, fetching: false });
    s.unsubscribe();
  });
});
