// @vitest-environment jsdom
/**
 * rx-rest/persist: jsdom's real localStorage and an asynchronous storage (a Map behind promises with
 * latency); HTTP through the msw todo server, so "no request" is checked against its log. Throttling
 * under fake timers counts the storage's writes.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type Mock, type MockInstance } from 'vitest';
import {
  Controller,
  INVALID,
  peekQuery,
  takeSnapshot,
  type ControllerOptions,
  type StateSnapshot,
} from '../../../core/index.js';
import { persist, type PersistStorage, type PersistedState } from '../../../adapters/persist/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource, flush, record, tick, useFakeClock, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();

let warn: Mock<typeof console.warn>;
let consoleWarn: MockInstance<typeof console.warn>;
const started: (() => void)[] = [];
beforeEach(() => {
  warn = vi.fn<typeof console.warn>();
  // the add-on's warnings (the core's own development warnings on writes, `controller.set: ...`, are not counted)
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('controller.')) warn(...args);
  });
});
afterEach(() => {
  for (const stop of started.splice(0)) stop();
  consoleWarn.mockRestore();
  localStorage.clear();
});

/** `persist`, torn down after the test. */
const persistOn: typeof persist = (controller, options) => {
  const stop = persist(controller, options);
  started.push(stop);
  return stop;
};

/** A controller that reports failures at once and listens to no browser events. */
const newController = (options: ControllerOptions = {}) =>
  new Controller({ retry: 0, environment: {}, gcTime: Infinity, ...options });

/** localStorage, with every value written recorded. */
function countedLocalStorage() {
  const writes: string[] = [];
  const storage: PersistStorage = {
    getItem: (key) => localStorage.getItem(key),
    setItem: (key, value) => {
      writes.push(value);
      localStorage.setItem(key, value);
    },
    removeItem: (key) => localStorage.removeItem(key),
  };
  return { storage, writes };
}

/**
 * An asynchronous storage: a Map behind promises that settle `latency` ms later; `fail` makes them
 * reject; `holdReads` keeps reads unanswered until the function it returns is called. Like IndexedDB's
 * ordered transactions, a read answers what was stored when it was asked.
 */
function asyncStorage(latency = 20) {
  const items = new Map<string, string>();
  const calls: string[] = [];
  let failure: Error | undefined;
  let held: Promise<void> | undefined;
  const later = <T>(run: () => T) =>
    new Promise<T>((resolve, reject) => setTimeout(() => (failure ? reject(failure) : resolve(run())), latency));
  const storage: PersistStorage = {
    getItem: async (key) => {
      calls.push(`get ${key}`);
      const value = items.get(key) ?? null; // as stored when asked (a later write does not change the answer)
      await held;
      return later(() => value);
    },
    setItem: (key, value) => {
      calls.push(`set ${key}`);
      return later(() => void items.set(key, value));
    },
    removeItem: (key) => {
      calls.push(`remove ${key}`);
      return later(() => void items.delete(key));
    },
  };
  return {
    storage,
    items,
    calls,
    fail: (error: Error | undefined) => {
      failure = error;
    },
    holdReads: (): (() => void) => {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

const saved = (value: string | null | undefined = localStorage.getItem('rx-rest')): PersistedState =>
  JSON.parse(value!) as PersistedState;

const titleOf = (controller: Controller, id: number) => controller.get(Todo, { id })?.title;

/** A save made by a first app: todos 1..4 fetched, then the app closed (its teardown saved them). */
async function saveOfFirstApp(options: { version?: number } = {}) {
  localStorage.clear();
  const first = newController({ managers: [(c) => persistOn(c, { storage: localStorage, ...options })] });
  await first.fetch(TodoResource.getList, {});
  first.dispose();
  fake.requests.length = 0;
  return localStorage.getItem('rx-rest')!;
}

describe('restore on start', () => {
  it('a synchronous storage restores inside persist(): observers read the data with no request', async () => {
    await saveOfFirstApp();
    const controller = newController({ managers: [(c) => persistOn(c, { storage: localStorage })] });
    expect(titleOf(controller, 1)).toBe('todo 1'); // before any await

    const list = record(controller.observe(TodoResource.getList, {}));
    await flush(10);
    expect(list.last()).toMatchObject({ loading: false, fetching: false });
    expect(list.last().data?.map((todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(list.last().data?.[0]).toBeInstanceOf(Todo);
    expect(fake.requests).toEqual([]);
    list.unsubscribe();
    controller.dispose();
    expect(warn).not.toHaveBeenCalled();
  });

  it('restoring is no change to save: nothing is written until the app changes something', async () => {
    await saveOfFirstApp();
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    persistOn(controller, { storage });
    expect(titleOf(controller, 1)).toBe('todo 1');
    await tick(5000);
    expect(writes).toHaveLength(0);
    controller.set(Todo, { id: 1, title: 'changed' });
    await tick(1000);
    expect(writes).toHaveLength(1);
  });

  it('`restored` says whether a save was restored', async () => {
    const empty = newController();
    await expect(persistOn(empty, { storage: localStorage }).restored).resolves.toBe(false);
    await saveOfFirstApp();
    const controller = newController();
    await expect(persistOn(controller, { storage: localStorage }).restored).resolves.toBe(true);
  });

  it('`restored` is false when the save was read but nothing of it was kept (a reset before persist started)', async () => {
    await saveOfFirstApp();
    await flush(5); // the reset comes after the save's times
    const controller = newController();
    controller.resetEntireStore();
    await expect(persistOn(controller, { storage: localStorage }).restored).resolves.toBe(false);
    expect(titleOf(controller, 1)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it('`restored` is false when every value of the save lost to newer data already in the store', async () => {
    await saveOfFirstApp();
    await flush(5);
    const controller = newController();
    await controller.fetch(TodoResource.getList, {});
    controller.set(Todo, { id: 1, title: 'newer' });
    await expect(persistOn(controller, { storage: localStorage }).restored).resolves.toBe(false);
    expect(titleOf(controller, 1)).toBe('newer');
  });

  it('saves an envelope: format, version, savedAt and takeSnapshot(controller)', async () => {
    useFakeClock();
    vi.setSystemTime(new Date('2025-03-01T10:00:00Z'));
    const controller = newController();
    persistOn(controller, { storage: localStorage, version: 'v2', key: 'todo-app' });
    controller.setResponse(TodoResource.get, { id: 7 }, { id: 7, title: 'seven' });
    await tick(1000);
    const envelope = saved(localStorage.getItem('todo-app'));
    expect(envelope).toEqual({
      format: 'rx-rest',
      version: 'v2',
      savedAt: Date.parse('2025-03-01T10:00:01Z'), // when it was saved: a second after the change
      state: JSON.parse(JSON.stringify(takeSnapshot(controller))) as StateSnapshot,
    });
    expect(Object.keys(envelope.state.entities.Todo!)).toEqual(['7']);
    expect(localStorage.getItem('rx-rest')).toBeNull();
  });

  it('an asynchronous storage restores when it answers, and `restored` settles then', async () => {
    const async = asyncStorage();
    async.items.set('rx-rest', await saveOfFirstApp());
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    expect(titleOf(controller, 1)).toBeUndefined();
    await expect(stop.restored).resolves.toBe(true);
    expect(titleOf(controller, 1)).toBe('todo 1');
    expect(peekQuery(controller, TodoResource.getList, {}).data).toHaveLength(4);
    expect(fake.requests).toEqual([]);
    stop();
  });

  it('data fetched while an asynchronous restore waits is newer and wins; the rest is restored; then both are saved', async () => {
    const async = asyncStorage();
    async.items.set('rx-rest', await saveOfFirstApp());
    fake.todos.get(1)!.title = 'renamed on the server';
    const release = async.holdReads();
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage, throttle: 10 });
    await controller.fetch(TodoResource.get, { id: 1 }); // answered before the storage
    await new Promise((resolve) => setTimeout(resolve, 50)); // past the throttle window
    expect(async.calls).toEqual(['get rx-rest']); // no save before the restore
    release();
    await stop.restored;
    expect(titleOf(controller, 1)).toBe('renamed on the server');
    expect(titleOf(controller, 2)).toBe('todo 2');
    await vi.waitFor(() => expect(async.calls).toEqual(['get rx-rest', 'set rx-rest']));
    await stop.flush();
    const state = saved(async.items.get('rx-rest')).state;
    expect((state.entities.Todo!['1'] as { title: string }).title).toBe('renamed on the server');
    expect(Object.keys(state.entities.Todo!).sort()).toEqual(['1', '2', '3', '4']);
    stop();
    expect(warn).not.toHaveBeenCalled();
  });

  it('a todo deleted while an asynchronous restore waits stays deleted, also once its record was collected', async () => {
    const async = asyncStorage();
    async.items.set('rx-rest', await saveOfFirstApp());
    const release = async.holdReads();
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage, throttle: 10 });
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.delete, { id: 1 }); // answered before the storage
    controller.gc(); // nothing needs the deleted record's mark any more
    release();
    expect(await stop.restored).toBe(false); // everything in the save is older than what the page fetched
    expect(controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data).toBeUndefined();
    expect(titleOf(controller, 2)).toBe('todo 2');
    expect(peekQuery(controller, TodoResource.getList, {}).data?.map((todo) => todo.id)).toEqual([2, 3, 4]);
    controller.set(Todo, { id: 2, title: 'saved after' });
    await stop.flush();
    expect(Object.keys(saved(async.items.get('rx-rest')).state.entities.Todo!).sort()).toEqual(['2', '3', '4']);
  });

  it('once the save is read, a deleted todo’s mark is collected while a change waits to be saved (the save holds no marks)', async () => {
    const clock = { now: 1_000 };
    const controller = newController({ gcTime: 60_000, now: () => clock.now });
    const stop = persistOn(controller, { throttle: 60_000 });
    await stop.restored;
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.delete, { id: 1 }); // saved at the end of the throttle window
    expect(controller.getState().entities.Todo?.['1']).toBe(INVALID);
    clock.now += 20_000;
    controller.gc();
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    expect(peekQuery(controller, TodoResource.getList, {}).data?.map((todo) => todo.id)).toEqual([2, 3, 4]);
    await stop.flush();
    expect(Object.keys(saved().state.entities.Todo!).sort()).toEqual(['2', '3', '4']);
  });

  it('a todo deleted before a teardown that came before the restore is not brought back by the merged save', async () => {
    const async = asyncStorage();
    async.items.set('rx-rest', await saveOfFirstApp());
    const release = async.holdReads();
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.delete, { id: 1 });
    controller.gc();
    stop(); // before the storage answered: the save and the state are merged
    release();
    await stop.restored;
    await vi.waitFor(() => expect(async.calls).toContain('set rx-rest'));
    await stop.flush();
    expect(Object.keys(saved(async.items.get('rx-rest')).state.entities.Todo!).sort()).toEqual(['2', '3', '4']);
  });
});

describe('saving, throttled', () => {
  it('saves at most once per window, the last change of the window included', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    persistOn(controller, { storage });
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'a' });
    await tick(300);
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'b' });
    controller.set(Todo, { id: 2, title: 'c' });
    await tick(600);
    expect(writes).toHaveLength(0);
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'd' });
    await tick(100); // 1000 ms after the first change
    expect(writes).toHaveLength(1);
    const state = saved(writes[0]).state;
    expect((state.entities.Todo!['1'] as { title: string }).title).toBe('d');
    expect((state.entities.Todo!['2'] as { title: string }).title).toBe('c');

    controller.set(Todo, { id: 2, title: 'e' });
    await tick(999);
    expect(writes).toHaveLength(1);
    await tick(1);
    expect(writes).toHaveLength(2);
    await tick(5000); // no change: no save
    expect(writes).toHaveLength(2);
  });

  it('a burst of 100 changes makes one write; `throttle` sets the window', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    persistOn(controller, { storage, throttle: 200 });
    for (let i = 0; i < 100; i++) controller.set(Todo, { id: 1, title: `title ${i}` });
    await tick(199);
    expect(writes).toHaveLength(0);
    await tick(1);
    expect(writes).toHaveLength(1);
    expect((saved(writes[0]).state.entities.Todo!['1'] as { title: string }).title).toBe('title 99');
  });

  it('saves the responses of real requests, and the teardown saves a pending change at once', async () => {
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage, throttle: 60_000 });
    await controller.fetch(TodoResource.get, { id: 3 });
    expect(writes).toHaveLength(0); // within the window
    stop();
    expect(writes).toHaveLength(1);
    expect(Object.keys(saved().state.entities.Todo!)).toEqual(['3']);
  });

  it('never saves optimistic layers, and an optimistic change alone is no save', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    persistOn(controller, { storage });
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await tick(1000);
    expect(writes).toHaveLength(1);
    fake.setLatency(5000);
    const patched = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'optimistic' });
    await tick(10);
    expect(stream.last().data?.title).toBe('optimistic'); // the layer is shown
    await tick(2000);
    expect(writes).toHaveLength(1); // no save for the layer
    controller.set(Todo, { id: 2, title: 'another change' }); // a real change while the layer is in flight
    await tick(1000);
    expect(writes).toHaveLength(2);
    expect((saved(writes[1]).state.entities.Todo!['1'] as { title: string }).title).toBe('todo 1');
    expect(saved(writes[1]).state).not.toHaveProperty('optimistic');
    await tick(3000);
    await patched;
    await tick(1000);
    expect((saved().state.entities.Todo!['1'] as { title: string }).title).toBe('optimistic');
    stream.unsubscribe();
  });

  it('never saves records marked INVALID: a deleted todo is not restored', async () => {
    const controller = newController();
    const stop = persistOn(controller, { storage: localStorage });
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.delete, { id: 2 });
    stop();
    const state = saved().state;
    expect(Object.keys(state.entities.Todo!).sort()).toEqual(['1', '3', '4']);
    expect(state).not.toHaveProperty('invalid');
    expect(JSON.stringify(state)).not.toContain('INVALID');

    const reloaded = newController();
    persistOn(reloaded, { storage: localStorage });
    expect(titleOf(reloaded, 2)).toBeUndefined();
    expect(titleOf(reloaded, 3)).toBe('todo 3');
  });

  it('a reset removes the save at once; later changes are saved again', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    persistOn(controller, { storage });
    controller.set(Todo, { id: 1, title: 'private' });
    await tick(1000);
    expect(localStorage.getItem('rx-rest')).not.toBeNull();
    controller.set(Todo, { id: 1, title: 'pending' });
    controller.resetEntireStore();
    expect(localStorage.getItem('rx-rest')).toBeNull();
    await tick(2000);
    expect(writes).toHaveLength(1); // the pending change went with the reset
    controller.set(Todo, { id: 5, title: 'after the reset' });
    await tick(1000);
    expect(Object.keys(saved().state.entities.Todo!)).toEqual(['5']);
  });

  it('`flush()` saves a pending change now and resolves when the asynchronous storage has it', async () => {
    const async = asyncStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    controller.set(Todo, { id: 1, title: 'flushed' });
    await stop.flush();
    expect(async.calls).toEqual(['get rx-rest', 'set rx-rest']);
    expect((saved(async.items.get('rx-rest')).state.entities.Todo!['1'] as { title: string }).title).toBe('flushed');
    stop();
  });

  it('the page being hidden (pagehide, visibilitychange) saves a pending change at once', () => {
    const added = [vi.spyOn(window, 'addEventListener'), vi.spyOn(document, 'addEventListener')];
    const removed = [vi.spyOn(window, 'removeEventListener'), vi.spyOn(document, 'removeEventListener')];
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage });
    controller.set(Todo, { id: 1, title: 'a' });
    window.dispatchEvent(new Event('pagehide'));
    expect(writes).toHaveLength(1);
    controller.set(Todo, { id: 1, title: 'b' });
    document.dispatchEvent(new Event('visibilitychange')); // still visible: no save
    expect(writes).toHaveLength(1);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockRestore();
    expect(writes).toHaveLength(2);
    stop();
    // the teardown removes the listeners it added
    const listeners = (spies: MockInstance[]) => spies.flatMap((spy) => spy.mock.calls.map((call) => call.slice(0, 2)));
    expect(listeners(added).map(([type]) => type)).toEqual(['pagehide', 'visibilitychange']);
    expect(listeners(removed)).toEqual(listeners(added));
    controller.set(Todo, { id: 1, title: 'c' });
    window.dispatchEvent(new Event('pagehide'));
    expect(writes).toHaveLength(2);
    for (const spy of [...added, ...removed]) spy.mockRestore();
  });
});

describe('teardown', () => {
  it('stops saving after saving the pending change; a second call does nothing', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage });
    controller.set(Todo, { id: 1, title: 'last' });
    stop();
    expect(writes).toHaveLength(1);
    expect((saved().state.entities.Todo!['1'] as { title: string }).title).toBe('last');
    stop();
    controller.set(Todo, { id: 1, title: 'after the teardown' });
    await tick(5000);
    expect(writes).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('as a manager: dispose() saves the pending change and ends it', async () => {
    useFakeClock();
    const { storage, writes } = countedLocalStorage();
    const controller = newController({ managers: [(c) => persistOn(c, { storage })] });
    await controller.fetch(TodoResource.get, { id: 4 });
    controller.dispose();
    expect(writes).toHaveLength(1);
    expect(Object.keys(saved().state.entities.Todo!)).toEqual(['4']);
    await tick(5000);
    expect(writes).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('before an asynchronous restore answered: the change and the save are merged, neither lost', async () => {
    const async = asyncStorage(30);
    async.items.set('rx-rest', await saveOfFirstApp());
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    controller.set(Todo, { id: 9, title: 'made before the storage answered' });
    controller.dispose();
    stop();
    await stop.flush();
    expect(async.calls).toEqual(['get rx-rest', 'set rx-rest']);
    const state = saved(async.items.get('rx-rest')).state;
    expect(Object.keys(state.entities.Todo!).sort()).toEqual(['1', '2', '3', '4', '9']);
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined(); // nothing restored into the stopped controller
    expect(warn).not.toHaveBeenCalled();
  });

  it('before an asynchronous restore answered, with no change: nothing restored, nothing written', async () => {
    const async = asyncStorage(30);
    async.items.set('rx-rest', await saveOfFirstApp());
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    stop();
    await expect(stop.restored).resolves.toBe(false);
    await stop.flush();
    expect(controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(async.calls).toEqual(['get rx-rest']);
  });

  it('before an asynchronous restore answered, after a reset: the old save is not brought back', async () => {
    const async = asyncStorage(30);
    async.items.set('rx-rest', await saveOfFirstApp());
    const release = async.holdReads();
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage });
    controller.resetEntireStore();
    controller.set(Todo, { id: 9, title: 'after the reset' });
    stop();
    await vi.waitFor(() => expect(async.items.has('rx-rest')).toBe(false)); // the reset removed the save
    release(); // the read, asked before the reset, answers the old save
    await stop.flush();
    expect(async.calls).toEqual(['get rx-rest', 'remove rx-rest', 'set rx-rest']);
    expect(Object.keys(saved(async.items.get('rx-rest')).state.entities.Todo!)).toEqual(['9']);
  });
});

describe('saves that do not fit, and failing storages: one warning, the store as it was', () => {
  /** A controller holding todo 1, persisted from `storage`; what it held before, and after. */
  async function persistedOver(raw: string, options: { version?: number; maxAge?: number } = {}) {
    localStorage.setItem('rx-rest', raw);
    const controller = newController();
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'in the store' });
    const before = takeSnapshot(controller);
    const restored = await persistOn(controller, { storage: localStorage, ...options }).restored;
    return { controller, before, restored };
  }

  const expectWarned = (pattern: RegExp) => {
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^rx-rest\/persist: /);
    expect(String(warn.mock.calls[0]![0])).toMatch(pattern);
  };

  it('another version: ignored and removed', async () => {
    const save = await saveOfFirstApp({ version: 1 });
    const { controller, before, restored } = await persistedOver(save, { version: 2 });
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/version 1, not 2/);
  });

  it('the same version is restored; a save without version is not restored by a versioned app', async () => {
    const save = await saveOfFirstApp({ version: 3 });
    expect((await persistedOver(save, { version: 3 })).restored).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    const unversioned = await saveOfFirstApp();
    expect((await persistedOver(unversioned, { version: 3 })).restored).toBe(false);
    expectWarned(/version undefined, not 3/);
  });

  it('older than maxAge: ignored and removed; a younger one is restored', async () => {
    useFakeClock();
    vi.setSystemTime(1_000_000);
    const save = await saveOfFirstApp();
    vi.setSystemTime(1_000_000 + 60_000);
    expect((await persistedOver(save, { maxAge: 60_000 })).restored).toBe(true);
    vi.setSystemTime(1_000_000 + 60_001);
    const { controller, before, restored } = await persistedOver(save, { maxAge: 60_000 });
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/60001 ms old, older than maxAge \(60000 ms\)/);
  });

  it('dated in the future (a clock that was ahead, or a forged save): restored, but stale and dated now at most', async () => {
    useFakeClock();
    const now = 1_000_000_000;
    vi.setSystemTime(now + 86_400_000); // the first app's clock is a day ahead
    const skewed = await saveOfFirstApp();
    // a save from now whose times were moved a year ahead
    vi.setSystemTime(now);
    const honest = JSON.parse(await saveOfFirstApp()) as PersistedState;
    const year = 365 * 86_400_000;
    const later = <M extends { date: number; fetchedAt: number; expiresAt: number }>(meta: M): M => ({
      ...meta,
      date: meta.date + year,
      fetchedAt: meta.fetchedAt + year,
      expiresAt: meta.expiresAt + year,
    });
    const forged = JSON.stringify({
      ...honest,
      state: {
        ...honest.state,
        meta: Object.fromEntries(Object.entries(honest.state.meta).map(([key, meta]) => [key, later(meta)])),
        entitiesMeta: Object.fromEntries(
          Object.entries(honest.state.entitiesMeta).map(([key, table]) => [
            key,
            Object.fromEntries(Object.entries(table).map(([pk, meta]) => [pk, later(meta)])),
          ]),
        ),
      },
    });
    for (const save of [skewed, forged]) {
      const { controller, restored } = await persistedOver(save, { maxAge: 60_000 });
      expect(restored).toBe(true);
      const list = controller.getResponse(TodoResource.getList, {});
      expect(list.data?.map((todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
      expect(list.stale).toBe(true);
      // what came from the save (todo 1 is also the store's own, fresh, answer)
      const state = takeSnapshot(controller);
      const todos = state.entitiesMeta.Todo!;
      for (const meta of [state.meta[TodoResource.getList.key({})]!, todos['2']!, todos['3']!, todos['4']!]) {
        expect(meta.date).toBeLessThanOrEqual(now);
        expect(meta.fetchedAt).toBeLessThanOrEqual(now);
        expect(meta.expiresAt).toBeLessThanOrEqual(now);
      }
      // shown while a refetch runs in the background
      const states = record(controller.observe(TodoResource.getList, {}));
      expect(states.last()).toMatchObject({ loading: false, fetching: true, stale: true });
      await tick(0);
      expect(fake.requests).toContain('GET /todos');
      expect(controller.getResponse(TodoResource.getList, {}).stale).toBe(false);
      fake.requests.length = 0;
      states.unsubscribe();
    }
  });

  it('past dates but an expiry years ahead (a forged or skewed save): fresh no longer than the endpoint gives its date', async () => {
    useFakeClock();
    const now = 1_000_000_000;
    vi.setSystemTime(now);
    const honest = JSON.parse(await saveOfFirstApp()) as PersistedState;
    const year = 365 * 86_400_000;
    const forged = JSON.stringify({
      ...honest,
      state: {
        ...honest.state,
        meta: Object.fromEntries(
          Object.entries(honest.state.meta).map(([key, meta]) => [key, { ...meta, expiresAt: meta.expiresAt + year }]),
        ),
      },
    });
    // two minutes later: past the list's dataExpiryLength (60 s) from the date it was fetched
    vi.setSystemTime(now + 120_000);
    const { controller, restored } = await persistedOver(forged);
    expect(restored).toBe(true);
    const list = controller.getResponse(TodoResource.getList, {});
    // (todo 1 is the store's own, newer, record)
    expect(list.data?.map((todo) => todo.title)).toEqual(['in the store', 'todo 2', 'todo 3', 'todo 4']);
    expect(list.stale).toBe(true);
    expect(list.expiresAt).toBeLessThanOrEqual(now + TodoResource.getList.dataExpiryLength);
    // shown while a refetch runs in the background
    const states = record(controller.observe(TodoResource.getList, {}));
    expect(states.last()).toMatchObject({ loading: false, fetching: true, stale: true });
    await tick(0);
    expect(fake.requests).toContain('GET /todos');
    states.unsubscribe();
  });

  it('an error with an expiry years ahead: it expires after the endpoint errorExpiryLength, and is fetched again', async () => {
    useFakeClock();
    const now = 1_000_000_000;
    vi.setSystemTime(now);
    localStorage.clear();
    const first = newController({ managers: [(c) => persistOn(c, { storage: localStorage })] });
    first.setError(TodoResource.get, { id: 2 }, Object.assign(new Error('down'), { status: 503 }));
    first.dispose();
    const honest = JSON.parse(localStorage.getItem('rx-rest')!) as PersistedState;
    const key = TodoResource.get.key({ id: 2 });
    const meta = honest.state.meta[key]!;
    expect(meta.expiresAt).toBe(now + TodoResource.get.errorExpiryLength);
    const forged = JSON.stringify({
      ...honest,
      state: { ...honest.state, meta: { [key]: { ...meta, expiresAt: meta.expiresAt + 365 * 86_400_000 } } },
    });
    vi.setSystemTime(now + 5_000);
    const { controller, restored } = await persistedOver(forged);
    expect(restored).toBe(true);
    expect(controller.getResponse(TodoResource.get, { id: 2 }).expiresAt).toBeLessThanOrEqual(
      now + TodoResource.get.errorExpiryLength,
    );
    fake.requests.length = 0;
    const states = record(controller.observe(TodoResource.get, { id: 2 }));
    await tick(0);
    expect(fake.requests).toContain('GET /todos/2');
    expect(states.last()).toMatchObject({ error: undefined });
    expect(states.last().data?.title).toBe('todo 2');
    states.unsubscribe();
  });

  it('corrupt (not JSON): ignored and removed', async () => {
    const { controller, before, restored } = await persistedOver('{"format":"rx-rest","sav');
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/corrupt/);
  });

  it.each([
    ['a JSON value of another app', '{"theme":"dark"}'],
    ['a number', '42'],
    ['an envelope of another format', '{"format":"other","savedAt":1,"state":{}}'],
    ['an envelope without savedAt', '{"format":"rx-rest","state":{"entities":{}}}'],
  ])('foreign (%s): ignored and removed', async (_, raw) => {
    const { controller, before, restored } = await persistedOver(raw);
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/is not an rx-rest save/);
  });

  it('an envelope whose state is no snapshot: ignored and removed', async () => {
    const raw = JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state: { rows: [1, 2] } });
    const { controller, before, restored } = await persistedOver(raw);
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/holds no state snapshot/);
  });

  it('a save whose times are not numbers (NaN after JSON is null): ignored and removed, naming the field', async () => {
    const save = JSON.parse(await saveOfFirstApp()) as PersistedState & {
      state: { entitiesMeta: Record<string, any> };
    };
    save.state.entitiesMeta.Todo['2'].fetchedAt = Number.NaN; // JSON writes null
    const { controller, before, restored } = await persistedOver(JSON.stringify(save));
    expect(restored).toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expectWarned(/cannot be restored \(restoreSnapshot: entitiesMeta\.Todo\.2\.fetchedAt: null is not a time/);
  });

  it('a storage that throws (private mode, quota): warned once, the app and the store go on', async () => {
    useFakeClock();
    const refused = (what: string) => () => {
      throw new DOMException(`${what} refused`, 'QuotaExceededError');
    };
    const storage: PersistStorage = {
      getItem: refused('read'),
      setItem: refused('write'),
      removeItem: refused('remove'),
    };
    const controller = newController();
    const stop = persistOn(controller, { storage });
    await expect(stop.restored).resolves.toBe(false);
    expectWarned(/could not read 'rx-rest' \(QuotaExceededError: read refused\)/);
    warn.mockClear();

    controller.set(Todo, { id: 1, title: 'kept' });
    await tick(1000);
    controller.set(Todo, { id: 2, title: 'kept too' });
    await tick(1000);
    controller.resetEntireStore();
    controller.set(Todo, { id: 3, title: 'after the reset' });
    expect(() => stop()).not.toThrow();
    expectWarned(/could not save the state under 'rx-rest' \(QuotaExceededError: write refused\)/);
    expect(titleOf(controller, 3)).toBe('after the reset');
    await expect(controller.fetch(TodoResource.get, { id: 4 })).resolves.toMatchObject({ title: 'todo 4' });
  });

  /** localStorage whose `setItem` throws a QuotaExceededError while `full` is set. */
  function fillableStorage() {
    const state = { full: false, writes: 0 };
    const storage: PersistStorage = {
      getItem: (key) => localStorage.getItem(key),
      setItem: (key, value) => {
        if (state.full) throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
        state.writes++;
        localStorage.setItem(key, value);
      },
      removeItem: (key) => localStorage.removeItem(key),
    };
    return { storage, state };
  }

  it('after one failed save (QuotaExceededError), flush() writes the change once storage works again', async () => {
    const { storage, state } = fillableStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage });
    await stop.restored;
    state.full = true;
    controller.set(Todo, { id: 1, title: 'saved later' });
    await stop.flush();
    expectWarned(/could not save the state under 'rx-rest' \(QuotaExceededError: the quota has been exceeded\)/);
    expect(localStorage.getItem('rx-rest')).toBeNull();

    state.full = false;
    await stop.flush();
    expect(state.writes).toBe(1);
    expect(saved().state.entities.Todo?.['1']).toMatchObject({ title: 'saved later' });
    await stop.flush(); // nothing pending any more
    expect(state.writes).toBe(1);
  });

  it('after one failed save, the teardown writes the change once storage works again', async () => {
    const { storage, state } = fillableStorage();
    const controller = newController();
    const stop = persistOn(controller, { storage, throttle: 10 });
    await stop.restored;
    state.full = true;
    controller.set(Todo, { id: 1, title: 'saved on teardown' });
    await stop.flush();
    expect(localStorage.getItem('rx-rest')).toBeNull();
    state.full = false;
    stop();
    expect(saved().state.entities.Todo?.['1']).toMatchObject({ title: 'saved on teardown' });
  });

  it('after a failed asynchronous save, flush() writes the change once the storage works again', async () => {
    const async = asyncStorage(5);
    const controller = newController();
    const stop = persistOn(controller, { storage: async.storage, throttle: 10 });
    await stop.restored;
    async.fail(new DOMException('the quota has been exceeded', 'QuotaExceededError'));
    controller.set(Todo, { id: 1, title: 'saved later' });
    await stop.flush();
    expect(async.items.has('rx-rest')).toBe(false);
    async.fail(undefined);
    await stop.flush();
    expect(saved(async.items.get('rx-rest')).state.entities.Todo?.['1']).toMatchObject({ title: 'saved later' });
    stop();
  });

  it('a reset whose removal of the save failed: the next flush writes the state after the reset over the old save', async () => {
    let refuse = false;
    const storage: PersistStorage = {
      getItem: (key) => localStorage.getItem(key),
      setItem: (key, value) => localStorage.setItem(key, value),
      removeItem: (key) => {
        if (refuse) throw new DOMException('the storage is locked', 'InvalidStateError');
        localStorage.removeItem(key);
      },
    };
    const controller = newController();
    const stop = persistOn(controller, { storage });
    await stop.restored;
    controller.set(Todo, { id: 1, title: 'before the reset' });
    await stop.flush();
    refuse = true;
    controller.resetEntireStore();
    refuse = false;
    await stop.flush();
    expect(saved().state.entities.Todo?.['1']).toBeUndefined();
    stop();
  });

  it('an asynchronous storage that rejects: warned, nothing rejects into the app, a later success warns again on failure', async () => {
    const async = asyncStorage(5);
    async.fail(new Error('the database is closed'));
    const controller = newController();
    controller.set(Todo, { id: 1, title: 'in the store' });
    const before = takeSnapshot(controller);
    const stop = persistOn(controller, { storage: async.storage, throttle: 10 });
    await expect(stop.restored).resolves.toBe(false);
    expect(takeSnapshot(controller)).toEqual(before);
    expectWarned(/could not read 'rx-rest' \(Error: the database is closed\)/);

    warn.mockClear();
    controller.set(Todo, { id: 2, title: 'x' });
    await expect(stop.flush()).resolves.toBeUndefined();
    controller.set(Todo, { id: 3, title: 'y' });
    await stop.flush();
    expectWarned(/could not save the state under 'rx-rest' \(Error: the database is closed\)/); // once

    async.fail(undefined);
    controller.set(Todo, { id: 4, title: 'z' });
    await stop.flush();
    expect(Object.keys(saved(async.items.get('rx-rest')).state.entities.Todo!)).toEqual(['1', '2', '3', '4']);
    expect(warn).toHaveBeenCalledTimes(1);

    async.fail(new Error('the disk is full'));
    controller.set(Todo, { id: 5, title: 'lost' });
    await stop.flush();
    expect(warn).toHaveBeenCalledTimes(2); // failing again after a success warns again
    expect(String(warn.mock.calls[1]![0])).toMatch(/the disk is full/);
    stop();
  });
});

describe('values JSON cannot write: a warning naming the entity and field, the store as it was', () => {
  it('a bigint in a record: the save fails with one warning naming it; the record keeps it; saves resume once it is gone', async () => {
    const controller = newController();
    const stop = persistOn(controller, { storage: localStorage });
    await stop.restored;
    controller.set(Todo, { id: 1, title: 'counted', amount: 10n } as never);
    controller.set(Todo, { id: 2, title: 'also' });
    await stop.flush();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /^rx-rest\/persist: could not save the state under 'rx-rest' \(TypeError: entities\.Todo\.1\.amount is a bigint/,
    );
    expect(localStorage.getItem('rx-rest')).toBeNull();
    expect((controller.get(Todo, { id: 1 }) as unknown as { amount: bigint }).amount).toBe(10n);

    controller.set(Todo, { id: 1, title: 'counted', amount: '10' } as never);
    await stop.flush();
    expect(saved().state.entities.Todo?.['1']).toMatchObject({ title: 'counted', amount: '10' });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('a function in a record: saved without it, with one warning naming the entity and field', async () => {
    const controller = newController();
    const stop = persistOn(controller, { storage: localStorage });
    await stop.restored;
    controller.set(Todo, { id: 3, title: 'with a callback', onOpen: () => 'opened' } as never);
    await stop.flush();
    controller.set(Todo, { id: 3, title: 'changed' });
    await stop.flush();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(
      /^rx-rest\/persist: entities\.Todo\.3\.onOpen is a function: JSON cannot write it/,
    );
    expect(saved().state.entities.Todo?.['3']).toMatchObject({ title: 'changed' });
    expect(typeof (controller.get(Todo, { id: 3 }) as unknown as { onOpen: unknown }).onOpen).toBe('function');
  });
});

describe('arguments that are wrong: a TypeError at the call, naming the argument', () => {
  it('a first argument that is no Controller', () => {
    for (const given of [undefined, {}, { actions$: null }]) {
      expect(() => persist(given as never, { storage: localStorage })).toThrow(TypeError);
      expect(() => persist(given as never, { storage: localStorage })).toThrow(
        /^persist\(controller, options\) expects a Controller as its first argument, got (undefined|object)/,
      );
    }
  });

  it.each([
    [
      'a storage without setItem',
      { storage: { getItem: () => null, removeItem: () => {} } },
      /options\.storage must have getItem, setItem and removeItem functions, got object/,
    ],
    [
      'a storage that is a string',
      { storage: 'localStorage' },
      /options\.storage must have getItem, setItem and removeItem functions, got string/,
    ],
    ['a maxAge in words', { maxAge: '1d' }, /options\.maxAge must be a number of ms \(0 or more\), got string/],
    ['a negative maxAge', { maxAge: -1 }, /options\.maxAge must be a number of ms \(0 or more\), got number/],
    ['a NaN throttle', { throttle: Number.NaN }, /options\.throttle must be a number of ms \(0 or more\), got number/],
  ])('%s: nothing read, nothing written, the store as it was', (_, options, message) => {
    localStorage.setItem('rx-rest', 'left alone');
    const controller = newController();
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'in the store' });
    const before = controller.getState();
    const start = () => persist(controller, { storage: localStorage, ...options } as never);
    expect(start).toThrow(TypeError);
    expect(start).toThrow(message);
    controller.set(Todo, { id: 2, title: 'later' });
    expect(localStorage.getItem('rx-rest')).toBe('left alone');
    expect(controller.getState().entities.Todo?.['1']).toBe(before.entities.Todo?.['1']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('the defaults and every documented form are accepted', () => {
    const controller = newController();
    for (const options of [{}, { key: 'k', version: 'v2', maxAge: Infinity, throttle: 0 }, { version: 3, maxAge: 0 }]) {
      const stop = persistOn(controller, { storage: localStorage, ...options });
      expect(typeof stop).toBe('function');
    }
  });
});
