/**
 * Outside review (API.md "Optimistic mutations ... on failure the optimistic change is rolled back"): exact
 * rollback of only the failed guess when it overlaps other guesses, server answers, direct writes, resets and
 * restores; lists grown by push/unshift.
 */
import { describe, expect, it } from 'vitest';
import { Controller, takeSnapshot, restoreSnapshot } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const stored = (c: Controller, id: number) =>
  c.getState().entities.Todo?.[String(id)] as Record<string, unknown> | undefined;
const seen = (c: Controller, id: number) => {
  const t = c.getResponse(TodoResource.get, { id }).data;
  return t && { title: t.title, completed: t.completed };
};

describe('two guesses on one record, on different fields', () => {
  it('the first fails after the second succeeded: the second answer stays, nothing of the first guess', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'base'));
    const held = gate(fake, 'patch', '/todos/:id');
    const first = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'A' }).catch((e: unknown) => e);
    const second = c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
    expect(seen(c, 1)).toEqual({ title: 'A', completed: true });
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(1, 'base', true));
    await second;
    // the second answer is a whole record from a request that started after the first guess: it is newer
    // than that guess (responses to older requests never overwrite newer data), so it shows over it
    expect(seen(c, 1)).toEqual({ title: 'base', completed: true });
    held[0]!.json({ message: 'no' }, 422);
    await first;
    expect(seen(c, 1)).toEqual({ title: 'base', completed: true });
    expect(c.getState().optimistic).toHaveLength(0);
  });

  it('the second fails first, then the first succeeds: the first answer shows', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'base'));
    const held = gate(fake, 'patch', '/todos/:id');
    const first = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'A' });
    const second = c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }).catch((e: unknown) => e);
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json({ message: 'no' }, 500);
    await second;
    expect(seen(c, 1)).toEqual({ title: 'A', completed: false });
    held[0]!.json(row(1, 'A'));
    await first;
    expect(seen(c, 1)).toEqual({ title: 'A', completed: false });
  });
});

/**
 * Todo 1 reads 'base' and a guess of its title is pending: `m` is what the mutation ends with (its error if it
 * fails), `fail()` answers its held request with a 500.
 */
async function guessPending(c: Controller) {
  c.setResponse(TodoResource.get, { id: 1 }, row(1, 'base'));
  const held = gate(fake, 'patch', '/todos/:id');
  const m = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'guess' }).catch((e: unknown) => e);
  await settled(() => expect(held).toHaveLength(1));
  return { m, fail: () => held[0]!.json({ message: 'no' }, 500) };
}

describe('writes from elsewhere while a guess is pending', () => {
  it('setResponse of the record during the mutation, then the mutation fails: the written value stays', async () => {
    const c = make();
    const { m, fail } = await guessPending(c);
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'pushed', true));
    fail();
    await m;
    expect(seen(c, 1)).toEqual({ title: 'pushed', completed: true });
    expect(stored(c, 1)).toMatchObject({ title: 'pushed', completed: true });
  });

  it('controller.set of the record during the mutation, then the mutation fails: the set value stays', async () => {
    const c = make();
    const { m, fail } = await guessPending(c);
    c.set(Todo, { id: 1, completed: true });
    fail();
    await m;
    expect(seen(c, 1)).toEqual({ title: 'base', completed: true });
  });

  it('a snapshot restored during the mutation, then the mutation fails: the restored value stays', async () => {
    const other = make();
    const c = make();
    const { m, fail } = await guessPending(c);
    await new Promise((r) => setTimeout(r, 2));
    other.setResponse(TodoResource.get, { id: 1 }, row(1, 'restored', true));
    restoreSnapshot(c, JSON.parse(JSON.stringify(takeSnapshot(other))));
    // the restored record was written after the guess was made: it is the newer data
    expect(seen(c, 1)).toEqual({ title: 'restored', completed: true });
    fail();
    await m;
    expect(seen(c, 1)).toEqual({ title: 'restored', completed: true });
  });

  it('after resetEntireStore, a failing mutation does not bring the record from before the reset back', async () => {
    const c = make();
    const { m, fail } = await guessPending(c);
    c.resetEntireStore();
    expect(stored(c, 1)).toBeUndefined();
    fail();
    expect(await m).toBeInstanceOf(Error);
    expect(stored(c, 1)).toBeUndefined();
    expect(c.getState().optimistic).toHaveLength(0);
    expect(c.getResponse(TodoResource.get, { id: 1 }).data).toBeUndefined();
  });
});

describe('guesses on lists', () => {
  it('an optimistic unshift that fails leaves the list as it was, each row the same object', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList, { userId: 1 }));
    await settled(() => expect(list.last().data).toHaveLength(2));
    const before = list.last().data!;
    const held = gate(fake, 'post', '/todos');
    const m = c
      .fetch(TodoResource.getList.unshift, { userId: 1 }, { id: 99, userId: 1, title: 'new' })
      .catch((e: unknown) => e);
    await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([99, 1, 3]));
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json({ message: 'no' }, 500);
    expect(await m).toBeInstanceOf(Error);
    await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([1, 3]));
    expect(list.last().data![0]).toBe(before[0]);
    expect(list.last().data![1]).toBe(before[1]);
    expect(c.getState().entities.Todo?.['99']).toBeUndefined();
    list.unsubscribe();
  });

  it('two pushes, the first fails after the second succeeded: the list holds the second only', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList, { userId: 1 }));
    await settled(() => expect(list.last().data).toHaveLength(2));
    const held = gate(fake, 'post', '/todos');
    const a = c
      .fetch(TodoResource.getList.push, { userId: 1 }, { id: 50, userId: 1, title: 'a' })
      .catch((e: unknown) => e);
    const b = c.fetch(TodoResource.getList.push, { userId: 1 }, { id: 51, userId: 1, title: 'b' });
    await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 50, 51]));
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(51, 'b'), 201);
    await b;
    held[0]!.json({ message: 'no' }, 500);
    expect(await a).toBeInstanceOf(Error);
    await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 51]));
    expect(c.getState().entities.Todo?.['50']).toBeUndefined();
    list.unsubscribe();
  });

  it('an optimistic delete that fails brings the row back at its place in every list', async () => {
    const c = make();
    const mine = record(c.observe(TodoResource.getList, { userId: 1 }));
    const all = record(c.observe(TodoResource.getList, undefined));
    await settled(() => expect(all.last().data).toHaveLength(4));
    await settled(() => expect(mine.last().data).toHaveLength(2));
    const held = gate(fake, 'delete', '/todos/:id');
    const m = c.fetch(TodoResource.delete, { id: 1 }).catch((e: unknown) => e);
    await settled(() => expect(all.last().data?.map((t) => t.id)).toEqual([2, 3, 4]));
    expect(mine.last().data?.map((t) => t.id)).toEqual([3]);
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json({ message: 'no' }, 500);
    expect(await m).toBeInstanceOf(Error);
    await settled(() => expect(all.last().data?.map((t) => t.id)).toEqual([1, 2, 3, 4]));
    expect(mine.last().data?.map((t) => t.id)).toEqual([1, 3]);
    await flush();
    expect(fake.requests.filter((r) => r.startsWith('GET'))).toHaveLength(2);
    mine.unsubscribe();
    all.unsubscribe();
  });

  it('an observer sees guess then rollback, one emission each', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 2 }, row(2, 'base'));
    const s = record(c.observe(TodoResource.get, { id: 2 }));
    await flush();
    const n = s.values.length;
    const held = gate(fake, 'put', '/todos/:id');
    const m = c.fetch(TodoResource.update, { id: 2 }, row(2, 'guess')).catch((e: unknown) => e);
    expect(s.values.length).toBe(n + 1);
    expect(s.last().data?.title).toBe('guess');
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json({ message: 'no' }, 500);
    await m;
    await flush();
    expect(s.values.length).toBe(n + 2);
    expect(s.last().data?.title).toBe('base');
    s.unsubscribe();
  });
});
