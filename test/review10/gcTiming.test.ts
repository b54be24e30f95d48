/**
 * Outside review (API.md "Garbage collection": `gcTime` after a key's last subscriber left; "A key written
 * while nobody observes it ... is kept at least gcTime from that write"; refetchOnReconnect for errored streams).
 */
import { describe, expect, it } from 'vitest';
import type { Controller } from '../../core/index.js';
import { TodoResource, record, tick, useFakeClock, useTodoServer } from '../reliability/faultHarness.js';
import { counter, useControllers } from './fixtures.js';

const fake = useTodoServer();
const { withEnvironment: make } = useControllers();
const key = TodoResource.get.key({ id: 1 });
/** Runs a collection; what the store then holds for todo 1's key. */
const afterCollection = (c: Controller) => {
  c.gc();
  return c.getState().endpoints[key];
};
const count = counter(fake);

describe('gcTime and later writes', () => {
  it('a fetch after the last subscriber left restarts the wait: the key is kept gcTime from that write', async () => {
    useFakeClock();
    const { c } = make({ gcTime: 1000 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    s.unsubscribe();
    await tick(900);
    await c.fetch(TodoResource.get, { id: 1 });
    await tick(200); // the first wait is over; the write is 200 ms old
    expect(afterCollection(c)).toBeDefined();
    await tick(1000);
    expect(afterCollection(c)).toBeUndefined();
    expect(c.getState().entities.Todo?.['1']).toBeUndefined();
  });

  it('a subscriber coming back before gcTime keeps the key; leaving again starts a new wait', async () => {
    useFakeClock();
    const { c } = make({ gcTime: 1000 });
    const a = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    a.unsubscribe();
    await tick(800);
    const b = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(500);
    b.unsubscribe();
    await tick(800);
    expect(afterCollection(c)).toBeDefined();
    await tick(300);
    expect(afterCollection(c)).toBeUndefined();
    expect(count('GET /todos/1')).toBe(1);
  });

  it('setResponse while nobody observes: kept gcTime, then collected', async () => {
    useFakeClock();
    const { c } = make({ gcTime: 1000 });
    c.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'set' });
    await tick(900);
    expect(afterCollection(c)).toBeDefined();
    await tick(200);
    expect(afterCollection(c)).toBeUndefined();
  });
});

describe('refetchOnReconnect of an errored stream', () => {
  it('a stream whose refresh failed with 500 refetches once when the network returns', async () => {
    useFakeClock();
    const { c, env } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    fake.fail('GET', 500);
    c.expireAll(TodoResource.get);
    await tick(10);
    expect(s.last().error).toBeDefined();
    expect(s.last().data?.title).toBe('todo 1');
    env.online$.next(false);
    await tick(10);
    env.online$.next(true);
    await tick(10);
    expect(count('GET /todos/1')).toBe(3);
    expect(s.last().error).toBeUndefined();
    expect(s.last()).toMatchObject({ fetching: false, stale: false });
    s.unsubscribe();
  });
});
