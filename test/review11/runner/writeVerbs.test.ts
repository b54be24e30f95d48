/**
 * Outside review of the Controller verbs table (API.md, written from it alone): the resource's mutations
 * through `fetch`, optimistic updates and their rollback, `set`/`get`, and `resetEntireStore`.
 */
import { describe, expect, it } from 'vitest';
import { Todo } from '../../fixtures/entities.js';
import {
  TodoResource,
  answerNext,
  flush,
  record,
  settled,
  status,
  useTodoServer,
} from '../../reliability/faultHarness.js';
import { counter, outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);
const titles = (todos: readonly Todo[] | undefined) => todos?.map((t) => t.title);

describe('mutations through fetch', () => {
  it('getList.push resolves the created entity (not a list) and appends it to the cached lists whose arguments match', async () => {
    const c = make();
    const all = record(c.observe(TodoResource.getList));
    const mine = record(c.observe(TodoResource.getList, { userId: 1 }));
    const theirs = record(c.observe(TodoResource.getList, { userId: 2 }));
    await settled(() => expect(theirs.last().data && mine.last().data && all.last().data).toBeDefined());
    const created = await c.fetch(TodoResource.getList.push, { userId: 1 }, { userId: 1, title: 'new one' });
    expect(created).toBeInstanceOf(Todo);
    expect(created).toMatchObject({ id: 5, title: 'new one' });
    expect(titles(mine.last().data)?.at(-1)).toBe('new one');
    expect(titles(theirs.last().data)).not.toContain('new one');
    expect(c.get(Todo, '5')?.title).toBe('new one');
    expect(count('GET /todos?userId=1')).toBe(1); // no refetch: the list grew from the response
    for (const s of [all, mine, theirs]) s.unsubscribe();
  });

  it('getList.unshift adds the created entity at the start', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList, { userId: 1 }));
    await settled(() => expect(list.last().data).toBeDefined());
    await c.fetch(TodoResource.getList.unshift, { userId: 1 }, { userId: 1, title: 'first' });
    expect(titles(list.last().data)?.[0]).toBe('first');
    list.unsubscribe();
  });

  it('update and partialUpdate change the entity in every observer; siblings keep their objects', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    const one = record(c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    const before = list.last().data!;
    await c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'patched' });
    const after = list.last().data!;
    expect(after[1]!.title).toBe('patched');
    expect(one.last().data?.title).toBe('patched');
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    await c.fetch(TodoResource.update, { id: 2 }, { id: 2, userId: 2, title: 'replaced', completed: true });
    expect(one.last().data).toMatchObject({ title: 'replaced', completed: true });
    list.unsubscribe();
    one.unsubscribe();
  });

  it('delete drops the entity from lists without refetching them; an observer of it refetches', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    const one = record(c.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    await c.fetch(TodoResource.delete, { id: 3 });
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 4]);
    await settled(() => expect(one.last().error).toMatchObject({ status: 404 }));
    expect(one.last().data).toBeUndefined();
    expect(count('GET /todos')).toBe(1);
    expect(count('GET /todos/3')).toBe(2);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('mutations are never shared: two identical PATCHes in flight are two requests', async () => {
    const c = make();
    await Promise.all([
      c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'a' }),
      c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'a' }),
    ]);
    expect(count('PATCH /todos/1')).toBe(2);
  });
});

describe('optimistic updates and rollback', () => {
  it('every affected observer shows the expected result at once; the answer replaces it', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    const held = gate(fake, 'patch', '/todos/:id');
    const done = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'expected' }));
    expect(one.last().data?.title).toBe('expected');
    expect(list.last().data?.[0]?.title).toBe('expected');
    expect(c.getState().optimistic).toHaveLength(1);
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'from server'));
    await settled(() => expect(done.done).toBe(true));
    expect(one.last().data?.title).toBe('from server');
    expect(c.getState().optimistic).toEqual([]);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('a failure rolls back exactly its own layer and reports the error; a later layer stays', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    const two = record(c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(one.last().data && two.last().data).toBeDefined());
    const held = gate(fake, 'patch', '/todos/:id');
    const first = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'first' }));
    const second = outcome(c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'second' }));
    await settled(() => expect(held).toHaveLength(2));
    held[0]!.json({ message: 'no' }, 500);
    await settled(() => expect(first.done).toBe(true));
    expect(first.error).toMatchObject({ status: 500 });
    expect(one.last().data?.title).toBe('todo 1');
    expect(two.last().data?.title).toBe('second');
    held[1]!.json(row(2, 'second'));
    await settled(() => expect(second.done).toBe(true));
    expect(two.last().data?.title).toBe('second');
    expect(c.getState().optimistic).toEqual([]);
    one.unsubscribe();
    two.unsubscribe();
  });

  it('a failed optimistic delete puts the entity back in its list at its place', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(4));
    const shown = list.last().data!;
    answerNext(fake, 'delete', '/todos/:id', status(503));
    const deleting = c.fetch(TodoResource.delete, { id: 2 });
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 4]);
    await expect(deleting).rejects.toMatchObject({ status: 503 });
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    expect(list.last().data?.[1]).toBe(shown[1]);
    list.unsubscribe();
  });

  it('responses to older requests never overwrite newer data: two PATCHes answered out of order', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const held = gate(fake, 'patch', '/todos/:id');
    const older = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'older' }));
    const newer = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'newer' }));
    expect(one.last().data?.title).toBe('newer');
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(1, 'newer'));
    await settled(() => expect(newer.done).toBe(true));
    held[0]!.json(row(1, 'older'));
    await settled(() => expect(older.done).toBe(true));
    expect(one.last().data?.title).toBe('newer');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('newer');
    one.unsubscribe();
  });

  it('a GET that started before a mutation does not undo it when it answers after', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const held = gate(fake, 'get', '/todos/:id');
    const reading = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    // the gate holds GETs only: the PATCH is answered at once
    await c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'written' });
    held[0]!.json(row(1, 'read before the write'));
    await settled(() => expect(reading.done).toBe(true));
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('written');
  });
});

describe('set and get', () => {
  it('set writes an entity without a request; partial values merge; every observer reading it re-emits', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    const one = record(c.observe(TodoResource.get, { id: 4 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    const requests = fake.requests.length;
    c.set(Todo, { id: 4, title: 'set locally' });
    expect(one.last().data).toMatchObject({ id: 4, title: 'set locally', userId: 2, completed: false });
    expect(list.last().data?.[3]?.title).toBe('set locally');
    expect(c.get(Todo, '4')).toMatchObject({ title: 'set locally', userId: 2 });
    await flush();
    expect(fake.requests.length).toBe(requests);
    list.unsubscribe();
    one.unsubscribe();
  });
});

describe('resetEntireStore', () => {
  it('empties the store; a request in flight settles without writing', async () => {
    const c = make();
    await c.fetch(TodoResource.getList);
    const held = gate(fake, 'get', '/todos/:id');
    const reading = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    c.resetEntireStore();
    const state = c.getState();
    expect(state.endpoints).toEqual({});
    expect(state.optimistic).toEqual([]);
    expect(Object.values(state.entities).every((table) => Object.keys(table ?? {}).length === 0)).toBe(true);
    held[0]!.json(row(1, 'after reset'));
    await settled(() => expect(reading.done).toBe(true));
    expect(c.getState().endpoints).toEqual({});
    expect(c.get(Todo, '1')).toBeUndefined();
  });

  it('pushes an emission to every observer and each refetches; a pending mutation’s layer is gone', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const patches = gate(fake, 'patch', '/todos/:id');
    const patch = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'pending' }));
    expect(one.last().data?.title).toBe('pending');
    await settled(() => expect(patches).toHaveLength(1));
    const emitted = one.values.length;
    c.resetEntireStore();
    expect(one.values.length).toBeGreaterThan(emitted);
    expect(c.getState().optimistic).toEqual([]);
    await settled(() => expect(one.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(2);
    patches[0]!.json(row(1, 'pending'));
    await settled(() => expect(patch.done).toBe(true));
    expect(one.last().data?.title).toBe('todo 1'); // written before the reset: not stored
    one.unsubscribe();
  });
});
