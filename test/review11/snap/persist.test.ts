/**
 * Outside review of `rx-rest/persist` from API.md alone ("Add-on entry points": `persist(controller,
 * { storage, key = 'rx-rest', version, maxAge })` restores a saved state on start, ignoring one of another
 * `version` or older than `maxAge`, saves after changes, throttled, with a sync or async storage, and
 * returns a teardown; "Server rendering": starting it on a server does nothing and throws nothing).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { persist } from '../../../adapters/persist/index.js';
import { TodoResource, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, row } from '../../review10/fixtures.js';

const fake = useTodoServer();
const count = counter(fake);
let controllers: Controller[] = [];
beforeEach(() => vi.stubGlobal('document', {})); // a browser page (without one, persist does nothing)
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A storage over a Map; `async` answers every call with a promise. */
function memoryStorage(async = false) {
  const items = new Map<string, string>();
  const answer = <T>(value: T) => (async ? Promise.resolve(value) : value);
  return {
    items,
    storage: {
      getItem: (key: string) => answer(items.get(key) ?? null),
      setItem: (key: string, value: string) => answer(void items.set(key, value)),
      removeItem: (key: string) => answer(void items.delete(key)),
    },
  };
}

/** A controller persisted with `options` (disposed after the test); its teardown is returned too. */
function persisted(options: Parameters<typeof persist>[1], controllerOptions = {}) {
  let teardown!: () => void;
  const c = new Controller({ retry: 0, managers: [(c) => (teardown = persist(c, options))], ...controllerOptions });
  controllers.push(c);
  return { c, teardown: () => teardown() };
}

/** A first app that loads todo 1 and saves it (waits until the storage holds a save). */
async function firstApp(items: Map<string, string>, options: Parameters<typeof persist>[1], key = 'rx-rest') {
  const { c } = persisted(options);
  await c.fetch(TodoResource.get, { id: 1 });
  await settled(() => expect(items.get(key)).toContain('todo 1'));
  c.dispose();
  fake.requests.length = 0;
}

describe.each([
  ['a synchronous storage', false],
  ['an asynchronous storage', true],
])('persist with %s', (_, async) => {
  it('saves after a change; the next start restores it and shows it without a request', async () => {
    const { items, storage } = memoryStorage(async);
    await firstApp(items, { storage, throttle: 0 });
    const { c } = persisted({ storage, throttle: 0 });
    await settled(() => expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1'));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.last()).toMatchObject({ loading: false });
    expect(s.last().data?.title).toBe('todo 1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count('GET /todos/1')).toBe(0);
    s.unsubscribe();
  });

  it('ignores a save of another version, and one older than maxAge', async () => {
    const { items, storage } = memoryStorage(async);
    await firstApp(items, { storage, throttle: 0, version: 1 });
    const other = persisted({ storage, throttle: 0, version: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(other.c.getResponse(TodoResource.get, { id: 1 }).data).toBeUndefined();

    await firstApp(items, { storage, throttle: 0, version: 3 });
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 60_000);
    const old = persisted({ storage, throttle: 0, version: 3, maxAge: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(old.c.getResponse(TodoResource.get, { id: 1 }).data).toBeUndefined();
  });
});

describe('persist: key, teardown, bad input, servers', () => {
  it('saves under its key and leaves the storage’s other items alone', async () => {
    const { items, storage } = memoryStorage();
    items.set('other', 'kept');
    await firstApp(items, { storage, key: 'todos-app', throttle: 0 }, 'todos-app');
    expect(items.get('other')).toBe('kept');
    expect(items.has('rx-rest')).toBe(false);
  });

  it('after its teardown, changes are no longer saved', async () => {
    const { items, storage } = memoryStorage();
    const { c, teardown } = persisted({ storage, throttle: 0 });
    await c.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(items.get('rx-rest')).toContain('todo 1'));
    teardown();
    c.setResponse(TodoResource.get, { id: 2 }, row(2, 'after the teardown'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(items.get('rx-rest')).not.toContain('after the teardown');
  });

  it('a storage that throws or holds garbage leaves the app working', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = {
      getItem: () => {
        throw new Error('storage disabled');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {},
    };
    const a = persisted({ storage: broken, throttle: 0 });
    expect((await a.c.fetch(TodoResource.get, { id: 1 })).title).toBe('todo 1');
    const garbage = { getItem: () => '{"format":"rx-rest","sav', setItem: () => {}, removeItem: () => {} };
    const b = persisted({ storage: garbage, throttle: 0 });
    expect((await b.c.fetch(TodoResource.get, { id: 2 })).title).toBe('todo 2');
  });

  it('a storage without setItem is refused with a TypeError naming it', () => {
    const c = new Controller();
    controllers.push(c);
    expect(() => persist(c, { storage: { getItem: () => null } as never })).toThrow(TypeError);
    expect(() => persist(c, { storage: { getItem: () => null } as never })).toThrow(/storage/);
  });

  it('on a server (no document), started without a storage, it does nothing and throws nothing', async () => {
    vi.unstubAllGlobals();
    const warn = vi.spyOn(console, 'warn');
    const { c } = persisted({ throttle: 0 });
    await c.fetch(TodoResource.get, { id: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(() => c.dispose()).not.toThrow();
    expect(warn).not.toHaveBeenCalled();
  });
});
