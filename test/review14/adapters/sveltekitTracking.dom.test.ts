/**
 * `loadController` in the browser: the tab's controller keeps sending its requests through the root
 * `+layout.ts` load's `fetch` (during hydration it replays what the server's loads fetched, and SvelteKit's
 * dev check knows it for its own), but that `fetch` records every URL it is called with as a dependency of the
 * root layout load for as long as the tab lives (SvelteKit 2's client.js: `load_node`'s `is_tracking` stays
 * true after the load returned; `has_changed` re-runs the node when an invalidated URL is among them). So
 * `invalidate(url)` of any URL a component's query or a mutation requested later re-ran the root load (and
 * every child load that awaits `parent()`), and the set grew with every distinct URL. The controller's
 * requests now go through the load's `fetch` inside `event.untrack`: no dependency of the root load.
 *
 * The event below follows SvelteKit's client contract for `fetch`, `depends` and `untrack` (a URL is a
 * dependency when `fetch` is called while tracking; `untrack(fn)` stops tracking for what `fn` calls synchronously).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTodoServer, API } from '../../fixtures/todoServer.js';
import { loadController, type LoadEventLike } from '../../../adapters/svelte/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

/** A SvelteKit universal load event as the browser's `load_node` makes it: its tracked dependencies beside it. */
function browserLoadEvent() {
  const dependencies = new Set<string>();
  const sent: string[] = [];
  let tracking = true;
  const event = {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      sent.push(String(input));
      if (tracking) dependencies.add(new URL(String(input), location.href).href);
      return fetch(input, init);
    },
    untrack<T>(fn: () => T): T {
      tracking = false;
      try {
        return fn();
      } finally {
        tracking = true;
      }
    },
  };
  return { event, dependencies, sent };
}

let disposeTab: (() => void) | undefined;
afterEach(() => disposeTab?.());

describe("the tab's controller and the root load's fetch", () => {
  it('sends through it, but records no dependency of the root load (a query, a mutation)', async () => {
    const { event, dependencies, sent } = browserLoadEvent();
    const controller = loadController(event);
    disposeTab = () => controller.dispose();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
    expect(sent).toEqual([`${API}/todos?userId=1`, `${API}/todos/1`]);
    expect([...dependencies]).toEqual([]);
  });

  it('an event without untrack (an older SvelteKit, a hand-made event): its fetch is used as it is', async () => {
    const sent: string[] = [];
    const event: LoadEventLike = { fetch: (input, init) => (sent.push(String(input)), fetch(input, init)) };
    const controller = loadController(event);
    disposeTab = () => controller.dispose();
    const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
    expect(todos.map((todo) => todo.title)).toEqual(['todo 1', 'todo 3']);
    expect(sent).toEqual([`${API}/todos?userId=1`]);
  });
});
