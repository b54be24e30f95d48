/**
 * rx-rest/persist: a save comes from this browser, so a time in it after now is a clock that was ahead or a corrupt
 * save. Every such time is restored dated now at most and stale (persist.test.ts covers `date`, `fetchedAt`,
 * `expiresAt`), and so is the stamp of an invalidation or expiry mark (`markedAt`): a mark stamped 8.64e15 (the
 * last time a `Date` holds) would outlast every later answer (an answer to a request started before the mark
 * keeps it), so the key would stay invalid and be fetched again after each answer. A record stamped so loses to
 * later writes. The server-render path (`initialState`, a server clock minutes ahead) is not touched.
 */
import { describe, expect, it } from 'vitest';
import { Controller, takeSnapshot } from '../../../core/index.js';
import { persist } from '../../../adapters/persist/index.js';
import { TodoResource, flush, record, todoGets, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const MAX_TIME = 8.64e15;

/** A storage holding one save of `state`, made now. */
function storageWith(state: unknown) {
  const items = new Map([['rx-rest', JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state })]]);
  return {
    items,
    storage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    },
  };
}

describe('a persisted save with stamps far ahead of now', () => {
  it('an invalidation marked at 8.64e15: the next answer clears it, and the key is fetched once, not after every answer', async () => {
    const key = TodoResource.get.key({ id: 1 });
    const now = Date.now();
    const { storage } = storageWith({
      entities: { Todo: { 1: { id: 1, userId: 1, title: 'saved', completed: false } } },
      entitiesMeta: { Todo: { 1: { date: now, fetchedAt: now, expiresAt: now + 60_000 } } },
      endpoints: { [key]: '1' },
      meta: { [key]: { date: now, fetchedAt: now, expiresAt: 0, invalidated: true, markedAt: MAX_TIME } },
    });
    const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    const stop = persist(controller, { storage });
    expect(await stop.restored).toBe(true);
    // dated now at most (checked before observing: with the mark kept, each answer would ask again at once)
    expect(takeSnapshot(controller).meta[key]?.markedAt ?? 0).toBeLessThanOrEqual(Date.now());
    const states = record(controller.observe(TodoResource.get, { id: 1 }));
    for (let round = 0; round < 20 && todoGets(fake, 1) < 3; round++) await flush(5);
    expect(todoGets(fake, 1)).toBe(1);
    expect(states.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(states.last().data?.title).toBe('todo 1');
    expect(controller.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ invalid: false, stale: false });
    states.unsubscribe();
    stop();
    controller.dispose();
  });

  it('records stamped 8.64e15: a later write of them wins, and the store’s own newer data stays', async () => {
    const now = Date.now();
    const far = { date: MAX_TIME, fetchedAt: MAX_TIME, expiresAt: MAX_TIME };
    const { storage } = storageWith({
      entities: { Todo: { 1: { id: 1, userId: 1, title: 'saved 1', completed: false } } },
      entitiesMeta: { Todo: { 1: far } },
      endpoints: {},
      meta: {},
    });
    const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    await controller.fetch(TodoResource.get, { id: 2 }); // the store's own data
    const stop = persist(controller, { storage });
    await stop.restored;
    expect(controller.getState().entitiesMeta.Todo?.['1']?.fetchedAt).toBeLessThanOrEqual(Date.now());
    await controller.fetch(TodoResource.get, { id: 1 });
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
    expect(controller.getResponse(TodoResource.get, { id: 2 }).data?.title).toBe('todo 2');
    // stamps go on from now, not from 8.64e15
    expect(controller.getState().entitiesMeta.Todo?.['1']?.fetchedAt).toBeLessThan(now + 60_000);
    stop();
    controller.dispose();
  });
});
