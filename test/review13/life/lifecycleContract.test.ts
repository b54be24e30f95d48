/**
 * An outside review of the query lifecycle, from API.md and docs/lifecycle.md: focus and reconnect refetch,
 * polling, retries, offline waits, deduplication, aborts, dispose, reset and garbage collection. HTTP through msw,
 * time through fake timers.
 */
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import {
  TodoResource,
  answerNext,
  controllerIn,
  flush,
  gated,
  hang,
  record,
  refused,
  settled,
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

describe('lifecycle contract (API.md, docs/lifecycle.md)', () => {
  it('stale flips to true while subscribed once dataExpiryLength passes', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const get = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    const stream = record(controller.observe(get, { id: 1 }));
    await tick(0);
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    expect(stream.last().stale).toBe(false);
    await tick(1_500);
    expect(controller.getResponse(get, { id: 1 }).stale).toBe(true);
    expect(stream.last().stale).toBe(true);
    stream.unsubscribe();
    controller.dispose();
  });

  it('focus: not while in flight, not unobserved keys', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env, { refetchOnFocus: true });
    const get = TodoResource.get.extend({ dataExpiryLength: 100 });
    await controller.fetch(get, { id: 2 });
    const stream = record(controller.observe(get, { id: 1 }));
    await tick(0);
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    await tick(2_000);
    const held = gated({ id: 1, userId: 1, title: 'one', completed: false });
    answerNext(fake, 'get', '/todos/1', held.answer);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(2);
    await tick(1_500);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(2);
    expect(gets(2)).toBe(1);
    held.release();
    stream.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reconnect: once per event, not unobserved, not in flight', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const get = TodoResource.get.extend({ dataExpiryLength: 100 });
    await controller.fetch(get, { id: 2 });
    const stream = record(controller.observe(get, { id: 1 }));
    await tick(0);
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    await tick(1_000);
    env.online$.next(false);
    env.online$.next(true);
    await tick(0);
    expect(gets(1)).toBe(2);
    expect(gets(2)).toBe(1);
    env.online$.next(true);
    await tick(0);
    expect(gets(1)).toBe(2);
    stream.unsubscribe();
    controller.dispose();
  });

  it('polling: several subscribers one timer, stops with the last one', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const live = TodoResource.get.extend({ pollFrequency: 1_000 });
    const a = record(controller.observe(live, { id: 1 }));
    const b = record(controller.observe(live, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(1_000);
    expect(gets(1)).toBe(2);
    await tick(1_000);
    expect(gets(1)).toBe(3);
    a.unsubscribe();
    await tick(1_000);
    expect(gets(1)).toBe(4);
    b.unsubscribe();
    await tick(3_000);
    expect(gets(1)).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    controller.dispose();
  });

  it('retries: count and backoff, 4xx not retried', async () => {
    useFakeClock();
    const controller = new Controller({ environment: testEnvironment(), retry: 3 });
    answerNext(fake, 'get', '/todos/1', status(503), status(503), status(503), status(503));
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(999);
    expect(gets(1)).toBe(1);
    await tick(1);
    expect(gets(1)).toBe(2);
    await tick(2_000);
    expect(gets(1)).toBe(3);
    expect(stream.last()).toMatchObject({ loading: true, fetching: true, error: undefined });
    await tick(4_000);
    expect(gets(1)).toBe(4);
    expect(stream.last()).toMatchObject({ loading: false, fetching: false });
    expect(stream.last().error?.name).toBe('NetworkError');
    stream.unsubscribe();
    answerNext(fake, 'get', '/todos/2', status(404));
    await expect(controller.fetch(TodoResource.get, { id: 2 })).rejects.toMatchObject({ status: 404 });
    expect(gets(2)).toBe(1);
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('abort during a retry wait: last observer leaves, no more requests, no timers', async () => {
    useFakeClock();
    const controller = new Controller({ environment: testEnvironment(), retry: 3 });
    answerNext(fake, 'get', '/todos/1', status(503), status(503));
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    stream.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    await tick(10_000);
    expect(gets(1)).toBe(1);
    controller.dispose();
  });

  it('retry: 0, false, function', async () => {
    useFakeClock();
    const delays: Array<[number, number | undefined]> = [];
    const controller = new Controller({
      environment: testEnvironment(),
      retry: 2,
      retryDelay: (attempt, error) => {
        delays.push([attempt, (error as { status?: number }).status]);
        return 10;
      },
    });
    answerNext(fake, 'get', '/todos/1', status(500), status(502), status(503));
    const p = controller.fetch(TodoResource.get, { id: 1 });
    const caught = p.catch((e) => e);
    await tick(100);
    expect(((await caught) as { status: number }).status).toBe(503);
    expect(delays).toEqual([
      [0, 500],
      [1, 502],
    ]);
    answerNext(fake, 'get', '/todos/2', status(500));
    await expect(controller.fetch(TodoResource.get.extend({ retry: 0 }), { id: 2 })).rejects.toMatchObject({
      status: 500,
    });
    answerNext(fake, 'get', '/todos/3', status(500));
    await expect(controller.fetch(TodoResource.get.extend({ retry: false }), { id: 3 })).rejects.toMatchObject({
      status: 500,
    });
    expect(gets(2) + gets(3)).toBe(2);
    controller.dispose();
  });

  it('offline: fetch with aborted signal while waiting rejects, no request later', async () => {
    const env = testEnvironment();
    env.online$.next(false);
    const controller = controllerIn(env);
    const abort = new AbortController();
    const p = controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 });
    const caught = p.catch((e) => e);
    await flush(5);
    abort.abort();
    const error = (await caught) as Error;
    expect(error.name).toBe('AbortError');
    env.online$.next(true);
    await flush(10);
    expect(gets(1)).toBe(0);
    controller.dispose();
  });

  it('dispose mid-flight: promise rejects with a named error, nothing written, no timers', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    const held = gated({ id: 1, userId: 1, title: 'late', completed: false });
    answerNext(fake, 'get', '/todos/1', held.answer);
    const p = controller.fetch(TodoResource.get, { id: 1 });
    const caught = p.catch((e) => e);
    const live = TodoResource.get.extend({ pollFrequency: 1_000 });
    const s = record(controller.observe(live, { id: 2 }));
    await tick(0);
    controller.dispose();
    const error = (await caught) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toMatch(/Error/);
    expect(vi.getTimerCount()).toBe(0);
    held.release();
    await tick(0);
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    expect(error.message).toMatch(/dispos/);
    s.unsubscribe();
  });

  it('dispose during a retry wait and offline wait: fetch settles, no timers', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = new Controller({ environment: env, retry: 3 });
    answerNext(fake, 'get', '/todos/1', status(503));
    const p = controller.fetch(TodoResource.get, { id: 1 }).catch((e) => e);
    await tick(0);
    expect(gets(1)).toBe(1);
    env.online$.next(false);
    const q = controller.fetch(TodoResource.get, { id: 2 }).catch((e) => e);
    await tick(0);
    controller.dispose();
    await tick(0);
    const [e1, e2] = (await Promise.all([p, q])) as [Error, Error];
    expect(e1.message).toMatch(/dispos/);
    expect(e2.message).toMatch(/dispos/);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reset: in-flight writes nothing afterwards', async () => {
    const controller = controllerIn(testEnvironment());
    const held = gated({ id: 1, userId: 1, title: 'old', completed: false });
    answerNext(fake, 'get', '/todos/1', held.answer);
    const p = controller.fetch(TodoResource.get, { id: 1 }).catch((e) => e);
    await flush(5);
    controller.resetEntireStore();
    held.release();
    await p;
    await flush(5);
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    controller.dispose();
  });

  it('gc: kept while observed, dropped after gcTime, entity reached by another result stays, refetch on observe', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { gcTime: 1_000 });
    const list = record(controller.observe(TodoResource.getList, {}));
    const one = record(controller.observe(TodoResource.get, { id: 1 }));
    const two = record(controller.observe(TodoResource.get, { id: 2 }));
    await tick(0);
    await until(() => expect(one.last().data?.title).toBe('todo 1'));
    await tick(5_000);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeDefined();
    one.unsubscribe();
    list.unsubscribe();
    await tick(1_500);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    expect(controller.getState().entities.Todo?.['2']).toBeDefined();
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    const before = gets(1);
    const again = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(again.last()).toMatchObject({ loading: true, data: undefined });
    await tick(0);
    expect(gets(1)).toBe(before + 1);
    again.unsubscribe();
    two.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('invalidate vs expire, fetchIfStale', async () => {
    const controller = controllerIn(testEnvironment());
    const get = TodoResource.get;
    const s = record(controller.observe(get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const data = s.last().data;
    answerNext(fake, 'get', '/todos/1', hang());
    controller.expireAll(get);
    await flush(5);
    expect(s.last()).toMatchObject({ data, loading: false, fetching: true, stale: true });
    s.unsubscribe();
    const c2 = controllerIn(testEnvironment());
    await c2.fetch(get, { id: 2 });
    const n = gets(2);
    await c2.fetchIfStale(get, { id: 2 });
    expect(gets(2)).toBe(n);
    c2.invalidate(get, { id: 2 });
    await c2.fetchIfStale(get, { id: 2 });
    expect(gets(2)).toBe(n + 1);
    c2.expireAll(get);
    await c2.fetchIfStale(get, { id: 2 });
    expect(gets(2)).toBe(n + 2);
    controller.dispose();
    c2.dispose();
  });

  it('polling pauses offline and resumes with one refetch', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const live = TodoResource.get.extend({ pollFrequency: 1_000 });
    const a = record(controller.observe(live, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    env.online$.next(false);
    await tick(5_000);
    expect(gets(1)).toBe(1);
    expect(a.last().paused).toBe(false);
    env.online$.next(true);
    await tick(0);
    expect(gets(1)).toBe(2);
    await tick(1_000);
    expect(gets(1)).toBe(3);
    a.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('dedupe: two observers and a fetch share one request; last observer leaving keeps the fetch', async () => {
    const controller = controllerIn(testEnvironment());
    const held = gated({ id: 1, userId: 1, title: 'one', completed: false });
    answerNext(fake, 'get', '/todos/1', held.answer);
    const a = record(controller.observe(TodoResource.get, { id: 1 }));
    const b = record(controller.observe(TodoResource.get, { id: 1 }));
    const p = controller.fetch(TodoResource.get, { id: 1 });
    await flush(5);
    a.unsubscribe();
    b.unsubscribe();
    held.release();
    expect((await p).title).toBe('one');
    expect(gets(1)).toBe(1);
    controller.dispose();
  });

  it('reconnect refetches an errored stream even within errorExpiryLength', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    answerNext(fake, 'get', '/todos/1', refused);
    const s = record(controller.observe(TodoResource.get.extend({ errorExpiryLength: 60_000 }), { id: 1 }));
    await tick(0);
    await until(() => expect(s.last().error).toBeDefined());
    env.online$.next(false);
    env.online$.next(true);
    await tick(0);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last().error).toBeUndefined();
    s.unsubscribe();
    controller.dispose();
  });

  it('retry waits while offline: paused, then resumes', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = new Controller({ environment: env, retry: 3, retryDelay: 1_000 });
    answerNext(fake, 'get', '/todos/1', refused);
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    env.online$.next(false);
    await tick(2_000);
    expect(gets(1)).toBe(1);
    expect(s.last()).toMatchObject({ paused: true, loading: true });
    env.online$.next(true);
    await tick(0);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(gets(1)).toBe(2);
    s.unsubscribe();
    controller.dispose();
  });
});
