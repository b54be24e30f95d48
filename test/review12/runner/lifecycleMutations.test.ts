/**
 * Outside review: the lifecycle around mutations and retries. A poll or a focus refetch while an optimistic delete
 * is in flight does not bring the entity back; leaving during a retry wait stops the retries; a reset during an
 * optimistic update drops its layer and its late answer writes nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  TodoResource,
  answerNext,
  flush,
  record,
  settled,
  status,
  tick,
  until,
  useFakeClock,
  useTodoServer,
} from '../../reliability/faultHarness.js';
import { counter, outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make, withEnvironment } = useControllers();
const count = counter(fake);

describe('an optimistic delete in flight', () => {
  it('a list poll answered during it, then the delete succeeds: the row stays out', async () => {
    useFakeClock();
    const PolledList = TodoResource.getList.extend({ pollFrequency: 1000 });
    const c = make();
    const list = record(c.observe(PolledList));
    await until(() => expect(list.last().data).toHaveLength(4));
    const deletes = gate(fake, 'delete', '/todos/:id');
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => expect(deletes).toHaveLength(1));
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 4]);
    const from = list.values.length;
    await tick(1000); // the poll reads the list before the server deleted the row
    expect(count('GET /todos')).toBe(2);
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 4]);
    fake.todos.delete(2);
    deletes[0]!.json({});
    await until(() => expect(deleting.done).toBe(true));
    await tick(0);
    expect(list.values.slice(from).map((v) => v.data?.map((t) => t.id))).not.toContainEqual([1, 2, 3, 4]);
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 4]);
    list.unsubscribe();
  });

  it("a poll of the deleted entity's own key waits for it, as focus does: no GET while it runs", async () => {
    useFakeClock();
    const PolledGet = TodoResource.get.extend({ pollFrequency: 1000 });
    const c = make();
    const one = record(c.observe(PolledGet, { id: 2 }));
    await until(() => expect(one.last().data?.id).toBe(2));
    expect(count('GET /todos/2')).toBe(1);
    const deletes = gate(fake, 'delete', '/todos/:id');
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => expect(deletes).toHaveLength(1));
    await tick(3500); // three polls while the delete runs
    expect(count('GET /todos/2')).toBe(1);
    expect(one.last()).toMatchObject({ data: undefined, loading: true });
    deletes[0]!.json({ message: 'no' }, 403);
    await until(() => expect(deleting.done).toBe(true));
    expect(one.last().data?.id).toBe(2);
    await tick(1000); // polling goes on once it is over
    expect(count('GET /todos/2')).toBe(2);
    one.unsubscribe();
  });

  it('focus while it runs does not refetch the deleted entity; it stays loading until the answer', async () => {
    const { c, env } = withEnvironment({ refetchOnFocus: true });
    const one = record(c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const deletes = gate(fake, 'delete', '/todos/:id');
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await settled(() => expect(deletes).toHaveLength(1));
    env.focus$.next();
    env.online$.next(false);
    env.online$.next(true);
    await flush();
    expect(count('GET /todos/2')).toBe(1);
    expect(one.last()).toMatchObject({ data: undefined, loading: true });
    deletes[0]!.json({ message: 'no' }, 403);
    await settled(() => expect(deleting.done).toBe(true));
    expect(one.last().data?.id).toBe(2);
    expect(one.last().loading).toBe(false);
    one.unsubscribe();
  });
});

describe('retries and the observers that leave', () => {
  it('the last observer leaving during a retry wait ends the retries', async () => {
    useFakeClock();
    const c = make({ retry: 3, retryDelay: 1000 });
    answerNext(fake, 'get', '/todos/:id', status(503));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    s.unsubscribe();
    await tick(10_000);
    expect(count('GET /todos/1')).toBe(1);
    // coming back starts afresh, and shows the answer
    const again = record(c.observe(TodoResource.get, { id: 1 }));
    await until(() => expect(again.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(2);
    again.unsubscribe();
  });

  it('a retry waiting while offline is paused, and runs when the network returns', async () => {
    useFakeClock();
    const { c, env } = withEnvironment({ retry: 1, retryDelay: 1000 });
    answerNext(fake, 'get', '/todos/:id', status(503));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    env.online$.next(false);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(1);
    expect(s.last()).toMatchObject({ loading: true, paused: true });
    env.online$.next(true);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(2);
    expect(s.last()).toMatchObject({ paused: false, error: undefined });
    s.unsubscribe();
  });
});

describe('resetEntireStore during an optimistic update', () => {
  it('drops its layer; its late answer writes nothing, and the observer refetches', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const patches = gate(fake, 'patch', '/todos/:id');
    const saving = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'optimistic' }));
    expect(one.last().data?.title).toBe('optimistic');
    await settled(() => expect(patches).toHaveLength(1));
    c.resetEntireStore();
    expect(c.getState().optimistic).toEqual([]);
    await settled(() => expect(one.last().data?.title).toBe('todo 1'));
    patches[0]!.json(row(1, 'late answer'));
    await settled(() => expect(saving.done).toBe(true));
    await flush();
    expect(one.last().data?.title).toBe('todo 1');
    expect(c.getState().optimistic).toEqual([]);
    one.unsubscribe();
  });
});
