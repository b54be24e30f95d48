// @vitest-environment jsdom
/**
 * Review 14 of `rx-rest/persist` (API.md "Add-on entry points": `storage` defaults to `localStorage`; docs/addons.md
 * "What goes wrong": a storage that throws is reported, nothing throws into the app). In a browser that blocks
 * storage (cookies blocked, a sandboxed iframe, some private modes), merely reading `window.localStorage`
 * throws a `SecurityError`: TanStack Query users meet it as "the persister must not break the app".
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Controller, RestEndpoint } from '../../../core/index.js';
import { persist } from '../../../adapters/persist/index.js';
import { PlainTodo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review14-persist-access.test',
  path: '/todos/:id',
  schema: PlainTodo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});

let warn: MockInstance<typeof console.warn>;
let restore: (() => void) | undefined;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const own = Object.getOwnPropertyDescriptor(window, 'localStorage')!;
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() {
      throw new DOMException(
        "Failed to read the 'localStorage' property from 'Window': Access is denied",
        'SecurityError',
      );
    },
  });
  restore = () => Object.defineProperty(window, 'localStorage', own);
});
afterEach(() => {
  restore?.();
  vi.restoreAllMocks();
});

describe('persist where reading localStorage itself throws (SecurityError)', () => {
  it('started without a storage: throws nothing, warns once naming the SecurityError, and the app goes on', async () => {
    const controller = new Controller({ environment: {}, gcTime: Infinity });
    let stop: ReturnType<typeof persist> | undefined;
    expect(() => (stop = persist(controller))).not.toThrow();
    await expect(stop!.restored).resolves.toBe(false);
    await expect(stop!.flush()).resolves.toBeUndefined();
    controller.setResponse(getTodo, { id: 1 }, { id: 1, userId: 1, title: 'kept', completed: false });
    expect(controller.get(PlainTodo, { id: 1 })?.title).toBe('kept');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^rx-rest\/persist: .*SecurityError/);
    stop!();
    controller.dispose();
  });

  it('as a manager: the controller is made, works and disposes', () => {
    let controller: Controller | undefined;
    expect(() => (controller = new Controller({ environment: {}, managers: [(c) => persist(c)] }))).not.toThrow();
    controller!.setResponse(getTodo, { id: 2 }, { id: 2, userId: 1, title: 'two', completed: false });
    expect(controller!.get(PlainTodo, { id: 2 })?.title).toBe('two');
    expect(() => controller!.dispose()).not.toThrow();
  });
});
