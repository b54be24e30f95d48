/** QueryState at each step (loading vs fetching, stale, paused, error, placeholder), error expiry, polling periods. */
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Controller, keepPrevious } from '../../../core/index.js';
import {
  TodoResource,
  answerNext,
  controllerIn,
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
import { map } from 'rxjs';

const fake = useTodoServer();
const gets = (id: number) => todoGets(fake, id);

describe('lifecycle states, step by step', () => {
  it('states step by step: first load, invalidate, expire, error', async () => {
    const controller = controllerIn(testEnvironment());
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]).toEqual({
      data: undefined,
      error: undefined,
      loading: true,
      fetching: true,
      stale: false,
      paused: false,
    });
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false, paused: false, error: undefined });
    controller.invalidate(TodoResource.get, { id: 1 });
    expect(s.last()).toMatchObject({ data: undefined, loading: true, fetching: true });
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    answerNext(fake, 'get', '/todos/1', status(503));
    controller.expireAll(TodoResource.get);
    expect(s.last()).toMatchObject({ loading: false, fetching: true, stale: true });
    await settled(() => expect(s.last().error).toBeDefined());
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
    controller.dispose();
  });

  it('errorExpiryLength: subscribed stream does not refetch until it passes; a new subscriber does', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    const get = TodoResource.get.extend({ errorExpiryLength: 5_000 });
    answerNext(fake, 'get', '/todos/1', status(404));
    const s = record(controller.observe(get, { id: 1 }));
    await until(() => expect(s.last().error).toBeDefined());
    expect(gets(1)).toBe(1);
    controller.set(TodoResource.get.schema as never, { id: 1, title: 'x' } as never);
    await tick(0);
    expect(gets(1)).toBe(1);
    const t = record(controller.observe(get, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1); // not mounting: the stream already has a subscriber
    t.unsubscribe();
    s.unsubscribe();
    const u = record(controller.observe(get, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(2);
    u.unsubscribe();
    controller.dispose();
  });

  it('fetchIfStale: fresh data resolves the same object without a request; a fresh error asks again', async () => {
    const controller = controllerIn(testEnvironment());
    const a = await controller.fetch(TodoResource.get, { id: 1 });
    const b = await controller.fetchIfStale(TodoResource.get, { id: 1 });
    expect(b).toBe(a);
    answerNext(fake, 'get', '/todos/2', status(404));
    await expect(controller.fetch(TodoResource.get, { id: 2 })).rejects.toMatchObject({ status: 404 });
    const r = await controller.fetchIfStale(TodoResource.get, { id: 2 }).then(
      (v) => ['ok', v],
      (e) => ['err', e],
    );
    // record what happens
    console.log('Q3 fetchIfStale after fresh error:', r[0], gets(2));
    controller.dispose();
  });

  it('focus refetches a stale watched key, and nothing once its last subscriber left', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env, { refetchOnFocus: true });
    const get = TodoResource.get.extend({ dataExpiryLength: 0 });
    const s = record(controller.observe(get, { id: 1 }));
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    const n = gets(1);
    await tick(2_000);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(n + 1);
    s.unsubscribe();
    await tick(2_000);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(n + 1);
    controller.dispose();
  });

  it('polling with several frequencies, one timer, slows when fastest leaves', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment());
    const fast = TodoResource.get.extend({ pollFrequency: 500 });
    const slow = TodoResource.get.extend({ pollFrequency: 2_000 });
    const a = record(controller.observe(slow, { id: 1 }));
    const b = record(controller.observe(fast, { id: 1 }));
    await tick(0);
    expect(gets(1)).toBe(1);
    await tick(500);
    expect(gets(1)).toBe(2);
    expect(vi.getTimerCount()).toBeLessThanOrEqual(2);
    b.unsubscribe();
    await tick(1_000);
    expect(gets(1)).toBe(2);
    await tick(1_000);
    expect(gets(1)).toBe(3);
    a.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('placeholder via keepPrevious', async () => {
    const controller = controllerIn(testEnvironment());
    const args$ = new BehaviorSubject<{ id: number }>({ id: 1 });
    const { switchMap } = await import('rxjs');
    const states: unknown[] = [];
    const keep = keepPrevious(true);
    const sub = args$
      .pipe(
        switchMap((args) => controller.observe(TodoResource.get, args)),
        map((s) => keep(s)),
      )
      .subscribe((v) => states.push(v));
    await settled(() => expect((states.at(-1) as { data?: { title: string } }).data?.title).toBe('todo 1'));
    args$.next({ id: 2 });
    const mid = states.at(-1) as Record<string, unknown>;
    expect(mid).toMatchObject({ loading: false, placeholder: true, fetching: true });
    await settled(() => expect((states.at(-1) as { data?: { title: string } }).data?.title).toBe('todo 2'));
    expect((states.at(-1) as Record<string, unknown>).placeholder).toBeFalsy();
    sub.unsubscribe();
    controller.dispose();
  });

  it('reconnect: a stream paused offline with a pending fetch sends once, not twice', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    env.online$.next(false);
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    const p = controller.fetch(TodoResource.get, { id: 1 });
    await tick(0);
    expect(s.last()).toMatchObject({ paused: true, loading: true, fetching: true });
    env.online$.next(true);
    await tick(0);
    expect((await p).title).toBe('todo 1');
    expect(gets(1)).toBe(1);
    s.unsubscribe();
    controller.dispose();
  });

  it('refused retries then succeed: error never shown', async () => {
    useFakeClock();
    const controller = new Controller({ environment: testEnvironment(), retry: 3 });
    answerNext(fake, 'get', '/todos/1', refused, refused);
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(1_000);
    await tick(2_000);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.values.every((v) => v.error === undefined)).toBe(true);
    expect(gets(1)).toBe(3);
    s.unsubscribe();
    controller.dispose();
  });

  it('gc: fetch without observer kept gcTime from write; then dropped', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { gcTime: 1_000 });
    await controller.fetch(TodoResource.get, { id: 3 });
    await tick(500);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 3 })]).toBeDefined();
    await tick(600);
    controller.gc();
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 3 })]).toBeUndefined();
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
    controller.dispose();
  });

  it('dispose completes streams and later observe throws', async () => {
    const controller = controllerIn(testEnvironment());
    let completed = false;
    controller.observe(TodoResource.get, { id: 1 }).subscribe({ complete: () => (completed = true) });
    controller.dispose();
    expect(completed).toBe(true);
    expect(() => controller.observe(TodoResource.get, { id: 1 })).toThrow(/dispos/);
    await expect(controller.fetchIfStale(TodoResource.get, { id: 1 })).rejects.toThrow(/dispos/);
  });
});
