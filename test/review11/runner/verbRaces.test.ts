/**
 * Outside review (API.md, written from it alone): the verbs while a request is in flight. Identical GETs share
 * one request whoever starts them; a write made after a request started is newer than its answer; a failed
 * optimistic mutation rolls back only its own change.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);

describe('sharing one request', () => {
  it('a fetch and fetchIfStale while an observer’s request is in flight join it', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    const fetched = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const ifStale = outcome(c.fetchIfStale(TodoResource.get, { id: 1 }));
    await flush();
    expect(held).toHaveLength(1);
    held[0]!.json(row(1, 'one answer'));
    await settled(() => expect(fetched.done && ifStale.done).toBe(true));
    expect([fetched.value?.title, ifStale.value?.title, s.last().data?.title]).toEqual([
      'one answer',
      'one answer',
      'one answer',
    ]);
    s.unsubscribe();
  });

  it('the last observer leaving does not abort a request a fetch awaits', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    const fetched = outcome(c.fetch(TodoResource.get, { id: 1 }));
    s.unsubscribe();
    await flush();
    expect(held[0]!.aborted).toBe(false);
    held[0]!.json(row(1, 'kept'));
    await settled(() => expect(fetched.done).toBe(true));
    expect(fetched.value?.title).toBe('kept');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('kept');
  });
});

describe('a write made while a GET is in flight is newer than its answer', () => {
  it('setResponse: the older answer does not overwrite it', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const fetched = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'pushed'));
    held[0]!.json(row(1, 'older answer'));
    await settled(() => expect(fetched.done).toBe(true));
    expect(fetched.error).toBeUndefined();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('pushed');
  });

  it('invalidate: the observer ends with an answer to a request made after the invalidation', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data).toBeDefined());
    const held = gate(fake, 'get', '/todos/:id');
    c.expireAll(TodoResource.get);
    await settled(() => expect(held).toHaveLength(1));
    c.invalidate(TodoResource.get, { id: 1 });
    held[0]!.json(row(1, 'read before the invalidation'));
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(1, 'read after'));
    await settled(() => expect(s.last().data?.title).toBe('read after'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    s.unsubscribe();
  });

  it('a list refetch started before a PATCH and answered after it keeps the patched entity', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(4));
    const held = gate(fake, 'get', '/todos');
    c.expireAll(TodoResource.getList);
    await settled(() => expect(held).toHaveLength(1));
    await c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'patched' });
    expect(list.last().data?.[1]?.title).toBe('patched');
    held[0]!.json([row(1, 'todo 1'), row(2, 'todo 2'), row(3, 'todo 3')]);
    await settled(() => expect(list.last().fetching).toBe(false));
    // the list's membership is the answer's; todo 2's fields are the PATCH's, which is newer
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(list.last().data?.[1]?.title).toBe('patched');
    list.unsubscribe();
  });
});

describe('two optimistic updates of one entity', () => {
  it('the first fails, the second succeeds: the second’s value shows throughout and stays', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const held = gate(fake, 'patch', '/todos/:id');
    const first = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'first', completed: true }));
    const second = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'second' }));
    expect(one.last().data).toMatchObject({ title: 'second', completed: true });
    await settled(() => expect(held).toHaveLength(2));
    const from = one.values.length;
    held[0]!.json({ message: 'conflict' }, 409);
    await settled(() => expect(first.done).toBe(true));
    // the first's change is gone, the second's still shows
    expect(one.last().data).toMatchObject({ title: 'second', completed: false });
    expect(one.values.slice(from).every((v) => v.data?.title === 'second')).toBe(true);
    held[1]!.json(row(1, 'second'));
    await settled(() => expect(second.done).toBe(true));
    expect(one.last().data).toMatchObject({ title: 'second', completed: false });
    expect(c.getState().optimistic).toEqual([]);
    one.unsubscribe();
  });
});

describe('resetEntireStore', () => {
  it('afterwards requests write again, and observers show their new answers', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data).toBeDefined());
    c.resetEntireStore();
    fake.todos.get(1)!.title = 'after reset';
    await settled(() => expect(s.last().data?.title).toBe('after reset'));
    expect((await c.fetch(TodoResource.get, { id: 2 })).title).toBe('todo 2');
    expect(c.getResponse(TodoResource.get, { id: 2 }).data?.title).toBe('todo 2');
    expect(count('GET /todos/1')).toBe(2);
    s.unsubscribe();
  });
});
