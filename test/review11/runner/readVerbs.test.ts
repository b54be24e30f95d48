/**
 * Outside review of the Controller verbs table (API.md, written from it alone): `fetch`, `fetchIfStale`,
 * `getResponse`, `setResponse`, `setError`, `invalidate`, `invalidateAll`, `expireAll`.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../core/index.js';
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

describe('fetch', () => {
  it('resolves Entity instances once the store holds them: getResponse answers the same value without a request', async () => {
    const c = make();
    const todo = await c.fetch(TodoResource.get, { id: 2 });
    expect(todo).toBeInstanceOf(Todo);
    expect(todo.createdAt).toBeInstanceOf(Temporal.Instant); // the deserializer ran on read
    const snapshot = c.getResponse(TodoResource.get, { id: 2 });
    expect(snapshot.data).toBeInstanceOf(Todo);
    expect(snapshot.data).toEqual(todo);
    expect(snapshot).toMatchObject({ stale: false, invalid: false });
    // the store keeps the raw JSON value, not the instance
    expect(c.getState().entities.Todo?.['2']).toMatchObject({ createdAt: '2024-01-02T00:00:00Z' });
    expect(count('GET /todos/2')).toBe(1);
  });

  it('identical GETs in flight share one request, each caller gets the value', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const a = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const b = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const other = outcome(c.fetch(TodoResource.get, { id: 3 }));
    await settled(() => expect(held).toHaveLength(2));
    await flush();
    expect(held).toHaveLength(2); // one for id 1, one for id 3
    for (const h of held) h.json(row(Number(new URL(h.request.url).pathname.split('/').pop()), 'answer'));
    await settled(() => expect(a.done && b.done && other.done).toBe(true));
    expect([a.value?.title, b.value?.title, other.value?.id]).toEqual(['answer', 'answer', 3]);
  });

  it('a GET after the first one settled is a new request (only requests in flight are shared)', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    await c.fetch(TodoResource.get, { id: 1 });
    expect(count('GET /todos/1')).toBe(2);
  });

  it('rejects with the endpoint’s NetworkError (status, method, URL in the message); the stored data stays', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const before = c.getState().entities;
    answerNext(fake, 'get', '/todos/:id', status(503));
    const error = await c.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ name: 'NetworkError', status: 503 });
    expect((error as Error).message).toMatch(/GET/);
    expect((error as Error).message).toContain('/todos/1');
    expect((error as Error).message).toContain('503');
    expect(c.getState().entities).toBe(before);
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
  });

  it('a failed mutation leaves the store as it was (entities and results), its optimistic layer gone', async () => {
    const c = make();
    await c.fetch(TodoResource.getList);
    const before = c.getState();
    answerNext(fake, 'patch', '/todos/:id', status(422));
    const failed = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'never' });
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('never'); // optimistic meanwhile
    await expect(failed).rejects.toMatchObject({ status: 422 });
    const after = c.getState();
    expect(after.entities).toEqual(before.entities);
    expect(after.endpoints).toEqual(before.endpoints);
    expect(after.optimistic).toEqual([]);
    expect(c.getResponse(TodoResource.getList).data?.map((t) => t.title)).toEqual([
      'todo 1',
      'todo 2',
      'todo 3',
      'todo 4',
    ]);
  });
});

describe('fetchIfStale', () => {
  it('resolves fresh data from the store without a request; after expireAll or invalidate it fetches', async () => {
    const c = make();
    const first = await c.fetch(TodoResource.get, { id: 1 });
    const again = await c.fetchIfStale(TodoResource.get, { id: 1 });
    expect(again).toEqual(first);
    expect(count('GET /todos/1')).toBe(1);
    c.expireAll(TodoResource.get);
    await c.fetchIfStale(TodoResource.get, { id: 1 });
    expect(count('GET /todos/1')).toBe(2);
    c.invalidate(TodoResource.get, { id: 1 });
    fake.todos.get(1)!.title = 'changed';
    expect((await c.fetchIfStale(TodoResource.get, { id: 1 })).title).toBe('changed');
    expect(count('GET /todos/1')).toBe(3);
  });

  it('fetches when the data is past dataExpiryLength', async () => {
    let now = 1_000_000;
    const c = make({ now: () => now });
    const Short = TodoResource.get.extend({ dataExpiryLength: 1_000 });
    await c.fetch(Short, { id: 1 });
    now += 999;
    await c.fetchIfStale(Short, { id: 1 });
    expect(count('GET /todos/1')).toBe(1);
    now += 1;
    await c.fetchIfStale(Short, { id: 1 });
    expect(count('GET /todos/1')).toBe(2);
  });
});

describe('getResponse', () => {
  it('expiresAt is the write time plus dataExpiryLength; stale from then on; nothing stored: no data', async () => {
    let now = 5_000_000;
    const c = make({ now: () => now });
    const Timed = TodoResource.get.extend({ dataExpiryLength: 10_000 });
    expect(c.getResponse(Timed, { id: 1 }).data).toBeUndefined();
    await c.fetch(Timed, { id: 1 });
    expect(c.getResponse(Timed, { id: 1 })).toMatchObject({ expiresAt: now + 10_000, stale: false, invalid: false });
    now += 10_000;
    expect(c.getResponse(Timed, { id: 1 })).toMatchObject({ stale: true, invalid: false });
    expect(c.getResponse(Timed, { id: 1 }).data?.title).toBe('todo 1'); // stale data is still data
  });

  it('is a snapshot: a later write does not change a snapshot already taken', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const snapshot = c.getResponse(TodoResource.get, { id: 1 });
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'newer'));
    expect(snapshot.data?.title).toBe('todo 1');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('newer');
  });
});

describe('setResponse and setError', () => {
  it('setResponse stores a response as if fetched: observers show it, no request, fresh', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 9 }, row(9, 'pushed'));
    const s = record(c.observe(TodoResource.get, { id: 9 }));
    expect(s.values).toHaveLength(1);
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false, error: undefined });
    expect(s.last().data?.title).toBe('pushed');
    await flush();
    expect(fake.requests).toEqual([]);
    // a list response normalizes its members: get reads them
    c.setResponse(TodoResource.getList, {}, [row(7, 'seven'), row(8, 'eight')]);
    expect(c.getResponse(TodoResource.getList).data?.map((t) => t.id)).toEqual([7, 8]);
    expect(c.get(Todo, '8')?.title).toBe('eight');
    s.unsubscribe();
  });

  it('setError on a key with data: a 5xx keeps the data beside the error, a 4xx surfaces the error', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    c.setError(TodoResource.get, { id: 1 }, Object.assign(new Error('down'), { status: 503 }));
    expect(s.last().error?.message).toBe('down');
    expect(s.last().data?.title).toBe('todo 1');
    c.setError(TodoResource.get, { id: 1 }, Object.assign(new Error('gone'), { status: 404 }));
    expect(s.last().error?.message).toBe('gone');
    expect(s.last().data).toBeUndefined();
    expect(s.last().loading).toBe(false);
    s.unsubscribe();
  });

  it('an error with no status surfaces; a later success clears it', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    c.setError(TodoResource.get, { id: 1 }, new Error('plain'));
    expect(s.last()).toMatchObject({ data: undefined });
    expect(s.last().error?.message).toBe('plain');
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'ok again'));
    expect(s.last()).toMatchObject({ error: undefined, loading: false });
    expect(s.last().data?.title).toBe('ok again');
    s.unsubscribe();
  });

  it('a response that cannot be normalized throws a NormalizeError naming the entity, and loses nothing in the store', async () => {
    const c = make();
    await c.fetch(TodoResource.getList);
    const before = c.getState();
    const bad: unknown[] = [[row(1, 'fine'), { title: 'no id' }], 5, { results: [] }];
    for (const response of bad) {
      expect(() => c.setResponse(TodoResource.getList, {}, response as never)).toThrow(
        expect.objectContaining({ name: 'NormalizeError', message: expect.stringContaining('Todo') }),
      );
    }
    expect(() => c.set(Todo, { title: 'no pk' } as never)).toThrow(expect.objectContaining({ name: 'NormalizeError' }));
    // a missing path parameter: an error naming it, before anything is written
    expect(() => c.setResponse(TodoResource.get, {} as never, row(3, 'x'))).toThrow(/"id"/);
    expect(() => c.invalidate(TodoResource.get, {} as never)).toThrow(/"id"/);
    const after = c.getState();
    expect(after.entities).toEqual(before.entities);
    expect(after.endpoints).toEqual(before.endpoints);
    expect(after.meta).toEqual(before.meta);
    expect(c.getResponse(TodoResource.getList).data?.[0]?.title).toBe('todo 1');
  });
});

describe('invalidate, invalidateAll and expireAll', () => {
  it('invalidate: getResponse says invalid without data, observers refetch once and show the new answer', async () => {
    const c = make();
    const a = record(c.observe(TodoResource.get, { id: 1 }));
    const b = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(a.last().data?.title).toBe('todo 1'));
    fake.todos.get(1)!.title = 'server changed';
    c.invalidate(TodoResource.get, { id: 1 });
    expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ data: undefined, invalid: true });
    expect(a.last()).toMatchObject({ data: undefined, loading: true });
    await settled(() => expect(a.last().data?.title).toBe('server changed'));
    expect(b.last().data).toBe(a.last().data);
    expect(count('GET /todos/1')).toBe(2);
    a.unsubscribe();
    b.unsubscribe();
  });

  it('invalidate of one key leaves other keys of the endpoint alone; invalidateAll marks them all', async () => {
    const c = make();
    await Promise.all([1, 2, 3].map((id) => c.fetch(TodoResource.get, { id })));
    c.invalidate(TodoResource.get, { id: 2 });
    expect([1, 2, 3].map((id) => c.getResponse(TodoResource.get, { id }).invalid)).toEqual([false, true, false]);
    c.invalidateAll(TodoResource.get);
    expect([1, 2, 3].map((id) => c.getResponse(TodoResource.get, { id }).invalid)).toEqual([true, true, true]);
  });

  it('expireAll: data stays shown while it refetches in the background, stale then fresh', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.getList));
    await settled(() => expect(s.last().data).toHaveLength(4));
    const shown = s.last().data;
    const held = gate(fake, 'get', '/todos');
    c.expireAll(TodoResource.getList);
    expect(c.getResponse(TodoResource.getList)).toMatchObject({ stale: true, invalid: false });
    expect(s.last()).toMatchObject({ loading: false, fetching: true, stale: true });
    expect(s.last().data).toBe(shown);
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json([row(1, 'todo 1'), row(2, 'renamed')]);
    await settled(() => expect(s.last().fetching).toBe(false));
    expect(s.last().data?.map((t) => t.title)).toEqual(['todo 1', 'renamed']);
    expect(s.last().stale).toBe(false);
    s.unsubscribe();
  });

  it('an unknown endpoint or a key never fetched: invalidateAll and expireAll change nothing', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const before = c.getState();
    c.invalidateAll(TodoResource.getList);
    c.expireAll(TodoResource.getList);
    expect(c.getState().meta).toEqual(before.meta);
    expect(c.getState().endpoints).toEqual(before.endpoints);
  });
});
