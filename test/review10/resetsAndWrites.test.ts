/**
 * Outside review (API.md "resetEntireStore: in-flight requests settle without writing"; "While offline,
 * requests that would start wait instead"; "responses to older requests never overwrite newer data";
 * "Data that a live stream reads is never collected"; "the same object (===) while nothing it contains
 * changed").
 */
import { describe, expect, it } from 'vitest';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { counter, row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { withEnvironment: make } = useControllers();
const count = counter(fake);

describe('offline and resets', () => {
  it('a request waiting for the network is not sent while still offline when the store is reset', async () => {
    const { c, env } = make();
    env.online$.next(false);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    expect(s.last()).toMatchObject({ paused: true, loading: true });
    c.resetEntireStore();
    await flush();
    expect(fake.requests).toHaveLength(0);
    expect(s.last()).toMatchObject({ paused: true, loading: true });
    env.online$.next(true);
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(1);
    expect(s.last()).toMatchObject({ paused: false, loading: false, fetching: false });
    s.unsubscribe();
  });

  it('a fetch waiting for the network when the store is reset settles without a request while offline', async () => {
    const { c, env } = make();
    env.online$.next(false);
    let done = false;
    const fetched = c.fetch(TodoResource.get, { id: 2 }).finally(() => (done = true));
    fetched.catch(() => undefined);
    await flush();
    c.resetEntireStore();
    await flush();
    expect(fake.requests).toHaveLength(0);
    env.online$.next(true);
    await settled(() => expect(done).toBe(true));
    expect(c.getState().entities.Todo?.['2']).toBeUndefined();
  });

  it('dispose while a fetch waits for the network: it rejects naming the disposal, no request is made', async () => {
    const { c, env } = make();
    env.online$.next(false);
    const fetched = c.fetch(TodoResource.get, { id: 2 });
    await flush();
    c.dispose();
    await expect(fetched).rejects.toThrow(/dispos/);
    env.online$.next(true);
    await flush();
    expect(fake.requests).toHaveLength(0);
  });

  it('a reset while a retry waits: the old attempt loop sends nothing more, the observer loads again once', async () => {
    const { c } = make({ retry: 3, retryDelay: () => 50 });
    fake.fail('GET', 500, 1);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(count('GET /todos/1')).toBe(1));
    await flush();
    c.resetEntireStore();
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    await new Promise((r) => setTimeout(r, 120));
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ loading: false, fetching: false, error: undefined });
    s.unsubscribe();
  });
});

describe('a delete and an older read of the same record', () => {
  it('a GET started before a delete and answered after it does not bring the record back', async () => {
    const { c } = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const list = record(c.observe(TodoResource.getList, undefined));
    await settled(() => expect(list.last().data).toHaveLength(4));
    const held = gate(fake, 'get', '/todos/:id');
    const old = c.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e);
    c.invalidate(TodoResource.get, { id: 1 }); // make the get refetch-worthy; the request is already out
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    await c.fetch(TodoResource.delete, { id: 1 });
    await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([2, 3, 4]));
    for (const h of held) h.json(row(1, 'from before the delete'));
    await old;
    await flush();
    expect(list.last().data?.map((t) => t.id)).toEqual([2, 3, 4]);
    const one = c.get(Todo, { id: 1 } as never) as Todo | undefined;
    expect(one).toBeUndefined();
    list.unsubscribe();
  });
});

describe('garbage collection and optimistic layers', () => {
  it('a record that only a pending optimistic update reaches survives a collection, and the answer is kept', async () => {
    const { c } = make({ gcTime: 0 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    s.unsubscribe();
    const held = gate(fake, 'patch', '/todos/:id');
    const m = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'guess' });
    await settled(() => expect(held).toHaveLength(1));
    c.gc();
    const seen = record(c.observe(Todo, { id: 1 } as never));
    expect((seen.last().data as Todo | undefined)?.title).toBe('guess');
    held[0]!.json({ ...row(1, 'todo 1'), title: 'answer' });
    expect((await m).title).toBe('answer');
    expect((seen.last().data as Todo | undefined)?.title).toBe('answer');
    seen.unsubscribe();
  });

  it('a failing optimistic update after a collection: the record comes back as it was, not lost', async () => {
    const { c } = make({ gcTime: 0 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const held = gate(fake, 'patch', '/todos/:id');
    const m = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'guess' }).catch((e: unknown) => e);
    await settled(() => expect(held).toHaveLength(1));
    c.gc();
    held[0]!.json({ message: 'no' }, 500);
    expect(await m).toBeInstanceOf(Error);
    expect(s.last().data?.title).toBe('todo 1');
    expect(s.last()).toMatchObject({ loading: false });
    s.unsubscribe();
  });
});

describe('equal writes', () => {
  it('an optimistic update that changes nothing, then its equal answer: no new emission, the same object', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const data = s.last().data;
    const n = s.values.length;
    await c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'todo 1' });
    await flush();
    expect(s.values.length).toBe(n);
    expect(s.last().data).toBe(data);
    s.unsubscribe();
  });

  it('a refetch answering the same values: no new emission besides fetching, the same object', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const data = s.last().data;
    c.expireAll(TodoResource.get);
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, stale: false }));
    expect(s.last().data).toBe(data);
    for (const v of s.values.slice(1)) if (v.data) expect(v.data).toBe(data);
    s.unsubscribe();
  });
});
