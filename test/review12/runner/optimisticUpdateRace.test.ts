/**
 * An optimistic update and a GET of the same entity that started before it (API.md: "responses to older requests
 * never overwrite newer data"). The GET's answer is older than the update for the fields the update wrote: it does
 * not bring the old title back, whether it arrives after the update's answer or while the update is in flight.
 * Its other data (other entities, the list's membership) still lands.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();

describe('a GET of the entity started before an optimistic update', () => {
  for (const verb of ['update', 'partialUpdate'] as const) {
    const change = (c: ReturnType<typeof make>) =>
      verb === 'update'
        ? c.fetch(TodoResource.update, { id: 1 }, { id: 1, userId: 1, title: 'saved', completed: true })
        : c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'saved', completed: true });

    it(`${verb}: answered after the update's answer, it does not bring the old title back`, async () => {
      const c = make();
      const one = record(c.observe(TodoResource.get, { id: 1 }));
      const list = record(c.observe(TodoResource.getList));
      await settled(() => expect(one.last().data && list.last().data).toBeDefined());
      const gets = gate(fake, 'get', '/todos/:id');
      const lists = gate(fake, 'get', '/todos');
      c.expireAll(TodoResource.get);
      c.expireAll(TodoResource.getList);
      await settled(() => expect(gets.length + lists.length).toBe(2));
      const saved = await change(c);
      expect(saved.title).toBe('saved');
      expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
      // the server read todo 1 before the update reached it
      gets[0]!.json(row(1, 'todo 1'));
      lists[0]!.json([row(1, 'todo 1'), row(2, 'two renamed'), row(3, 'todo 3')]);
      await settled(() => expect(one.last().fetching || list.last().fetching).toBe(false));
      await flush();
      expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
      expect(list.last().data?.map((t) => [t.id, t.title])).toEqual([
        [1, 'saved'],
        [2, 'two renamed'],
        [3, 'todo 3'],
      ]);
      expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved');
      one.unsubscribe();
      list.unsubscribe();
    });

    it(`${verb}: answered while the update is in flight, the optimistic value stays on top and the committed answer wins`, async () => {
      const c = make();
      const one = record(c.observe(TodoResource.get, { id: 1 }));
      const list = record(c.observe(TodoResource.getList));
      await settled(() => expect(one.last().data && list.last().data).toBeDefined());
      const gets = gate(fake, 'get', '/todos/:id');
      const lists = gate(fake, 'get', '/todos');
      const puts = gate(fake, verb === 'update' ? 'put' : 'patch', '/todos/:id');
      c.expireAll(TodoResource.get);
      c.expireAll(TodoResource.getList);
      await settled(() => expect(gets.length + lists.length).toBe(2));
      const saving = outcome(change(c));
      await settled(() => expect(puts).toHaveLength(1));
      expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
      gets[0]!.json(row(1, 'todo 1'));
      lists[0]!.json([row(1, 'todo 1'), row(2, 'two renamed'), row(3, 'todo 3')]);
      await settled(() => expect(one.last().fetching || list.last().fetching).toBe(false));
      await flush();
      // the optimistic layer still shows on top of the older answers
      expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
      expect(list.last().data?.map((t) => [t.id, t.title])).toEqual([
        [1, 'saved'],
        [2, 'two renamed'],
        [3, 'todo 3'],
      ]);
      // the server's answer differs from the guess: it wins once committed
      puts[0]!.json({ ...row(1, 'saved by server'), completed: true });
      await settled(() => expect(saving.done).toBe(true));
      expect(saving.error).toBeUndefined();
      await flush();
      expect(c.getState().optimistic).toEqual([]);
      expect(one.last().data).toMatchObject({ title: 'saved by server', completed: true });
      expect(list.last().data?.map((t) => [t.id, t.title])).toEqual([
        [1, 'saved by server'],
        [2, 'two renamed'],
        [3, 'todo 3'],
      ]);
      expect(fake.requests.filter((r) => r.startsWith('GET')).sort()).toEqual([
        'GET /todos',
        'GET /todos',
        'GET /todos/1',
        'GET /todos/1',
      ]);
      one.unsubscribe();
      list.unsubscribe();
    });
  }
});

describe('a GET of the entity started while an optimistic update is in flight, read by the server before the update', () => {
  for (const verb of ['update', 'partialUpdate'] as const) {
    const change = (c: ReturnType<typeof make>) =>
      verb === 'update'
        ? c.fetch(TodoResource.update, { id: 1 }, { id: 1, userId: 1, title: 'saved', completed: true })
        : c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'saved', completed: true });

    for (const answered of ['before', 'after'] as const) {
      it(`${verb}: answered ${answered} the update's answer, the old title never shows again`, async () => {
        const c = make();
        const one = record(c.observe(TodoResource.get, { id: 1 }));
        const list = record(c.observe(TodoResource.getList));
        await settled(() => expect(one.last().data && list.last().data).toBeDefined());
        const gets = gate(fake, 'get', '/todos/:id');
        const lists = gate(fake, 'get', '/todos');
        const puts = gate(fake, verb === 'update' ? 'put' : 'patch', '/todos/:id');
        const saving = outcome(change(c));
        await settled(() => expect(puts).toHaveLength(1));
        const from = one.values.length;
        const listFrom = list.values.length;
        // a refetch (focus, polling, expireAll) starts while the update is in flight
        c.expireAll(TodoResource.get);
        c.expireAll(TodoResource.getList);
        await settled(() => expect(gets.length + lists.length).toBe(2));
        const answerGets = () => {
          gets[0]!.json(row(1, 'todo 1'));
          lists[0]!.json([row(1, 'todo 1'), row(2, 'two renamed'), row(3, 'todo 3')]);
        };
        if (answered === 'before') {
          answerGets();
          await settled(() => expect(one.last().fetching || list.last().fetching).toBe(false));
          await flush();
          expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
        }
        puts[0]!.json({ ...row(1, 'saved'), completed: true });
        await settled(() => expect(saving.done).toBe(true));
        expect(saving.error).toBeUndefined();
        if (answered === 'after') {
          answerGets();
          await settled(() => expect(one.last().fetching || list.last().fetching).toBe(false));
        }
        await flush();
        expect(one.values.slice(from).map((v) => v.data?.title)).not.toContain('todo 1');
        expect(list.values.slice(listFrom).map((v) => v.data?.[0]?.title)).not.toContain('todo 1');
        expect(one.last().data).toMatchObject({ title: 'saved', completed: true });
        expect(list.last().data?.map((t) => [t.id, t.title])).toEqual([
          [1, 'saved'],
          [2, 'two renamed'],
          [3, 'todo 3'],
        ]);
        expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved');
        one.unsubscribe();
        list.unsubscribe();
      });
    }
  }
});

describe('a list GET sent while another mutation of its rows is in flight, read by the server before it', () => {
  it('a delete: the deleted row does not come back into the list', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(4));
    const lists = gate(fake, 'get', '/todos');
    const deletes = gate(fake, 'delete', '/todos/:id');
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 3 }));
    await settled(() => expect(deletes).toHaveLength(1));
    c.expireAll(TodoResource.getList);
    await settled(() => expect(lists).toHaveLength(1));
    const from = list.values.length;
    fake.todos.delete(3);
    deletes[0]!.json({});
    await settled(() => expect(deleting.done).toBe(true));
    lists[0]!.json([row(1, 'todo 1'), row(2, 'todo 2'), row(3, 'todo 3'), row(4, 'todo 4')]);
    await settled(() => expect(list.last().fetching).toBe(false));
    await flush();
    expect(list.values.slice(from).map((v) => v.data?.map((t) => t.id))).not.toContainEqual([1, 2, 3, 4]);
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 4]);
    list.unsubscribe();
  });

  it('a push: the created row stays in the list', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(4));
    const lists = gate(fake, 'get', '/todos');
    const posts = gate(fake, 'post', '/todos');
    const creating = outcome(c.fetch(TodoResource.getList.push, { title: 'five', userId: 1 }));
    await settled(() => expect(posts).toHaveLength(1));
    c.expireAll(TodoResource.getList);
    await settled(() => expect(lists).toHaveLength(1));
    posts[0]!.json(row(5, 'five'), 201);
    await settled(() => expect(creating.done).toBe(true));
    expect(creating.error).toBeUndefined();
    lists[0]!.json([row(1, 'todo 1'), row(2, 'todo 2'), row(3, 'todo 3'), row(4, 'todo 4')]);
    await settled(() => expect(list.last().fetching).toBe(false));
    await flush();
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    list.unsubscribe();
  });

  it('a GET sent after the mutation’s answer arrived is newer than it, and wins', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    await c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'saved' });
    fake.todos.get(1)!.title = 'changed by someone else';
    c.expireAll(TodoResource.get);
    await settled(() => expect(one.last().data?.title).toBe('changed by someone else'));
    one.unsubscribe();
  });
});
