/**
 * An optimistic delete makes the entity unusable for its observers at once (API.md: optimistic mutations show
 * their expected result in every affected observer at once). A refetch that the layer alone caused would race
 * the DELETE: answered first, its entity (a request that started later) won over the delete's invalidation and
 * came back into every list although the server deleted it. The observer waits for the mutation instead.
 */
import { describe, expect, it } from 'vitest';
import {
  TodoResource,
  answerNext,
  flush,
  record,
  settled,
  status,
  useTodoServer,
} from '../../reliability/faultHarness.js';
import { counter, useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);

describe('an observer of the entity an optimistic delete removes', () => {
  it('the delete succeeds: the entity stays out of the list and the store, and the observer then shows the 404', async () => {
    const c = make();
    const list = record(c.observe(TodoResource.getList));
    const one = record(c.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(list.last().data && one.last().data).toBeDefined());
    const deleting = c.fetch(TodoResource.delete, { id: 3 });
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 4]);
    expect(one.last().data).toBeUndefined();
    await deleting;
    await settled(() => expect(one.last().error).toMatchObject({ status: 404 }));
    await flush();
    expect(list.last().data?.map((t) => t.id)).toEqual([1, 2, 4]);
    expect(c.getResponse(TodoResource.getList).data?.map((t) => t.id)).toEqual([1, 2, 4]);
    expect(fake.requests).toEqual(['GET /todos', 'GET /todos/3', 'DELETE /todos/3', 'GET /todos/3']);
    expect(count('GET /todos')).toBe(1);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('the delete fails: the observer shows the entity again without having refetched it', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const shown = one.last().data;
    answerNext(fake, 'delete', '/todos/:id', status(503));
    const deleting = c.fetch(TodoResource.delete, { id: 3 });
    expect(one.last().data).toBeUndefined();
    await expect(deleting).rejects.toMatchObject({ status: 503 });
    expect(one.last()).toMatchObject({ loading: false, fetching: false });
    expect(one.last().data).toBe(shown);
    await flush();
    expect(count('GET /todos/3')).toBe(1);
    one.unsubscribe();
  });

  it('a first subscriber that arrives while the delete is in flight waits for it too', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 2 });
    const deleting = c.fetch(TodoResource.delete, { id: 2 });
    const one = record(c.observe(TodoResource.get, { id: 2 }));
    expect(one.last()).toMatchObject({ data: undefined });
    await deleting;
    await settled(() => expect(one.last().error).toMatchObject({ status: 404 }));
    expect(fake.requests).toEqual(['GET /todos/2', 'DELETE /todos/2', 'GET /todos/2']);
    one.unsubscribe();
  });
});
