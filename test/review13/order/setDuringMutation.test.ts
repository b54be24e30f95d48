/**
 * A `controller.set` of another field while an optimistic update is in flight: the update's answer is older than
 * the set (its request started first), but it still holds what the update wrote. After it, the record shows the
 * server's answer for the fields no later write touched (the update's title) and the later local write for the
 * fields it wrote (completed). The optimistic view keeps both meanwhile; a failed update leaves the set alone.
 */
import { describe, expect, it } from 'vitest';
import { Controller, RestEndpoint, restoreSnapshot, takeSnapshot, type StoreSnapshot } from '../../../core/index.js';
import { API, Todo, TodoResource, flush, shown, stored, todo, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();

/** A rename with a `getOptimisticResponse` of its own (PATCH). */
const rename = Object.assign(new RestEndpoint({ urlPrefix: API, path: '/todos/:id', method: 'PATCH', schema: Todo }), {
  getOptimisticResponse(_snapshot: StoreSnapshot, params: { id: number }, body: { title: string }) {
    return { id: params.id, title: body.title };
  },
});

/** A controller whose store holds todo 1 as `{ title: 'a', completed: false }`, with the server holding requests. */
async function loaded(): Promise<Controller> {
  live.todos.set(1, todo(1, 'a'));
  live.todos.set(2, todo(2, 'two'));
  const c = new Controller();
  await c.fetch(TodoResource.get, { id: 1 });
  await c.fetch(TodoResource.get, { id: 2 });
  live.hold.on = true;
  return c;
}

const updates = [
  [
    'an optimistic PATCH (partialUpdate)',
    (c: Controller) => c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' }),
  ],
  [
    'an optimistic PUT (update)',
    (c: Controller) => c.fetch(TodoResource.update, { id: 1 }, { id: 1, title: 'b', completed: false }),
  ],
  ['an endpoint with its own getOptimisticResponse', (c: Controller) => c.fetch(rename, { id: 1 }, { title: 'b' })],
] as const;

describe('controller.set of another field while an optimistic update is in flight', () => {
  for (const [name, update] of updates) {
    it(`${name}: after it succeeds, the update's title and the set's completed`, async () => {
      const c = await loaded();
      const mutation = update(c);
      await vi_settled(() => live.held.length === 1);
      expect(shown(c)).toEqual({ title: 'b', completed: false });
      c.set(Todo, { id: 1 }, { id: 1, completed: true });
      // the optimistic title stays on top of the set
      expect(shown(c)).toEqual({ title: 'b', completed: true });
      live.held[0]!.json(todo(1, 'b', false));
      await mutation;
      expect(c.getState().optimistic).toEqual([]);
      expect(stored(c)).toEqual({ title: 'b', completed: true });
      expect(shown(c)).toEqual({ title: 'b', completed: true });
      expect(c.getResponse(TodoResource.get, { id: 1 }).data).toMatchObject({ title: 'b', completed: true });
      // the other record is untouched
      expect(stored(c, 2)).toEqual({ title: 'two', completed: false });
      c.dispose();
    });

    it(`${name}: when it fails, the rollback leaves the old title and the set's completed`, async () => {
      const c = await loaded();
      const mutation = update(c).catch((error: unknown) => error);
      await vi_settled(() => live.held.length === 1);
      c.set(Todo, { id: 1 }, { id: 1, completed: true });
      live.held[0]!.json({ message: 'nope' }, 422);
      expect(await mutation).toMatchObject({ name: 'NetworkError', status: 422 });
      expect(c.getState().optimistic).toEqual([]);
      expect(stored(c)).toEqual({ title: 'a', completed: true });
      expect(shown(c)).toEqual({ title: 'a', completed: true });
      c.dispose();
    });
  }

  it('a set of the same field after the update started wins over its answer', async () => {
    const c = await loaded();
    const mutation = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
    await vi_settled(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    c.set(Todo, { id: 1 }, { id: 1, title: 'local' });
    expect(shown(c)).toEqual({ title: 'local', completed: true });
    live.held[0]!.json(todo(1, 'b', false));
    await mutation;
    expect(stored(c)).toEqual({ title: 'local', completed: true });
  });

  it('a set before the update started is older than its answer', async () => {
    const c = await loaded();
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    const mutation = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
    await vi_settled(() => live.held.length === 1);
    live.held[0]!.json(todo(1, 'b', false));
    await mutation;
    expect(stored(c)).toEqual({ title: 'b', completed: false });
  });

  for (const order of ['older answers first', 'newer answers first'] as const) {
    it(`two overlapping updates around a set (${order}): each field ends with its latest write`, async () => {
      const c = await loaded();
      const first = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
      await vi_settled(() => live.held.length === 1);
      c.set(Todo, { id: 1 }, { id: 1, completed: true });
      const second = c.fetch(rename, { id: 1 }, { title: 'c' });
      await vi_settled(() => live.held.length === 2);
      c.set(Todo, { id: 2 }, { id: 2, completed: true });
      expect(shown(c)).toEqual({ title: 'c', completed: true });
      if (order === 'older answers first') {
        live.held[0]!.json(todo(1, 'b', false));
        await first;
        // the second update is still in flight: its title shows over the first's answer
        expect(shown(c)).toEqual({ title: 'c', completed: true });
        expect(stored(c)).toEqual({ title: 'b', completed: true });
        // the server answers the later request with the state after both (the set was local)
        live.held[1]!.json(todo(1, 'c', false));
        await second;
        expect(stored(c)).toEqual({ title: 'c', completed: false });
      } else {
        live.held[1]!.json(todo(1, 'c', false));
        await second;
        expect(stored(c)).toEqual({ title: 'c', completed: false });
        // the first answer is older than everything the record holds now
        live.held[0]!.json(todo(1, 'b', false));
        await first;
        expect(stored(c)).toEqual({ title: 'c', completed: false });
      }
      expect(c.getState().optimistic).toEqual([]);
      expect(stored(c, 2)).toEqual({ title: 'two', completed: true });
      c.dispose();
    });
  }

  it('a set during an update, then a second update started after the set that fails: the first answer still lands', async () => {
    const c = await loaded();
    const first = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
    await vi_settled(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    const second = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'c' }).catch((error: unknown) => error);
    await vi_settled(() => live.held.length === 2);
    live.held[1]!.json({ message: 'down' }, 503);
    expect(await second).toMatchObject({ status: 503 });
    expect(shown(c)).toEqual({ title: 'b', completed: true });
    live.held[0]!.json(todo(1, 'b', false));
    await first;
    expect(stored(c)).toEqual({ title: 'b', completed: true });
  });

  it('snapshots: one taken meanwhile restores the set, one taken after the answer carries the merged record', async () => {
    const c = await loaded();
    const mutation = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
    await vi_settled(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    const during = JSON.parse(JSON.stringify(takeSnapshot(c))) as unknown;
    live.held[0]!.json(todo(1, 'b', false));
    await mutation;
    const other = new Controller({ initialState: during as never });
    expect(stored(other)).toEqual({ title: 'a', completed: true });
    // the merged record replaces the one the other store holds (a tab that saw the set, a persisted state)
    restoreSnapshot(other, JSON.parse(JSON.stringify(takeSnapshot(c))));
    expect(stored(other)).toEqual({ title: 'b', completed: true });
    // and an older snapshot does not bring the set's record back
    restoreSnapshot(other, during);
    expect(stored(other)).toEqual({ title: 'b', completed: true });
    other.dispose();
    c.dispose();
  });
});

/** Waits (msw answers on timers) until `ready`. */
async function vi_settled(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await flush(1);
  expect(ready()).toBe(true);
}
