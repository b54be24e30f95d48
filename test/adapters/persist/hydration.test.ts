// @vitest-environment jsdom
/**
 * The add-ons while a server-rendered page hydrates (`holdHydration`): `persist` reads its save and
 * `syncTabs` applies other tabs' state only once the hold is released, so the page's first render reads
 * the server's data; then the restore keeps what is newer. HTTP through the msw todo server.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  Controller,
  afterHydration,
  holdHydration,
  isHydrating,
  restoreSnapshot,
  takeSnapshot,
  type StateSnapshot,
} from '../../../core/index.js';
import { persist, type PersistedState } from '../../../adapters/persist/index.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource, flush, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();

let warn: MockInstance<typeof console.warn>;
const cleanups: (() => void)[] = [];
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  warn.mockRestore();
  localStorage.clear();
  expect(isHydrating()).toBe(false);
});

/** A hold released after the test in any case. */
const hold = () => {
  const release = holdHydration();
  cleanups.push(release);
  return release;
};

const newController = (managers: ((c: Controller) => () => void)[] = []) => {
  const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity, managers });
  cleanups.push(() => controller.dispose());
  return controller;
};

/** A save of todo 1 with `title`, fetched `ageMs` ago (negative: in the future, another tab's newer save). */
async function saveOf(title: string, ageMs: number): Promise<StateSnapshot> {
  const source = newController();
  await source.fetch(TodoResource.get, { id: 1 });
  const state = takeSnapshot(source);
  const fetchedAt = Date.now() - ageMs;
  const shifted = structuredClone(state) as StateSnapshot & {
    entities: Record<string, Record<string, { title: string }>>;
    entitiesMeta: Record<string, Record<string, { date: number; fetchedAt: number; expiresAt: number }>>;
    meta: Record<string, { date: number; fetchedAt: number; expiresAt: number }>;
  };
  for (const record of Object.values(shifted.entities.Todo!)) record.title = title;
  for (const meta of [...Object.values(shifted.entitiesMeta.Todo!), ...Object.values(shifted.meta)]) {
    meta.date = meta.fetchedAt = fetchedAt;
    meta.expiresAt = fetchedAt + 60_000;
  }
  localStorage.setItem(
    'rx-rest',
    JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state: shifted } satisfies PersistedState),
  );
  fake.requests.length = 0;
  return shifted;
}

const titleOf = (controller: Controller) => controller.get(Todo, { id: 1 })?.title;

describe('holdHydration and afterHydration', () => {
  it('runs at once without a hold, and after the last release with holds', () => {
    const runs: string[] = [];
    afterHydration(() => runs.push('now'));
    expect(runs).toEqual(['now']);
    const first = hold();
    const second = hold();
    expect(isHydrating()).toBe(true);
    afterHydration(() => runs.push('later'));
    const cancel = afterHydration(() => runs.push('cancelled'));
    cancel();
    first();
    first(); // a second release of the same hold does nothing
    expect(runs).toEqual(['now']);
    second();
    expect(runs).toEqual(['now', 'later']);
    expect(isHydrating()).toBe(false);
  });
});

describe('persist while a server-rendered page hydrates', () => {
  it('reads the save once the page is hydrated: the first render reads the server data', async () => {
    await saveOf('saved in this browser', 5_000); // fresh: without the hold, the page would render it
    const release = hold();
    const controller = newController();
    const stop = persist(controller, { storage: localStorage });
    cleanups.push(stop);
    expect(titleOf(controller)).toBeUndefined(); // nothing restored during hydration
    await controller.fetch(TodoResource.get, { id: 1 }); // what the server rendered (newer)
    const serverTitle = fake.todos.get(1)!.title;
    expect(titleOf(controller)).toBe(serverTitle);
    release();
    expect(await stop.restored).toBe(false); // nothing kept: the older save lost to the newer server data
    expect(titleOf(controller)).toBe(serverTitle);
    expect(fake.requests).toEqual(['GET /todos/1']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('applies a newer save after the hydration (the restore rule: newest wins)', async () => {
    await saveOf('newer, from another tab', -60_000);
    const release = hold();
    const controller = newController();
    const ours = persist(controller, { storage: localStorage });
    cleanups.push(ours);
    await controller.fetch(TodoResource.get, { id: 1 });
    expect(titleOf(controller)).toBe(fake.todos.get(1)!.title); // the page hydrates this
    let settled = false;
    void ours.restored.then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    release();
    expect(await ours.restored).toBe(true);
    expect(titleOf(controller)).toBe('newer, from another tab');
  });

  it('a teardown during the hydration keeps both the save and the state of the page', async () => {
    await saveOf('saved', 5_000);
    localStorage.setItem(
      'rx-rest',
      localStorage
        .getItem('rx-rest')!
        .replace('"Todo":{"1":', '"Todo":{"99":{"id":99,"userId":1,"title":"other","completed":false},"1":'),
    );
    hold();
    const controller = newController();
    const stop = persist(controller, { storage: localStorage, throttle: 0 });
    await controller.fetch(TodoResource.get, { id: 2 });
    stop();
    expect(await stop.restored).toBe(false);
    await flush();
    const merged = new Controller({ environment: {}, gcTime: Infinity });
    restoreSnapshot(merged, (JSON.parse(localStorage.getItem('rx-rest')!) as PersistedState).state);
    expect(merged.get(Todo, { id: 2 })?.title).toBe(fake.todos.get(2)!.title);
    expect(merged.get(Todo, { id: 99 })?.title).toBe('other');
    merged.dispose();
  });
});

describe('syncTabs while a server-rendered page hydrates', () => {
  it('applies what another tab sends once the page is hydrated', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = (port: MessagePort): SyncChannel => ({
      postMessage: (message) => port.postMessage(message),
      close: () => port.close(),
      addEventListener: (_type, listener) => port.addEventListener('message', listener as never),
      removeEventListener: (_type, listener) => port.removeEventListener('message', listener as never),
    });
    port1.start();
    port2.start();
    cleanups.push(() => (port1.close(), port2.close()));
    const other = newController();
    cleanups.push(syncTabs(other, { channel: channel(port1) }));
    const release = hold();
    const controller = newController();
    cleanups.push(syncTabs(controller, { channel: channel(port2) }));
    await other.fetch(TodoResource.get, { id: 3 });
    await vi.waitFor(() => expect(warn).not.toHaveBeenCalled());
    await flush(20);
    expect(controller.get(Todo, { id: 3 })).toBeUndefined(); // held during the hydration
    release();
    expect(controller.get(Todo, { id: 3 })?.title).toBe(fake.todos.get(3)!.title);
  });
});
