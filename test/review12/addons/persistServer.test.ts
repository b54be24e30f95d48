// @vitest-environment node
/**
 * `persist` where there is no document (API.md "Server rendering": starting the add-ons on a server does nothing
 * and throws nothing). Without a storage it does nothing. A storage given there is the app's (a Node script, a
 * test) and is used, with a development warning: on a server, one storage shared by every request would carry one
 * user's data into another user's page. A Web Worker has no document either, but is one user's: no warning.
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

describe('persist where there is no document (Node: a server render, a script, a test)', () => {
  it('without a storage: nothing is read or written, and nothing is said', async () => {
    expect(typeof document).toBe('undefined');
    const warn = vi.spyOn(console, 'warn');
    const c = new Controller({ environment: {} });
    const stop = persist(c, { throttle: 0 });
    expect(await stop.restored).toBe(false);
    c.setResponse(getTodo, { id: 1 }, todo(1, 'server data'));
    await stop.flush();
    stop();
    c.dispose();
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a synchronous storage', false],
    ['an asynchronous storage', true],
  ])(
    "given %s: it is the app's, so it is read and written, with a warning that a server would share it",
    async (_, async) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { items, storage } = sharedStorage(async);
      const c = new Controller({ environment: {} });
      const stop = persist(c, { storage, throttle: 0, version: 1 });
      expect(await stop.restored).toBe(true);
      expect(c.getResponse(getTodo, { id: 9 }).data?.title).toBe('alice');
      c.setResponse(getTodo, { id: 1 }, todo(1, 'written'));
      await stop.flush();
      expect(items.get('rx-rest')).toContain('written');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/rx-rest\/persist: options\.storage .*no document.*server/);
      stop();
      c.dispose();
    },
  );
});

describe('persist in a Web Worker (no document either, but one user: not a server)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads and writes the storage it is given', async () => {
    vi.stubGlobal('importScripts', () => {}); // what a worker's global scope has and a server's has not
    const warn = vi.spyOn(console, 'warn');
    const { items, calls, storage } = sharedStorage(false);
    const c = new Controller({ environment: {} });
    const stop = persist(c, { storage, throttle: 0, version: 1 });
    expect(await stop.restored).toBe(true);
    expect(c.getResponse(getTodo, { id: 9 }).data?.title).toBe('alice');
    c.setResponse(getTodo, { id: 1 }, todo(1, 'from the worker'));
    await stop.flush();
    expect(calls).toContain('set rx-rest');
    expect(items.get('rx-rest')).toContain('from the worker');
    expect(warn).not.toHaveBeenCalled();
    stop();
    c.dispose();
  });
});
