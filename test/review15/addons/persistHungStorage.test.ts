// @vitest-environment jsdom
/**
 * Review 15 of `rx-rest/persist`: a storage that never answers (an IndexedDB blocked by a `versionchange`
 * another tab never lets through, a wrapper whose promise is lost). Writes on a key run one after another, and
 * a `persist` started on a key reads after the writes in flight on it; a write that never settles must not hold
 * back every later one, nor the next `persist`'s restore, for ever: the wait is bounded (5 s), with a warning.
 * `flush()` settles in bounded time too, also after the teardown.
 */
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const getTodo = todoEndpoint('http://review15-persist-hung.test');

const { cleanups, warn } = useAddonTest({ fakeTimers: true });

/** A storage whose first `setItem` never settles (`hangReads`: nor any `getItem`); the values it took are kept. */
function hungStorage({ hangReads = false } = {}) {
  const values = new Map<string, string>();
  const setCalls: string[] = [];
  const storage: PersistStorage = {
    getItem: (key) => (hangReads ? new Promise<never>(() => {}) : Promise.resolve(values.get(key) ?? null)),
    setItem: (key, value) => {
      setCalls.push(value);
      if (setCalls.length === 1) return new Promise<never>(() => {});
      values.set(key, value);
      return Promise.resolve();
    },
    removeItem: async (key) => void values.delete(key),
  };
  const todosIn = (value: string) => Object.keys(JSON.parse(value).state.entities.PlainTodo ?? {});
  return { storage, values, setCalls, todosIn };
}

let keys = 0;
function started(storage: PersistStorage, key = `review15-hung-${++keys}`) {
  const controller = new Controller({ environment: {}, gcTime: Infinity });
  const stop = persist(controller, { storage, throttle: 100, key });
  cleanups.push(() => (stop(), controller.dispose()));
  return { controller, stop, key };
}

/** Whether `promise` settled by now (after the pending microtasks). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

const warnedOfHang = () => warn.mock.calls.some((call) => /has not answered in 5 s/.test(String(call[0])));

describe('persist: a write that never settles', () => {
  it('holds back the next save of the same persist 5 s at most, with a warning', async () => {
    const { storage, setCalls, todosIn } = hungStorage();
    const { controller, stop } = started(storage);
    await vi.advanceTimersByTimeAsync(0);
    expect(await settled(stop.restored)).toBe(true);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await vi.advanceTimersByTimeAsync(100); // the first save: it never settles
    expect(setCalls).toHaveLength(1);
    controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(setCalls).toHaveLength(1); // waits for the write in flight, as writes keep their order
    expect(warnedOfHang()).toBe(false);
    await vi.advanceTimersByTimeAsync(3999);
    expect(setCalls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(setCalls).toHaveLength(2);
    expect(todosIn(setCalls[1]!)).toEqual(['1', '2']);
    expect(warnedOfHang()).toBe(true);
  });

  it('holds back the restore of a persist started on the key 5 s at most', async () => {
    const first = hungStorage();
    const { controller, stop, key } = started(first.storage);
    await vi.advanceTimersByTimeAsync(0);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    stop(); // the teardown's save: never settles
    controller.dispose();
    expect(first.setCalls).toHaveLength(1);
    const again = started(first.storage, key);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(again.stop.restored)).toBe(false);
    await vi.advanceTimersByTimeAsync(4000);
    expect(await settled(again.stop.restored)).toBe(true);
    expect(await again.stop.restored).toBe(false); // the hung write never reached the storage: nothing to restore
    again.controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    await again.stop.flush();
    expect(first.todosIn(first.values.get(key)!)).toEqual(['2']);
  });

  it('a write that settles in time warns of nothing', async () => {
    const values = new Map<string, string>();
    const storage: PersistStorage = {
      getItem: async () => null,
      setItem: (key, value) =>
        new Promise<void>((resolve) => setTimeout(() => resolve(void values.set(key, value)), 50)),
      removeItem: async () => undefined,
    };
    const { controller, stop } = started(storage);
    await vi.advanceTimersByTimeAsync(0);
    for (let id = 1; id <= 3; id++) {
      controller.setResponse(getTodo, { id }, todo(id, `todo ${id}`));
      await vi.advanceTimersByTimeAsync(120);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    const flushed = stop.flush();
    await vi.advanceTimersByTimeAsync(100);
    await flushed;
    expect(values.size).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('persist: flush() on a storage that never answers', () => {
  it('settles after the teardown while the save is never read', async () => {
    const { storage } = hungStorage({ hangReads: true });
    const { controller, stop } = started(storage);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    stop();
    const flushed = stop.flush();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await settled(flushed)).toBe(true);
  });

  it('settles within 5 s, with a warning, while the save is never read (no teardown: nothing is written)', async () => {
    const { storage, setCalls } = hungStorage({ hangReads: true });
    const { controller, stop } = started(storage);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    const flushed = stop.flush();
    await vi.advanceTimersByTimeAsync(4999);
    expect(await settled(flushed)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(flushed)).toBe(true);
    expect(warnedOfHang()).toBe(true);
    expect(setCalls).toEqual([]); // the save it never read is not replaced with less
  });

  it('settles within 5 s after the teardown while its write never settles', async () => {
    const { storage, setCalls } = hungStorage();
    const { controller, stop } = started(storage);
    await vi.advanceTimersByTimeAsync(0);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    stop(); // saves: the write never settles
    expect(setCalls).toHaveLength(1);
    const flushed = stop.flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(flushed)).toBe(false); // still waits for the write, as long as it may come
    await vi.advanceTimersByTimeAsync(4000);
    expect(await settled(flushed)).toBe(true);
  });
});
