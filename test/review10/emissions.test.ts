/**
 * Outside review (API.md QueryState: "emits the current state synchronously on subscribe ... It emits again
 * only when a field changes"): exact emission sequences for invalidate, expire, equal writes and unrelated
 * changes.
 */
import { describe, expect, it } from 'vitest';
import { Controller, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { useControllers } from './fixtures.js';

useTodoServer();
const { make } = useControllers();
const shape = (v: QueryState<Todo | Todo[] | undefined>) => ({
  data: Array.isArray(v.data) ? v.data.length : v.data?.title,
  loading: v.loading,
  fetching: v.fetching,
  stale: v.stale,
  error: v.error !== undefined,
});
async function loaded(c: Controller) {
  const s = record(c.observe(TodoResource.get, { id: 1 }));
  await settled(() => expect(s.last().data?.title).toBe('todo 1'));
  await flush();
  s.values.length = 0;
  return s;
}

describe('exact emissions', () => {
  it('invalidate: unusable (loading) once, then the refetched data once', async () => {
    const c = make();
    const s = await loaded(c);
    c.invalidate(TodoResource.get, { id: 1 });
    await settled(() => expect(s.last()?.loading).toBe(false));
    await flush();
    // the invalidated result is not shown while it is refetched: no data to call stale (API.md: the data is past its expiry)
    expect(s.values.map(shape)).toEqual([
      { data: undefined, loading: true, fetching: true, stale: false, error: false },
      { data: 'todo 1', loading: false, fetching: false, stale: false, error: false },
    ]);
    s.unsubscribe();
  });

  it('expireAll: stale and fetching with the data, then fresh with the same object', async () => {
    const c = make();
    const s = await loaded(c);
    const data = c.getResponse(TodoResource.get, { id: 1 }).data;
    c.expireAll(TodoResource.get);
    await settled(() => expect(s.last()?.fetching).toBe(false));
    await flush();
    expect(s.values.map(shape)).toEqual([
      { data: 'todo 1', loading: false, fetching: true, stale: true, error: false },
      { data: 'todo 1', loading: false, fetching: false, stale: false, error: false },
    ]);
    expect(s.values.every((v) => v.data === data)).toBe(true);
    s.unsubscribe();
  });

  it('an equal setResponse, a set of another record and a response of another key: no emission', async () => {
    const c = make();
    const s = await loaded(c);
    const now = c.getResponse(TodoResource.get, { id: 1 }).data!;
    c.setResponse(
      TodoResource.get,
      { id: 1 },
      {
        id: 1,
        userId: now.userId,
        title: now.title,
        completed: now.completed,
        createdAt: '2024-01-01T00:00:00Z',
      },
    );
    c.set(Todo, { id: 2, title: 'other' });
    await c.fetch(TodoResource.get, { id: 3 });
    await flush();
    expect(s.values).toHaveLength(0);
    s.unsubscribe();
  });

  it('a set of the record: one emission with the new value', async () => {
    const c = make();
    const s = await loaded(c);
    c.set(Todo, { id: 1, title: 'changed' });
    await flush();
    expect(s.values.map(shape)).toEqual([
      { data: 'changed', loading: false, fetching: false, stale: false, error: false },
    ]);
    s.unsubscribe();
  });

  it('resetEntireStore: loading once, then the data once', async () => {
    const c = make();
    const s = await loaded(c);
    c.resetEntireStore();
    await settled(() => expect(s.last()?.data?.title).toBe('todo 1'));
    await flush();
    expect(s.values.map(shape)).toEqual([
      { data: undefined, loading: true, fetching: true, stale: false, error: false },
      { data: 'todo 1', loading: false, fetching: false, stale: false, error: false },
    ]);
    s.unsubscribe();
  });
});
