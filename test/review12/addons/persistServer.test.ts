// @vitest-environment node
/**
 * `persist` on a server (API.md "Server rendering": starting the add-ons on a server does nothing and
 * throws nothing). A storage given explicitly changes nothing there: a storage shared at module level
 * by every request of a server would carry one user's data into another user's page, so it is neither
 * read nor written, whether it answers synchronously or with promises.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, takeSnapshot } from '../../../core/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { Todo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review12-server.test',
  path: '/todos/:id',
  schema: Todo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: id, title, completed: false });
/** A save holding `title` as todo 9 (written by a browser tab, or by another request). */
const save = (title: string) => {
  const c = new Controller({ environment: {} });
  c.setResponse(getTodo, { id: 9 }, todo(9, title));
  return JSON.stringify({ format: 'rx-rest', version: 1, savedAt: Date.now(), state: takeSnapshot(c) });
};

/** A storage shared by every request of the server, counting every call made to it. */
function sharedStorage(async: boolean) {
  const items = new Map<string, string>([['rx-rest', save('alice')]]);
  const calls: string[] = [];
  const answer = <T>(value: T) => (async ? Promise.resolve(value) : value);
  const storage: PersistStorage = {
    getItem: (key) => (calls.push(`get ${key}`), answer(items.get(key) ?? null)),
    setItem: (key, value) => (calls.push(`set ${key}`), answer(void items.set(key, value))),
    removeItem: (key) => (calls.push(`remove ${key}`), answer(void items.delete(key))),
  };
  return { items, calls, storage };
}

afterEach(() => vi.restoreAllMocks());

describe.each([
  ['a synchronous storage', false],
  ['an asynchronous storage', true],
])('persist on a server given %s', (_, async) => {
  it('neither reads nor writes it, across requests, changes, a reset, flush and teardown', async () => {
    expect(typeof document).toBe('undefined');
    const warn = vi.spyOn(console, 'warn');
    const { items, calls, storage } = sharedStorage(async);
    const before = items.get('rx-rest');
    for (const user of ['alice', 'bob']) {
      let stop!: ReturnType<typeof persist>;
      const c = new Controller({
        environment: {},
        managers: [(c) => (stop = persist(c, { storage, throttle: 0, version: 1 }))],
      });
      expect(await stop.restored).toBe(false);
      c.setResponse(getTodo, { id: 1 }, todo(1, `${user}'s private todo`));
      await stop.flush();
      c.resetEntireStore();
      c.setResponse(getTodo, { id: 2 }, todo(2, `${user}'s second`));
      await stop.flush();
      await new Promise((resolve) => setTimeout(resolve, 5));
      c.dispose();
      stop(); // twice: harmless
    }
    expect(calls).toEqual([]);
    expect(items.get('rx-rest')).toBe(before);
    expect(warn).not.toHaveBeenCalled();
  });

  it('restores nothing from it: a request of another user never sees its data', async () => {
    const { storage } = sharedStorage(async);
    const alice = new Controller({ environment: {} });
    alice.setResponse(getTodo, { id: 7 }, todo(7, "alice's"));
    storage.setItem('rx-rest', JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state: takeSnapshot(alice) }));
    const bob = new Controller({ environment: {} });
    const stop = persist(bob, { storage });
    expect(await stop.restored).toBe(false);
    expect(bob.getResponse(getTodo, { id: 7 }).data).toBeUndefined();
    expect(takeSnapshot(bob).entities).toEqual({});
    stop();
    alice.dispose();
    bob.dispose();
  });
});

describe('persist in a Web Worker (no document either, but one user: not a server)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads and writes the storage it is given', async () => {
    vi.stubGlobal('importScripts', () => {}); // what a worker's global scope has and a server's has not
    const { items, calls, storage } = sharedStorage(false);
    const c = new Controller({ environment: {} });
    const stop = persist(c, { storage, throttle: 0, version: 1 });
    expect(await stop.restored).toBe(true);
    expect(c.getResponse(getTodo, { id: 9 }).data?.title).toBe('alice');
    c.setResponse(getTodo, { id: 1 }, todo(1, 'from the worker'));
    await stop.flush();
    expect(calls).toContain('set rx-rest');
    expect(items.get('rx-rest')).toContain('from the worker');
    stop();
    c.dispose();
  });
});
