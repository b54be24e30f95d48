/**
 * `QueryState.stale` is "the data shown is past its expiry" (API.md): a subscriber that keeps watching a
 * key sees it turn true when `dataExpiryLength` passes, as TanStack Query's `isStale` does, without a
 * request (staleness alone refetches on the usual triggers: a new subscriber, focus, reconnect).
 */
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { TodoResource, record, tick, until, useFakeClock, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();

function environment() {
  return { online$: new BehaviorSubject(true), visible$: new BehaviorSubject(true), focus$: new Subject<void>() };
}

const gets = (id: number) => fake.requests.filter((request) => request === `GET /todos/${id}`).length;

describe('stale while watched', () => {
  it('turns true when the data passes its expiry, once, with the same data and no request', async () => {
    useFakeClock();
    const controller = new Controller({ retry: 0, environment: environment() });
    const get = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    const stream = record(controller.observe(get, { id: 1 }));
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    const data = stream.last().data;
    const emitted = stream.values.length;
    await tick(999);
    expect(stream.last().stale).toBe(false);
    await tick(1);
    expect(stream.last()).toEqual({
      data,
      error: undefined,
      loading: false,
      fetching: false,
      stale: true,
      paused: false,
    });
    expect(stream.values.length).toBe(emitted + 1);
    await tick(5_000);
    expect(stream.values.length).toBe(emitted + 1);
    expect(gets(1)).toBe(1);
    stream.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    controller.dispose();
  });

  it('a refresh makes it fresh again and times the next expiry from the new data', async () => {
    useFakeClock();
    const env = environment();
    const controller = new Controller({ retry: 0, environment: env, refetchOnFocus: true });
    const get = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    const stream = record(controller.observe(get, { id: 1 }));
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    await tick(1_000);
    expect(stream.last().stale).toBe(true);
    env.focus$.next();
    await until(() => expect(stream.last()).toMatchObject({ fetching: false, stale: false }));
    expect(gets(1)).toBe(2);
    await tick(999);
    expect(stream.last().stale).toBe(false);
    await tick(1);
    expect(stream.last().stale).toBe(true);
    stream.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('no timer for data that never expires, nor once the last subscriber left, nor after dispose', async () => {
    useFakeClock();
    const controller = new Controller({ retry: 0, environment: environment() });
    const forever = TodoResource.get.extend({ dataExpiryLength: Infinity });
    const a = record(controller.observe(forever, { id: 1 }));
    await until(() => expect(a.last().data?.title).toBe('todo 1'));
    expect(vi.getTimerCount()).toBe(0);
    const b = record(controller.observe(TodoResource.get, { id: 2 }));
    await until(() => expect(b.last().data?.title).toBe('todo 2'));
    expect(vi.getTimerCount()).toBe(1);
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
    a.unsubscribe();
    b.unsubscribe();
  });
});

describe('stale after a long lifetime', () => {
  it('data that lives 30 days (longer than one timer holds) stays fresh until then', async () => {
    useFakeClock();
    const controller = new Controller({ retry: 0, environment: environment() });
    const day = 86_400_000;
    const get = TodoResource.get.extend({ dataExpiryLength: 30 * day });
    const stream = record(controller.observe(get, { id: 1 }));
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    await tick(25 * day);
    expect(stream.last().stale).toBe(false);
    await tick(5 * day - 1);
    expect(stream.last().stale).toBe(false);
    await tick(1);
    expect(stream.last().stale).toBe(true);
    stream.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
