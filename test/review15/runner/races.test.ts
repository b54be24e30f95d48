/**
 * Races a TanStack Query / Data Client user meets, each against a server whose requests the test holds and answers:
 * an invalidation during an optimistic update (the refetch, sent while the mutation is in flight, answers the old
 * title before or after the mutation answers: the optimistic title shows over it, then the mutation's), a poll answered
 * after a `setResponse`, a reset and a dispose while an optimistic mutation is in flight, and an abort of one.
 */
import { describe, expect, it } from 'vitest';
import { Controller, RestEndpoint } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import {
  API,
  Todo,
  TodoResource,
  flush,
  loadedThenHeld,
  outcome,
  shown,
  todo,
  until,
  useLiveServer,
} from '../../review12/live/harness.js';

const live = useLiveServer();
const stored = (c: Controller, id = 1) =>
  c.getState().entities['Todo']?.[`${id}`] as { title: string; completed: boolean } | undefined;

const loaded = () => loadedThenHeld(live, [1], (c) => c.fetch(TodoResource.get, { id: 1 }), { environment: {} });

describe('an invalidation during an optimistic update', () => {
  for (const order of ['refetch first', 'mutation first'] as const)
    it(`the refetch it causes answers the old title, ${order}: the optimistic title shows, then the mutation's`, async () => {
      const c = await loaded();
      const one = record(c.observe(TodoResource.get, { id: 1 }));
      const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'new' }));
      const from = one.values.length;
      await until(() => live.held.length === 1);
      c.invalidate(TodoResource.get, { id: 1 });
      await until(() => live.held.length === 2);
      expect(live.held[1]!.method).toBe('GET');
      // invalid (Data Client's invalidate, not expireAll): no data until the refetch answers
      expect(one.last()).toMatchObject({ data: undefined, loading: true });
      if (order === 'refetch first') {
        live.held[1]!.json(todo(1, 'todo 1'));
        await flush();
        expect(one.last().data?.title).toBe('new');
        live.held[0]!.json(todo(1, 'new'));
      } else {
        live.held[0]!.json(todo(1, 'new'));
        await settled(() => expect(update.done).toBe(true));
        live.held[1]!.json(todo(1, 'todo 1')); // read by the server before it applied the update
      }
      await settled(() => expect(update.done).toBe(true));
      await flush();
      expect(update.error).toBeUndefined();
      expect(c.getState().optimistic).toEqual([]);
      expect(stored(c)?.title).toBe('new');
      expect(one.last()).toMatchObject({ loading: false, error: undefined });
      expect(one.last().data?.title).toBe('new');
      // from the mutation on, the old title never shows again
      expect(
        one.values
          .slice(from)
          .filter((s) => s.data !== undefined)
          .map((s) => s.data!.title),
      ).not.toContain('todo 1');
      one.unsubscribe();
      c.dispose();
    });
});

describe('a poll answered after a setResponse', () => {
  it('the poll started before the setResponse: its older answer does not overwrite it', async () => {
    live.todos.set(1, todo(1));
    const polled = TodoResource.get.extend({ pollFrequency: 30 });
    const c = new Controller({ retry: 0, environment: {} });
    await c.fetch(polled, { id: 1 });
    const one = record(c.observe(polled, { id: 1 }));
    live.hold.on = true;
    await until(() => live.held.length === 1);
    c.setResponse(polled, { id: 1 }, todo(1, 'set'));
    expect(one.last().data?.title).toBe('set');
    live.held[0]!.json(todo(1, 'polled before the set'));
    await flush();
    expect(one.last().data?.title).toBe('set');
    expect(stored(c)?.title).toBe('set');
    one.unsubscribe();
    c.dispose();
  });
});

describe('an optimistic mutation in flight', () => {
  it('resetEntireStore: its layer goes with the store, its answer writes nothing, its fetch settles', async () => {
    const c = await loaded();
    const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'new' }));
    await until(() => live.held.length === 1);
    expect(shown(c)?.title).toBe('new');
    c.resetEntireStore();
    expect(c.getState().optimistic).toEqual([]);
    expect(c.get(Todo, { id: 1 })).toBeUndefined();
    live.held[0]!.json(todo(1, 'new'));
    await settled(() => expect(update.done).toBe(true));
    expect(c.get(Todo, { id: 1 })).toBeUndefined();
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });

  it('dispose: its fetch rejects with an AbortError saying so; a later answer throws nothing and writes nothing', async () => {
    const c = await loaded();
    const before = c.getState().entities;
    const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'new' }));
    await until(() => live.held.length === 1);
    c.dispose();
    await settled(() => expect(update.done).toBe(true));
    expect(update.error).toMatchObject({ name: 'AbortError' });
    expect(String((update.error as Error).message)).toMatch(/disposed/);
    live.held[0]!.json(todo(1, 'new'));
    await flush();
    expect(c.getState().entities).toBe(before);
  });

  it("aborted by its endpoint's signal: the layer is rolled back exactly, the fetch rejects with an AbortError", async () => {
    const c = await loaded();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    const abort = new AbortController();
    const patch = TodoResource.partialUpdate.extend({
      signal: abort.signal,
    } as never) as typeof TodoResource.partialUpdate;
    const other = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    const update = outcome(c.fetch(patch, { id: 1 }, { title: 'new' }));
    await until(() => live.held.length === 2);
    expect(shown(c)).toEqual({ title: 'new', completed: true });
    abort.abort();
    await settled(() => expect(update.done).toBe(true));
    expect(update.error).toMatchObject({ name: 'AbortError' });
    expect(shown(c)).toEqual({ title: 'todo 1', completed: true });
    live.held[0]!.json(todo(1, 'todo 1', true));
    await settled(() => expect(other.done).toBe(true));
    expect(stored(c)).toEqual(todo(1, 'todo 1', true));
    expect(c.getState().optimistic).toEqual([]);
    expect(one.last().data?.title).toBe('todo 1');
    one.unsubscribe();
    c.dispose();
  });
});

describe('a GET answered after dispose', () => {
  it('an observer refetch in flight: nothing is written, nothing thrown', async () => {
    const c = await loaded();
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, dataExpiryLength: 0 });
    const one = record(c.observe(get, { id: 1 }));
    await until(() => live.held.length === 1);
    const before = c.getState();
    c.dispose();
    live.held[0]!.json(todo(1, 'late'));
    await flush();
    expect(c.getState()).toBe(before);
    one.unsubscribe();
  });
});
