// @vitest-environment jsdom
/**
 * Review 15 of `rx-rest/persist`: the times of a save are on the controller's clock (`new Controller({ now })`),
 * the clock its requests are dated by: `savedAt`, the age `maxAge` is measured with, and the "dated after now"
 * check of a save's meta. A save made on `Date.now()` while the controller's clock is elsewhere (a clock synced
 * to the server, a test's clock) would be taken as too old, or as dated after now, or not.
 */
import { describe, expect, it } from 'vitest';
import { Controller, takeSnapshot } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { PlainTodo } from '../../fixtures/entities.js';
import { todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const getTodo = todoEndpoint('http://review15-persist-clock.test');
const DAY = 24 * 3600_000;

const { cleanups } = useAddonTest();

function memoryStorage(initial?: string) {
  const values = new Map<string, string>(initial === undefined ? [] : [['clock', initial]]);
  const storage: PersistStorage = {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
  return { storage, values };
}

function started(storage: PersistStorage, now: () => number, maxAge?: number) {
  const controller = new Controller({ environment: {}, gcTime: Infinity, now });
  const stop = persist(controller, { storage, key: 'clock', throttle: 0, maxAge });
  cleanups.push(() => (stop(), controller.dispose()));
  return { controller, stop };
}

describe("persist: the controller's clock", () => {
  it('dates a save by the controller clock', async () => {
    const { storage, values } = memoryStorage();
    const at = Date.now() - 3 * DAY;
    const { controller, stop } = started(storage, () => at);
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await stop.flush();
    expect(JSON.parse(values.get('clock')!).savedAt).toBe(at);
  });

  it('measures maxAge on the controller clock', async () => {
    const source = new Controller({ environment: {}, gcTime: Infinity, now: () => Date.now() - 600_000 });
    source.setResponse(getTodo, { id: 1 }, todo(1, 'ten minutes old by the system clock'));
    const save = { format: 'rx-rest', savedAt: Date.now() - 600_000, state: takeSnapshot(source) };
    const { storage, values } = memoryStorage(JSON.stringify(save));
    // the controller's clock: three days ahead of the system's, so the save is three days old
    const { controller, stop } = started(storage, () => Date.now() + 3 * DAY, DAY);
    expect(await stop.restored).toBe(false);
    expect(controller.getResponse(getTodo, { id: 1 }).data).toBeUndefined();
    expect(values.has('clock')).toBe(false); // ignored and removed
  });

  it('a save made ten seconds before on the controller clock is restored fresh, not as dated after now', async () => {
    const at = Date.now() - 3 * DAY;
    const source = new Controller({ environment: {}, gcTime: Infinity, now: () => at - 10_000 });
    source.setResponse(getTodo, { id: 1 }, todo(1, 'ten seconds old'));
    const save = { format: 'rx-rest', savedAt: at - 10_000, state: takeSnapshot(source) };
    const { storage } = memoryStorage(JSON.stringify(save));
    const { controller, stop } = started(storage, () => at, DAY);
    expect(await stop.restored).toBe(true);
    const read = controller.getResponse(getTodo, { id: 1 });
    expect((read.data as PlainTodo).title).toBe('ten seconds old');
    expect(read).toMatchObject({ stale: false, invalid: false });
  });

  it('a save dated after the controller clock is restored stale', async () => {
    const at = Date.now() - 3 * DAY;
    const source = new Controller({ environment: {}, gcTime: Infinity }); // the system's clock: ahead of `at`
    source.setResponse(getTodo, { id: 1 }, todo(1, 'from the future'));
    const save = { format: 'rx-rest', savedAt: Date.now(), state: takeSnapshot(source) };
    const { storage } = memoryStorage(JSON.stringify(save));
    const { controller, stop } = started(storage, () => at);
    expect(await stop.restored).toBe(true);
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ stale: true });
    expect(controller.getState().meta[getTodo.key({ id: 1 })]!.date).toBeLessThanOrEqual(at);
  });
});
