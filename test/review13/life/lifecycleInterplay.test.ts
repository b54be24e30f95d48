/** Reset, abort and dispose while requests wait (retry waits, offline), and focus with reconnect at once. */
import { describe, expect, it, vi } from 'vitest';
import {
  TodoResource,
  answerNext,
  controllerIn,
  flush,
  gated,
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

describe('lifecycle interplay: reset, abort, dispose', () => {
  it('reset during a retry wait: the caller gets the last error, no more requests, no timers', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { retry: 3 });
    answerNext(fake, 'get', '/todos/1', status(503));
    const p = controller.fetch(TodoResource.get, { id: 1 }).catch((e) => e);
    await tick(0);
    expect(gets(1)).toBe(1);
    controller.resetEntireStore();
    const e = (await p) as { status?: number; name: string };
    expect(e.status).toBe(503);
    expect(vi.getTimerCount()).toBe(0);
    await tick(10_000);
    expect(gets(1)).toBe(1);
    controller.dispose();
  });

  it('reset while a fetch waits offline: nothing from before the reset is written', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    env.online$.next(false);
    const p = controller.fetch(TodoResource.get, { id: 1 }).then(
      (v) => ['ok', v],
      (e) => ['err', e],
    );
    await tick(0);
    controller.resetEntireStore();
    env.online$.next(true);
    await tick(0);
    const [outcome, error] = await p;
    expect(outcome).toBe('err');
    expect((error as Error).name).toBe('AbortError');
    expect(gets(1)).toBe(0);
    expect(controller.getState().endpoints).toEqual({});
    controller.dispose();
  });

  it('endpoint signal aborted during a retry wait rejects at once with AbortError; no timers', async () => {
    useFakeClock();
    const controller = controllerIn(testEnvironment(), { retry: 3 });
    const abort = new AbortController();
    answerNext(fake, 'get', '/todos/1', status(503));
    const p = controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 }).catch((e) => e);
    await tick(0);
    expect(gets(1)).toBe(1);
    abort.abort();
    await tick(0);
    const e = (await p) as Error;
    expect(e.name).toBe('AbortError');
    expect(vi.getTimerCount()).toBe(0);
    await tick(10_000);
    expect(gets(1)).toBe(1);
    controller.dispose();
  });

  it('dispose with an optimistic mutation in flight: rejects, rolls back, nothing written', async () => {
    const controller = controllerIn(testEnvironment());
    await controller.fetch(TodoResource.get, { id: 1 });
    const held = gated({ id: 1, userId: 1, title: 'server', completed: false });
    answerNext(fake, 'patch', '/todos/1', held.answer);
    const p = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'mine' }).catch((e) => e);
    await flush(3);
    expect(controller.get(TodoResource.get.schema as never, { id: 1 } as never)).toBeDefined();
    controller.dispose();
    const e = (await p) as Error;
    expect(e.message).toMatch(/dispos/);
    held.release();
    await flush(10);
    const state = controller.getState();
    expect((state.entities.Todo?.['1'] as { title: string }).title).toBe('todo 1');
    expect(state.optimistic).toEqual([]);
  });

  it('stale streams refetch on reconnect only once even with focus in the same moment', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env, { refetchOnFocus: true });
    const get = TodoResource.get.extend({ dataExpiryLength: 100 });
    const s = record(controller.observe(get, { id: 1 }));
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    await tick(2_000);
    env.online$.next(false);
    env.online$.next(true);
    env.focus$.next();
    await tick(0);
    expect(gets(1)).toBe(2);
    s.unsubscribe();
    controller.dispose();
  });

  it('invalidate an unobserved key: no request; the next observe fetches', async () => {
    const controller = controllerIn(testEnvironment());
    await controller.fetch(TodoResource.get, { id: 1 });
    controller.invalidate(TodoResource.get, { id: 1 });
    await flush(5);
    expect(gets(1)).toBe(1);
    const s = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(s.last()).toMatchObject({ loading: true, data: undefined });
    await flush(10);
    expect(gets(1)).toBe(2);
    s.unsubscribe();
    controller.dispose();
  });

  it('polling hidden, then visible: one request at once then regular', async () => {
    useFakeClock();
    const env = testEnvironment();
    const controller = controllerIn(env);
    const live = TodoResource.get.extend({ pollFrequency: 1_000 });
    const s = record(controller.observe(live, { id: 1 }));
    await tick(0);
    env.visible$.next(false);
    await tick(400);
    env.visible$.next(true);
    await tick(0);
    expect(gets(1)).toBe(1); // no poll missed yet
    await tick(600);
    expect(gets(1)).toBe(2);
    s.unsubscribe();
    controller.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
