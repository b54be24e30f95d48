/**
 * The add-ons on a server (no `document`, as in SvelteKit's or SolidStart's server render): starting
 * `persist`, `syncTabs` or `connectDevtools` does nothing and throws nothing, even where Node has a
 * `BroadcastChannel` (it would carry one user's data into another user's controller) or a
 * `localStorage` (Node 22+ with --experimental-webstorage, on by default in Node 25).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, takeSnapshot } from '../../../core/index.js';
import { connectDevtools } from '../../../adapters/devtools/index.js';
import { persist } from '../../../adapters/persist/index.js';
import { syncTabs } from '../../../adapters/sync/index.js';
import { Todo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://api.test',
  path: '/todos/:id',
  schema: Todo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: id, title, completed: false });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the add-ons on a server', () => {
  it('persist without a storage does nothing there, even with a localStorage global', async () => {
    const warn = vi.spyOn(console, 'warn');
    const shared = new Map<string, string>([['rx-rest', 'another user']]);
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => shared.get(key) ?? null,
      setItem: (key: string, value: string) => shared.set(key, value),
      removeItem: (key: string) => shared.delete(key),
    });
    const controller = new Controller({ environment: {}, managers: [(c) => persist(c, { version: 1 })] });
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'private'));
    const stop = persist(controller);
    expect(await stop.restored).toBe(false);
    await stop.flush();
    stop();
    controller.dispose();
    expect(shared.get('rx-rest')).toBe('another user');
    expect(warn).not.toHaveBeenCalled();
  });

  it('syncTabs does nothing there: two per-request controllers never share data', async () => {
    const warn = vi.spyOn(console, 'warn');
    expect(typeof BroadcastChannel).toBe('function'); // Node has one
    const alice = new Controller({ environment: {}, managers: [syncTabs] });
    const bob = new Controller({ environment: {}, managers: [(c) => syncTabs(c, { channel: 'rx-rest' })] });
    alice.setResponse(getTodo, { id: 1 }, todo(1, "alice's"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(takeSnapshot(bob).entities).toEqual({});
    alice.dispose();
    bob.dispose();
    expect(warn).not.toHaveBeenCalled();
  });

  it('connectDevtools does nothing there', () => {
    const controller = new Controller({ environment: {}, managers: [connectDevtools] });
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'a'));
    expect(() => controller.dispose()).not.toThrow();
  });
});

describe('persist in a browser', () => {
  it('uses localStorage when no storage is given', async () => {
    vi.stubGlobal('document', {});
    const saved = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => saved.get(key) ?? null,
      setItem: (key: string, value: string) => saved.set(key, value),
      removeItem: (key: string) => saved.delete(key),
    });
    const controller = new Controller({ environment: {} });
    const stop = persist(controller, { throttle: 0 });
    controller.setResponse(getTodo, { id: 1 }, todo(1, 'kept'));
    await stop.flush();
    stop();
    expect(saved.get('rx-rest')).toContain('"kept"');
  });
});
