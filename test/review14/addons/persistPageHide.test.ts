// @vitest-environment jsdom
/**
 * Review 14 of `rx-rest/persist` (docs/addons.md "Save": a pending change is saved at once when the page is
 * hidden, `pagehide` or `visibilitychange`): the last save on leaving the page, with an asynchronous storage
 * (IndexedDB) still writing the previous save. A page being unloaded runs no more JavaScript once its
 * `pagehide` listeners returned, so a write that waits for the one in flight is never made: "at once" means
 * the storage is called inside the event.
 */
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const getTodo = todoEndpoint('http://review14-persist-hide.test');

const { cleanups } = useAddonTest();

/** An asynchronous storage whose writes stay in flight until the test settles them. */
function slowStorage() {
  const calls: { key: string; value: string; settle: () => void }[] = [];
  const storage: PersistStorage = {
    getItem: async () => null,
    setItem: (key, value) => new Promise<void>((settle) => void calls.push({ key, value, settle })),
    removeItem: async () => undefined,
  };
  const todosIn = (value: string) => Object.keys(JSON.parse(value).state.entities.PlainTodo ?? {});
  return { calls, storage, todosIn };
}

let keys = 0;
async function started(storage: PersistStorage) {
  const controller = new Controller({ environment: {}, gcTime: Infinity });
  // a key per test: a write left in flight holds back every later persist on its key
  const stop = persist(controller, { storage, throttle: 1000, key: `review14-hide-${++keys}` });
  cleanups.push(() => (stop(), controller.dispose()));
  await stop.restored;
  return { controller, stop };
}

describe('persist: the page hidden while a save is being written', () => {
  it('pagehide writes the last change inside the event, not after the write in flight', async () => {
    const { calls, storage, todosIn } = slowStorage();
    const { controller } = await started(storage);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    window.dispatchEvent(new Event('pagehide')); // the save of todo 1: in flight (the page was kept, bfcache)
    expect(calls).toHaveLength(1);
    controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    window.dispatchEvent(new Event('pagehide'));
    expect(calls).toHaveLength(2);
    expect(todosIn(calls[1]!.value)).toEqual(['1', '2']);
  });

  it('visibilitychange to hidden does the same', async () => {
    const { calls, storage, todosIn } = slowStorage();
    const { controller } = await started(storage);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    window.dispatchEvent(new Event('pagehide'));
    controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(calls).toHaveLength(2);
    expect(todosIn(calls[1]!.value)).toEqual(['1', '2']);
  });

  it('after that, writes keep their order: the next save waits for the one made on hiding', async () => {
    const { calls, storage, todosIn } = slowStorage();
    const { controller, stop } = await started(storage);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    window.dispatchEvent(new Event('pagehide'));
    controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    window.dispatchEvent(new Event('pagehide'));
    controller.setResponse(getTodo, { id: 3 }, todo(3, 'three')); // the page came back (bfcache)
    const flushed = stop.flush();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toHaveLength(2); // waits for the writes in flight
    calls[0]!.settle();
    calls[1]!.settle();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toHaveLength(3);
    expect(todosIn(calls[2]!.value)).toEqual(['1', '2', '3']);
    calls[2]!.settle();
    await flushed;
  });
});
