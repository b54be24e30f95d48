/**
 * Outside review (API.md "The controller and the store", "The app lifecycle"): what live streams do after a
 * replacing restore, a reset under polling, a dispose with a guess pending, a second subscriber while offline,
 * a collection under a queryable stream, and a write after an error.
 */
import { describe, expect, it, vi } from 'vitest';
import { restoreSnapshot } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import {
  TodoResource,
  flush,
  record,
  settled,
  tick,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';
import { counter, row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { withEnvironment: make } = useControllers();
const count = counter(fake);
const Polled = TodoResource.get.extend({ pollFrequency: 1000 });

describe('a replacing restore under a live stream', () => {
  it('a key the restored state lacks: the observer loads it again instead of keeping what is gone', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    restoreSnapshot(c, { entities: {}, endpoints: {}, meta: {} }, { replace: true });
    await flush();
    expect(c.getState().entities.Todo?.['1']).toBeDefined(); // refetched
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    expect(s.last().data?.title).toBe('todo 1');
    expect(s.values.some((v) => v.data === undefined && v.loading)).toBe(true);
    s.unsubscribe();
  });
});

describe('a reset under polling', () => {
  it('the poll goes on at its pace with one timer, and ends with the last subscriber', async () => {
    useFakeClock();
    const { c } = make({ gcTime: Infinity });
    const s = record(c.observe(Polled, { id: 1 }));
    await tick(0);
    const timers = vi.getTimerCount();
    c.resetEntireStore();
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last().data?.title).toBe('todo 1');
    expect(vi.getTimerCount()).toBe(timers);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(4);
    s.unsubscribe();
    await tick(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('dispose with an optimistic mutation pending', () => {
  it('the mutation rejects naming the disposal and its guess leaves the readable state', async () => {
    const { c } = make();
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'base'));
    const held = gate(fake, 'patch', '/todos/:id');
    const m = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'guess' });
    m.catch(() => undefined);
    await settled(() => expect(held).toHaveLength(1));
    c.dispose();
    await expect(m).rejects.toThrow(/dispos/);
    expect(c.getState().optimistic).toHaveLength(0);
    expect((c.getState().entities.Todo?.['1'] as { title?: string }).title).toBe('base');
  });
});

describe('a second subscriber while offline', () => {
  it('its first emission already says paused and loading, and one request runs when the network returns', async () => {
    const { c, env } = make();
    env.online$.next(false);
    const a = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    const b = record(c.observe(TodoResource.get, { id: 1 }));
    expect(b.values[0]).toMatchObject({ paused: true, loading: true, fetching: true });
    env.online$.next(true);
    await settled(() => expect(b.last().data?.title).toBe('todo 1'));
    expect(a.last()).toMatchObject({ paused: false, loading: false });
    expect(count('GET /todos/1')).toBe(1);
    a.unsubscribe();
    b.unsubscribe();
  });
});

describe('collection under a queryable stream', () => {
  it('a record read by observe(Entity) is never collected', async () => {
    const { c } = make({ gcTime: 10 });
    await c.fetch(TodoResource.get, { id: 1 });
    const s = record(c.observe(Todo, { id: 1 } as never));
    expect((s.last().data as Todo | undefined)?.title).toBe('todo 1');
    await new Promise((resolve) => setTimeout(resolve, 30)); // the key of the fetch is due
    c.gc();
    await flush();
    expect(c.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeUndefined();
    c.gc();
    expect(c.getState().entities.Todo?.['1']).toBeDefined();
    expect((s.last().data as Todo | undefined)?.title).toBe('todo 1');
    s.unsubscribe();
  });
});

describe('a write after an error', () => {
  it('setResponse after a 404: the error goes, the data shows', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 40 }));
    await settled(() => expect(s.last().error).toBeDefined());
    c.setResponse(TodoResource.get, { id: 40 }, row(40, 'now here'));
    expect(s.last().data?.title).toBe('now here');
    expect(s.last()).toMatchObject({ error: undefined, loading: false });
    s.unsubscribe();
  });

  it('a 404 refetch over cached data surfaces the error (no status-less stale data shown as fine)', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    fake.todos.delete(1);
    c.expireAll(TodoResource.get);
    await settled(() => expect(s.last().error).toBeDefined());
    expect((s.last().error as { status?: number }).status).toBe(404);
    expect(s.last()).toMatchObject({ fetching: false, loading: false });
    s.unsubscribe();
  });
});
