/**
 * The entity an optimistic delete removes, seen by its own observer while the DELETE is in flight. API.md's
 * QueryState: `loading` is "no usable data yet and a request is on the way". The optimistic layer takes the data
 * away and the observer waits for the mutation instead of refetching (a GET sent now could bring the entity back):
 * a request is on the way, so it shows `loading: true` (not `fetching`: no request of its own key runs), never
 * the state "no data, not loading, no error" that no rule allows. Afterwards: the committed delete refetches and
 * shows the server's 404; a failed delete rolls back to the data without a request.
 */
import { describe, expect, it } from 'vitest';
import { peekQuery, type QueryState } from '../../../core/index.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, outcome, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);

/** No emission shows the forbidden state: no data, no error, not loading. */
const neverBlank = (values: readonly QueryState<unknown>[]) =>
  expect(values.filter((v) => v.data === undefined && v.error === undefined && !v.loading)).toEqual([]);

describe('the observer of an entity whose optimistic delete is in flight', () => {
  it('shows loading while the DELETE runs, then the 404 of its refetch once the delete succeeded', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const deletes = gate(fake, 'delete', '/todos/:id');
    const from = one.values.length;
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 3 }));
    expect(one.last()).toMatchObject({ data: undefined, error: undefined, loading: true, fetching: false });
    expect(peekQuery(c, TodoResource.get, { id: 3 })).toMatchObject({
      data: undefined,
      loading: true,
      fetching: false,
    });
    await settled(() => expect(deletes).toHaveLength(1));
    await flush();
    expect(one.last()).toMatchObject({ data: undefined, loading: true, fetching: false });
    expect(count('GET /todos/3')).toBe(1);
    fake.todos.delete(3);
    deletes[0]!.json({});
    await settled(() => expect(deleting.done).toBe(true));
    expect(deleting.error).toBeUndefined();
    await settled(() => expect(one.last().error).toMatchObject({ status: 404 }));
    expect(one.last()).toMatchObject({ data: undefined, loading: false, fetching: false });
    neverBlank(one.values.slice(from));
    expect(count('GET /todos/3')).toBe(2);
    one.unsubscribe();
  });

  it('shows loading while the DELETE runs, then the data again (same object, no request) when it fails', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const shown = one.last().data;
    const deletes = gate(fake, 'delete', '/todos/:id');
    const from = one.values.length;
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 3 }));
    expect(one.last()).toMatchObject({ data: undefined, loading: true, fetching: false });
    await settled(() => expect(deletes).toHaveLength(1));
    deletes[0]!.json({ message: 'locked' }, 423);
    await settled(() => expect(deleting.done).toBe(true));
    expect(deleting.error).toMatchObject({ status: 423 });
    expect(one.last()).toMatchObject({ loading: false, fetching: false, error: undefined });
    expect(one.last().data).toBe(shown);
    neverBlank(one.values.slice(from));
    await flush();
    expect(count('GET /todos/3')).toBe(1);
    one.unsubscribe();
  });

  it('a subscriber arriving during the DELETE starts loading at once, without a request', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 2 });
    const deletes = gate(fake, 'delete', '/todos/:id');
    const deleting = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    const one = record(c.observe(TodoResource.get, { id: 2 }));
    expect(one.values[0]).toMatchObject({ data: undefined, loading: true, fetching: false });
    await settled(() => expect(deletes).toHaveLength(1));
    deletes[0]!.json({ message: 'gone wrong' }, 500);
    await settled(() => expect(deleting.done).toBe(true));
    expect(one.last()).toMatchObject({ loading: false, error: undefined });
    expect(one.last().data?.id).toBe(2);
    neverBlank(one.values);
    expect(count('GET /todos/2')).toBe(1);
    one.unsubscribe();
  });
});
