// SvelteKit's helpers: loadController makes one controller per server request (each with its
// request's fetch) and one per browser tab; setController takes a getter of a prop.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from 'svelte/server';
import { Controller, takeSnapshot } from '../../../core/index.js';
import { loadController } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../resources.js';
import LayoutLike from './LayoutLike.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  vi.unstubAllGlobals();
  fake.requests.length = 0;
});

/** A load event's fetch, counting its calls (SvelteKit's event.fetch on the server). */
function eventFetch() {
  const urls: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    urls.push(String(input));
    return globalThis.fetch(input, init);
  };
  return { urls, fetch };
}

describe('loadController on the server', () => {
  it('makes a new controller per call (per request), each sending through its own event.fetch', async () => {
    const alice = eventFetch();
    const bob = eventFetch();
    const [a, b] = await Promise.all([
      (async () => {
        const controller = loadController({ fetch: alice.fetch });
        await controller.fetchIfStale(TodoResource.getList, { userId: 1 });
        return controller;
      })(),
      (async () => {
        const controller = loadController({ fetch: bob.fetch });
        await controller.fetchIfStale(TodoResource.getList, { userId: 2 });
        return controller;
      })(),
    ]);
    expect(a).not.toBe(b);
    expect(alice.urls).toEqual(['http://api.test/todos?userId=1']);
    expect(bob.urls).toEqual(['http://api.test/todos?userId=2']);
    expect(Object.keys(takeSnapshot(a).endpoints)).toEqual(['GET http://api.test/todos?userId=1']);
    const page = render(LayoutLike, { props: { data: { controller: b }, userId: 2 } });
    expect(page.body).toContain('todo 2');
    expect(page.body).not.toContain('todo 1');
  });

  it('refuses what is no load event, naming the fix', () => {
    expect(() => loadController(undefined as never)).toThrow(/loadController\(event\) expects a SvelteKit load event/);
  });
});

describe('loadController in a browser', () => {
  it("gives one controller per tab, sending with the first event's fetch", async () => {
    vi.stubGlobal('window', {});
    const first = eventFetch();
    const controller = loadController({ fetch: first.fetch });
    expect(controller).toBeInstanceOf(Controller);
    expect(loadController(eventFetch())).toBe(controller);
    await controller.fetch(TodoResource.get, { id: 3 });
    expect(first.urls).toEqual(['http://api.test/todos/3']);
  });

  it("after the tab's controller was disposed, gives a new live controller (and then that one on every call)", async () => {
    vi.stubGlobal('window', {});
    const disposed = loadController(eventFetch());
    disposed.dispose();
    const next = eventFetch();
    const controller = loadController({ fetch: next.fetch });
    expect(controller).toBeInstanceOf(Controller);
    expect(controller).not.toBe(disposed);
    expect(loadController(eventFetch())).toBe(controller);
    // live: it observes and fetches through the new event's fetch
    const states: (string | undefined)[] = [];
    const subscription = controller.observe(TodoResource.get, { id: 2 }).subscribe((s) => states.push(s.data?.title));
    await vi.waitFor(() => expect(states.at(-1)).toBe('todo 2'));
    subscription.unsubscribe();
    expect(next.urls).toEqual(['http://api.test/todos/2']);
    expect(() => disposed.observe(TodoResource.get, { id: 2 })).toThrow(/disposed/);
  });
});
