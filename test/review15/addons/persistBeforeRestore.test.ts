// @vitest-environment jsdom
/**
 * Review 15 of `rx-rest/persist`: what the app does while an asynchronous storage (IndexedDB) has not answered
 * yet. `invalidateAll`/`expireAll` made then mark every result of the endpoint as of that moment, so the results
 * the save brings (all older than the mark) read invalid or stale, as they would had the save been read first.
 * The page hidden then writes nothing: the storage still holds the save, which the page never read, and a write
 * of the store alone would replace it with less; the change is written once the save is read (the page came back
 * from the back/forward cache), merged with it.
 */
import { describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, takeSnapshot } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { PlainTodo } from '../../fixtures/entities.js';
import { noRequest, todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const urlPrefix = 'http://review15-persist-before.test';
const getTodo = todoEndpoint(urlPrefix);
const getList = new RestEndpoint({ urlPrefix, path: '/todos', schema: [PlainTodo], fetchResponse: noRequest });
const getUser = new RestEndpoint({ urlPrefix, path: '/users/:id', fetchResponse: noRequest });

const { cleanups } = useAddonTest();

/** A save of todos 1 and 2, the list and user 7, as an earlier visit wrote it ten seconds ago (still fresh). */
function earlierSave(): string {
  const before = new Controller({ environment: {}, gcTime: Infinity, now: () => Date.now() - 10_000 });
  before.setResponse(getTodo, { id: 1 }, todo(1, 'saved one'));
  before.setResponse(getTodo, { id: 2 }, todo(2, 'saved two'));
  before.setResponse(getList, {}, [todo(1, 'saved one'), todo(2, 'saved two')]);
  before.setResponse(getUser, { id: 7 }, { name: 'saved user' });
  const state = takeSnapshot(before);
  before.dispose();
  return JSON.stringify({ format: 'rx-rest', savedAt: Date.now() - 10_000, state });
}

/** An asynchronous storage whose `getItem` answers when the test says so; its writes are kept. */
function heldStorage(saved: string | null) {
  const writes: string[] = [];
  let answer!: () => void;
  const storage: PersistStorage = {
    getItem: () => new Promise<string | null>((resolve) => (answer = () => resolve(saved))),
    setItem: async (_key, value) => void writes.push(value),
    removeItem: async () => undefined,
  };
  return { storage, writes, answer: () => answer() };
}

let keys = 0;
function started(storage: PersistStorage) {
  const controller = new Controller({ environment: {}, gcTime: Infinity });
  const stop = persist(controller, { storage, throttle: 1000, key: `review15-before-${++keys}` });
  cleanups.push(() => (stop(), controller.dispose()));
  return { controller, stop };
}

describe('persist: invalidateAll and expireAll before an asynchronous restore', () => {
  it('invalidateAll made before the storage answered reaches the results the save brings', async () => {
    const { storage, answer } = heldStorage(earlierSave());
    const { controller, stop } = started(storage);
    controller.invalidateAll(getTodo);
    answer();
    expect(await stop.restored).toBe(true);
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: true });
    expect(controller.getResponse(getTodo, { id: 2 })).toMatchObject({ invalid: true });
    // the other endpoints' results are as saved
    expect(controller.getResponse(getList, {})).toMatchObject({ invalid: false, stale: false });
    expect(controller.getResponse(getUser, { id: 7 })).toMatchObject({ invalid: false, stale: false });
  });

  it('expireAll made before the storage answered makes the results the save brings stale, with their data', async () => {
    const { storage, answer } = heldStorage(earlierSave());
    const { controller, stop } = started(storage);
    controller.expireAll(getList);
    answer();
    await stop.restored;
    const list = controller.getResponse(getList, {});
    expect(list).toMatchObject({ stale: true, invalid: false });
    expect((list.data as PlainTodo[]).map((t) => t.title)).toEqual(['saved one', 'saved two']);
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: false, stale: false });
  });

  it('a result written after the mark (newer than it and than the save) keeps its freshness', async () => {
    const { storage, answer } = heldStorage(earlierSave());
    const { controller, stop } = started(storage);
    controller.invalidateAll(getTodo);
    controller.setResponse(getTodo, { id: 2 }, todo(2, 'fetched after the mark'));
    answer();
    await stop.restored;
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: true });
    const two = controller.getResponse(getTodo, { id: 2 });
    expect(two).toMatchObject({ invalid: false, stale: false });
    expect((two.data as PlainTodo).title).toBe('fetched after the mark');
  });

  it('a mark made after the save was read is not applied again to a later save', async () => {
    const { storage, answer } = heldStorage(earlierSave());
    const { controller, stop } = started(storage);
    answer();
    await stop.restored;
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'fetched'));
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: false, stale: false });
  });
});

describe('persist: the page hidden before an asynchronous restore', () => {
  it('writes nothing over the save it has not read, and writes both once it has', async () => {
    const { storage, writes, answer } = heldStorage(earlierSave());
    const { controller, stop } = started(storage);
    controller.setResponse(getTodo, { id: 3 }, todo(3, 'fetched before the save was read'));
    window.dispatchEvent(new Event('pagehide'));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(writes).toEqual([]); // the save stays whole
    answer(); // the page came back (bfcache): the save is read
    await stop.restored;
    await stop.flush();
    expect(writes).toHaveLength(1);
    const saved = JSON.parse(writes[0]!).state.entities.PlainTodo;
    expect(Object.keys(saved).sort()).toEqual(['1', '2', '3']);
  });
});
