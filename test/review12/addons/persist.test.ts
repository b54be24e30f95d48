// @vitest-environment jsdom
/**
 * Outside review of `rx-rest/persist` (API.md "Add-on entry points"; its JSDoc and docs/addons.md), as a
 * user of TanStack Query's persisters would test it: throttling, hostile or corrupt saves, quota errors,
 * versions, a storage that never answers, disposal. Each test asserts what the contract says.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Controller, RestEndpoint, takeSnapshot, type ControllerOptions } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { PlainTodo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review12-persist.test',
  path: '/todos/:id',
  schema: PlainTodo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: 1, title, completed: false });

let warn: MockInstance<typeof console.warn>;
const cleanups: (() => void)[] = [];
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const newController = (options: ControllerOptions = {}) => {
  const c = new Controller({ retry: 0, environment: {}, gcTime: Infinity, ...options });
  cleanups.push(() => c.dispose());
  return c;
};

/** A synchronous storage over a Map, counting its calls. */
function mapStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const calls: string[] = [];
  const storage: PersistStorage = {
    getItem: (key) => (calls.push(`get ${key}`), items.get(key) ?? null),
    setItem: (key, value) => void (calls.push(`set ${key}`), items.set(key, value)),
    removeItem: (key) => void (calls.push(`remove ${key}`), items.delete(key)),
  };
  return { items, calls, storage };
}

/** A save of a controller holding `todos`, as `persist` writes it. */
function saveOf(todos: { id: number; title: string }[], extra: object = {}) {
  const c = new Controller({ environment: {} });
  for (const t of todos) c.setResponse(getTodo, { id: t.id }, todo(t.id, t.title));
  const state = takeSnapshot(c);
  c.dispose();
  return { format: 'rx-rest', savedAt: Date.now(), state, ...extra };
}

describe('persist: a storage that never answers', () => {
  it('`restored` settles false when the teardown comes first (it never rejects, never hangs)', async () => {
    const storage: PersistStorage = {
      getItem: () => new Promise<string | null>(() => {}),
      setItem: () => new Promise<void>(() => {}),
      removeItem: () => new Promise<void>(() => {}),
    };
    const c = newController();
    const stop = persist(c, { storage });
    stop();
    const outcome = await Promise.race([stop.restored, new Promise((resolve) => setTimeout(resolve, 200, 'hung'))]);
    expect(outcome).toBe(false);
  });
});

describe('persist: throttle', () => {
  it('throttle: Infinity saves no change by the timer (only flush, the page hidden, the teardown)', async () => {
    vi.useFakeTimers();
    const { items, calls, storage } = mapStorage();
    const c = newController();
    const stop = persist(c, { storage, throttle: Infinity });
    cleanups.push(stop);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.filter((call) => call.startsWith('set'))).toEqual([]);
    await stop.flush();
    expect(items.get('rx-rest')).toContain('"one"');
  });

  it('a throttle longer than a timer can wait (2^31 ms) does not save at once either', async () => {
    vi.useFakeTimers();
    const { calls, storage } = mapStorage();
    const c = newController();
    const stop = persist(c, { storage, throttle: 2 ** 31 + 10 });
    cleanups.push(stop);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.filter((call) => call.startsWith('set'))).toEqual([]);
  });

  it('a throttle that is NaN is a TypeError naming it', () => {
    const c = newController();
    expect(() => persist(c, { storage: mapStorage().storage, throttle: NaN })).toThrow(TypeError);
    expect(() => persist(c, { storage: mapStorage().storage, throttle: NaN })).toThrow(/throttle/);
    expect(() => persist(c, { storage: mapStorage().storage, maxAge: NaN })).toThrow(/maxAge/);
  });
});

describe('persist: hostile and corrupt saves', () => {
  const hostile = (state: unknown) => JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state });

  it.each([
    [
      'entities holding __proto__ and constructor tables',
      '{"entities":{"__proto__":{"1":{"polluted":true}},"constructor":{"x":{"polluted":true}}},"endpoints":{},"meta":{},"entitiesMeta":{}}',
    ],
    [
      'a __proto__ endpoint key and meta',
      '{"entities":{},"endpoints":{"__proto__":{"polluted":true}},"meta":{"__proto__":{"date":1,"expiresAt":2,"polluted":true}},"entitiesMeta":{"__proto__":{"polluted":true}}}',
    ],
  ])('%s: nothing reaches Object.prototype; the app goes on', async (_, json) => {
    const { storage } = mapStorage({ 'rx-rest': `{"format":"rx-rest","savedAt":${Date.now()},"state":${json}}` });
    const c = newController();
    const stop = persist(c, { storage, throttle: 0 });
    cleanups.push(stop);
    await stop.restored;
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    expect(c.get(PlainTodo, { id: 1 })?.title).toBe('one');
    await stop.flush();
  });

  it.each([
    ['a record that is a string', { PlainTodo: { '1': 'not a record' } }],
    ['a record that is a number', { PlainTodo: { '1': 42 } }],
    ['a record that is an array', { PlainTodo: { '1': [1, 2] } }],
    ['a table that is an array', { PlainTodo: [{ id: 1 }] }],
    ['a table that is null', { PlainTodo: null }],
  ])('%s: reading it never throws into the app; a fetch replaces it', async (_, entities) => {
    const good = saveOf([{ id: 1, title: 'one' }]);
    const forged = { ...good, state: { ...good.state, entities: { ...entities } } };
    const { storage } = mapStorage({ 'rx-rest': JSON.stringify(forged) });
    const c = newController();
    const stop = persist(c, { storage });
    cleanups.push(stop);
    await stop.restored;
    const states: unknown[] = [];
    const sub = c.observe(getTodo, { id: 1 }).subscribe({ next: (s) => states.push(s), error: (e) => states.push(e) });
    cleanups.push(() => sub.unsubscribe());
    expect(() => c.get(PlainTodo, { id: 1 })).not.toThrow();
    expect(states.every((s) => !(s instanceof Error))).toBe(true);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'fetched'));
    expect(c.get(PlainTodo, { id: 1 })?.title).toBe('fetched');
  });

  it('a forged save holding optimistic layers restores none of them', async () => {
    const good = saveOf([{ id: 1, title: 'one' }]);
    const forged = {
      ...good,
      state: {
        ...good.state,
        optimistic: [{ key: 'x', fetchedAt: Date.now(), entities: { PlainTodo: { '1': { id: 1, title: 'forged' } } } }],
      },
    };
    const { storage } = mapStorage({ 'rx-rest': JSON.stringify(forged) });
    const c = newController();
    const stop = persist(c, { storage });
    cleanups.push(stop);
    await stop.restored;
    expect(c.getState().optimistic).toEqual([]);
    expect(c.get(PlainTodo, { id: 1 })?.title).toBe('one');
  });

  it.each([
    ['a string', '"rx-rest"'],
    ['a number', '42'],
    ['an array', '[1,2,3]'],
    ['null as JSON', 'null'],
    ['an envelope whose state is a string', hostile('state')],
    ['an envelope whose savedAt is a string', JSON.stringify({ format: 'rx-rest', savedAt: '1', state: {} })],
    ['a truncated save', JSON.stringify(saveOf([{ id: 1, title: 'one' }])).slice(0, -20)],
  ])('%s under the key: ignored with one warning, removed (unless nothing), nothing restored', async (_, raw) => {
    const { items, storage } = mapStorage({ 'rx-rest': raw });
    const c = newController();
    const stop = persist(c, { storage });
    cleanups.push(stop);
    expect(await stop.restored).toBe(false);
    expect(c.getState().entities).toEqual({});
    if (raw !== 'null') {
      expect(items.has('rx-rest')).toBe(false);
      expect(warn).toHaveBeenCalledTimes(1);
    }
  });
});

describe('persist: quota', () => {
  it('a QuotaExceededError on every save: one warning in all, the store keeps everything, no throw into the app', async () => {
    const storage: PersistStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    const c = newController();
    const stop = persist(c, { storage, throttle: 0 });
    cleanups.push(stop);
    for (let id = 1; id <= 5; id++) {
      c.setResponse(getTodo, { id }, todo(id, `t${id}`));
      await stop.flush();
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0])).toMatch(/QuotaExceededError/);
    expect(c.get(PlainTodo, { id: 5 })?.title).toBe('t5');
  });
});

describe('persist: versions', () => {
  it('version 1 and "1" are different versions (a save of one is not restored by the other)', async () => {
    const { storage } = mapStorage({ 'rx-rest': JSON.stringify(saveOf([{ id: 1, title: 'one' }], { version: '1' })) });
    const c = newController();
    const stop = persist(c, { storage, version: 1 });
    cleanups.push(stop);
    expect(await stop.restored).toBe(false);
  });

  it('a save of the same version and within maxAge is restored and is read without a request', async () => {
    const { storage } = mapStorage({ 'rx-rest': JSON.stringify(saveOf([{ id: 1, title: 'one' }], { version: 'v2' })) });
    const c = newController();
    const stop = persist(c, { storage, version: 'v2', maxAge: 60_000 });
    cleanups.push(stop);
    expect(await stop.restored).toBe(true);
    expect(c.getResponse(getTodo, { id: 1 }).data?.title).toBe('one');
  });
});

describe('persist: dispose and teardown', () => {
  it('persist on a disposed controller throws nothing and writes nothing', async () => {
    const { calls, storage } = mapStorage({ 'rx-rest': JSON.stringify(saveOf([{ id: 1, title: 'one' }])) });
    const c = newController();
    c.dispose();
    let stop!: ReturnType<typeof persist>;
    expect(() => (stop = persist(c, { storage }))).not.toThrow();
    expect(await stop.restored).toBe(false);
    await stop.flush();
    stop();
    expect(calls.filter((call) => !call.startsWith('get'))).toEqual([]);
  });

  it('after dispose, a change made before it is in the storage and nothing later is written', async () => {
    const { items, calls, storage } = mapStorage();
    const c = newController({ managers: [(c) => persist(c, { storage, throttle: 60_000 })] });
    c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    c.dispose();
    expect(items.get('rx-rest')).toContain('"one"');
    const writes = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.length).toBe(writes);
  });
});
