// @vitest-environment jsdom
/**
 * Review 14 of `rx-rest/persist` (API.md "Add-on entry points"; docs/addons.md "Teardown": the teardown saves
 * a pending change, and nothing is lost): a controller disposed and made again at once (a logout and login, a
 * hot module reload, a framework remounting the root) on an asynchronous storage that keeps the order of its
 * operations, as IndexedDB does with its transactions (idb-keyval). The first controller's last change must
 * reach the second, and the second's reset must not be undone by the first's last save.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { persist, type PersistStorage, type Persistence } from '../../../adapters/persist/index.js';
import { PlainTodo } from '../../fixtures/entities.js';
import { todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const getTodo = todoEndpoint('http://review14-persist-recreate.test');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { cleanups } = useAddonTest();

/** An IndexedDB-like storage: operations run one after another in the order they were called, each taking `ms`. */
function orderedStorage(ms = 30) {
  const items = new Map<string, string>();
  const log: string[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const op = <T>(name: string, run: () => T): Promise<T> => {
    const done = queue.then(() => sleep(ms)).then(() => (log.push(name), run()));
    queue = done.catch(() => undefined);
    return done;
  };
  const storage: PersistStorage = {
    getItem: (key) => op('get', () => items.get(key) ?? null),
    setItem: (key, value) => op('set', () => void items.set(key, value)),
    removeItem: (key) => op('remove', () => void items.delete(key)),
  };
  const saved = () => {
    const raw = items.get('rx-rest');
    return raw === undefined ? undefined : Object.keys(JSON.parse(raw).state.entities.PlainTodo ?? {});
  };
  return { items, log, storage, saved };
}

/** A controller persisted on `storage` as a manager (the usual set-up), and its persistence. */
function persisted(storage: PersistStorage) {
  let persistence!: Persistence;
  const controller = new Controller({
    environment: {},
    gcTime: Infinity,
    managers: [(c) => (persistence = persist(c, { storage, throttle: 0 }))],
  });
  cleanups.push(() => controller.dispose());
  return { controller, persistence };
}

describe('persist: a controller disposed and made again while a save is being written', () => {
  it('the new controller restores the last change of the old one, and its saves keep it', async () => {
    const { storage, saved } = orderedStorage();
    const old = persisted(storage);
    await old.persistence.restored;
    old.controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await sleep(10); // the save holding todo 1 is being written
    old.controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    old.controller.dispose(); // its teardown saves todo 2 (after the write in flight)
    const next = persisted(storage);
    await expect(next.persistence.restored).resolves.toBe(true);
    expect(next.controller.get(PlainTodo, { id: 1 })?.title).toBe('one');
    expect(next.controller.get(PlainTodo, { id: 2 })?.title).toBe('two');
    next.controller.setResponse(getTodo, { id: 3 }, todo(3, 'three'));
    await next.persistence.flush();
    expect(saved()).toEqual(['1', '2', '3']);
  });

  it('a reset (a logout) in the new controller before its restore: the old controller’s last save does not come back', async () => {
    const { storage, saved, items } = orderedStorage();
    const old = persisted(storage);
    await old.persistence.restored;
    old.controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await sleep(10);
    old.controller.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    old.controller.dispose();
    const next = persisted(storage);
    next.controller.resetEntireStore(); // removes the save
    await expect(next.persistence.restored).resolves.toBe(false);
    await next.persistence.flush();
    await sleep(100); // every write of the old controller has landed
    expect(items.has('rx-rest')).toBe(false);
    expect(next.controller.get(PlainTodo, { id: 1 })).toBeUndefined();
    expect(saved()).toBeUndefined();
    // a third start finds nothing either
    const third = persisted(storage);
    await expect(third.persistence.restored).resolves.toBe(false);
    expect(third.controller.get(PlainTodo, { id: 2 })).toBeUndefined();
  });
});
