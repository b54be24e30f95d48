/**
 * A snapshot restored before the page used an entity class (a persisted save restored as the controller starts, a
 * route's module loaded later) cannot be checked against that class's `static validator` at the restore: the class
 * is not known yet. Its records are checked when the class is first used instead: a record the validator refuses
 * is never served (it reads as missing), is dropped from the store with a warning naming it as a `SnapshotError`
 * does, and `actions$` reports the drop (so that `persist` saves the store without it); the valid records stay.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { persist } from '../../../adapters/persist/index.js';
import { Controller, Entity, RestEndpoint, restoreSnapshot, type ControllerAction } from '../../../core/index.js';
import { captureWarnings, nameIsText as nameCheck, useServer } from '../../fixtures/uncheckedRecords.js';

const API = 'http://unchecked-restore.test';
useServer(
  http.get(`${API}/gadgets/:id`, ({ params }) => HttpResponse.json({ id: Number(params.id), name: 'from the server' })),
);
const warn = captureWarnings();

/** A hand-written Standard Schema: `name` must be a string. */
const nameIsText = nameCheck();

let classes = 0;
/** A class of its own per test (plans are kept per class for the page's life), with the validator, not used yet. */
function freshGadget() {
  const key = `Gadget${++classes}`;
  class Gadget extends Entity {
    id = 0;
    name = '';
    pk() {
      return `${this.id}`;
    }
    static override key = key;
    static override validator = nameIsText;
  }
  return Gadget;
}

/** A save holding gadgets 1 (valid), 2 (its name a number) and 3 (valid), and the list of them, all fresh. */
function saveOf(key: string) {
  const now = Date.now();
  const meta = { date: now, fetchedAt: now, expiresAt: now + 60_000 };
  return {
    entities: { [key]: { 1: { id: 1, name: 'one' }, 2: { id: 2, name: 42 }, 3: { id: 3, name: 'three' } } },
    entitiesMeta: { [key]: { 1: meta, 2: meta, 3: meta } },
    endpoints: { [`GET ${API}/gadgets`]: ['1', '2', '3'] },
    meta: { [`GET ${API}/gadgets`]: meta },
  };
}

describe('records restored before their class was used', () => {
  it('the first read: a refused record is never served, then dropped with a warning; the valid ones stay', async () => {
    const Gadget = freshGadget();
    const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    restoreSnapshot(controller, saveOf(Gadget.key)); // the class is not known yet: taken as it is
    // a route's module, loaded later, defines the endpoint and reads the list
    const list = new RestEndpoint({ urlPrefix: API, path: '/gadgets', schema: [Gadget] });
    const seen: unknown[] = [];
    const subscription = controller.observe(list).subscribe((state) => seen.push(state.data));
    for (const data of seen)
      expect((data as InstanceType<typeof Gadget>[] | undefined)?.map((gadget) => gadget.id) ?? [1, 3]).toEqual([1, 3]);
    expect((seen.at(-1) as InstanceType<typeof Gadget>[]).map((gadget) => gadget.name)).toEqual(['one', 'three']);
    expect(controller.get(Gadget, { id: 2 })).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(
      new RegExp(`^SnapshotError: restoreSnapshot: entities\\.${Gadget.key}\\.2: .*expected a string`),
    );
    await Promise.resolve();
    const stored = controller.getState().entities[Gadget.key]!;
    expect(Object.keys(stored).sort()).toEqual(['1', '3']);
    expect(controller.getState().entitiesMeta[Gadget.key]!['2']).toBeUndefined();
    const drop = actions.at(-1)!;
    expect(drop.type).toBe('gc');
    expect(drop.changes?.entities).toEqual([[Gadget.key, '2']]);
    expect((seen.at(-1) as InstanceType<typeof Gadget>[]).map((gadget) => gadget.id)).toEqual([1, 3]);
    subscription.unsubscribe();
    controller.dispose();
  });

  it('the first write: a response of the class checks them too; the refused record is then fetched', async () => {
    const Gadget = freshGadget();
    const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    restoreSnapshot(controller, saveOf(Gadget.key));
    const get = new RestEndpoint({ urlPrefix: API, path: '/gadgets/:id', schema: Gadget });
    // the first use: gadget 1's response (valid) is written; gadget 2 of the save is refused
    expect((await controller.fetch(get, { id: 1 })).name).toBe('from the server');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain(`entities.${Gadget.key}.2`);
    await Promise.resolve();
    expect(Object.keys(controller.getState().entities[Gadget.key]!).sort()).toEqual(['1', '3']);
    // gadget 2 reads as missing: fetched from the server
    expect((await controller.fetch(get, { id: 2 })).name).toBe('from the server');
    expect(controller.get(Gadget, { id: 2 })?.name).toBe('from the server');
    controller.dispose();
  });

  it('every controller that restored the records has them checked; a class with no refused record reads on as before', async () => {
    const Gadget = freshGadget();
    const first = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    const second = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    restoreSnapshot(first, saveOf(Gadget.key));
    restoreSnapshot(second, saveOf(Gadget.key));
    expect(first.get(Gadget, { id: 2 })).toBeUndefined(); // the first use, through the first controller
    expect(second.get(Gadget, { id: 2 })).toBeUndefined();
    expect(second.get(Gadget, { id: 3 })?.name).toBe('three');
    expect(warn).toHaveBeenCalledTimes(2);
    await Promise.resolve();
    for (const controller of [first, second])
      expect(Object.keys(controller.getState().entities[Gadget.key]!).sort()).toEqual(['1', '3']);

    // a save whose records all pass: nothing dropped, nothing warned
    const Clean = freshGadget();
    const save = saveOf(Clean.key);
    (save.entities[Clean.key] as Record<string, unknown>)['2'] = { id: 2, name: 'two' };
    const third = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    restoreSnapshot(third, save);
    expect(third.get(Clean, { id: 2 })?.name).toBe('two');
    await Promise.resolve();
    expect(Object.keys(third.getState().entities[Clean.key]!)).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(2);
    for (const controller of [first, second, third]) controller.dispose();
  });

  it('once the class is used, a later restore is checked at once (a SnapshotError, nothing written), as before', () => {
    const Gadget = freshGadget();
    const controller = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    controller.set(Gadget, { id: 9, name: 'nine' });
    const before = controller.getState();
    expect(() => restoreSnapshot(controller, saveOf(Gadget.key))).toThrow(/entities\.Gadget\d+\.2/);
    expect(controller.getState()).toBe(before);
    controller.dispose();
  });

  it('a persisted save: restored before any query, its refused record is never shown and the next save leaves it out', async () => {
    const Gadget = freshGadget();
    const items = new Map<string, string>([
      ['rx-rest', JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state: saveOf(Gadget.key) })],
    ]);
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    const stops: (() => void)[] = [];
    const controller = new Controller({
      retry: 0,
      environment: {},
      gcTime: Infinity,
      managers: [(c) => void stops.push(persist(c, { storage, throttle: 0 }))],
    });
    const list = new RestEndpoint({ urlPrefix: API, path: '/gadgets', schema: [Gadget] });
    const states = controller.observe(list);
    const seen: (number[] | undefined)[] = [];
    const subscription = states.subscribe((state) => seen.push(state.data?.map((gadget) => gadget.id)));
    expect(seen.every((ids) => ids === undefined || ids.join() === '1,3')).toBe(true);
    expect(seen.at(-1)).toEqual([1, 3]);
    // the save is written after the refused record's removal (a throttle of 0: the next task, later on a loaded machine)
    await vi.waitFor(() => {
      const saved = JSON.parse(items.get('rx-rest')!) as { state: ReturnType<typeof saveOf> };
      expect(Object.keys(saved.state.entities[Gadget.key]!).sort()).toEqual(['1', '3']);
    });
    expect(warn.mock.calls.some(([text]) => String(text).includes(`entities.${Gadget.key}.2`))).toBe(true);
    subscription.unsubscribe();
    for (const stop of stops) stop();
    controller.dispose();
  });
});
