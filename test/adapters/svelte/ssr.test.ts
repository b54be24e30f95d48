// Server rendering: node environment, Svelte's server build. Stores read the controller's snapshot
// and start no request and no timer.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from 'svelte/server';
import { get } from 'svelte/store';
import { Controller } from '../../../core/index.js';
import { createInfiniteQuery, createMutation, createQuery, useLive } from '../../../adapters/svelte/index.js';
import { PostResource } from '../../fixtures/feedServer.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { PollingTodoResource, TodoResource } from '../resources.js';
import App from './App.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => vi.useRealTimers());

describe('rx-rest/svelte on the server', () => {
  it('renders what a per-request controller preloaded, and its state restores on the client', async () => {
    const controller = new Controller();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    fake.requests.length = 0;
    const { body } = render(App, { props: { controller, userId: 1 } });
    expect(body).toContain('todo 1');
    expect(body).toContain('todo 3');
    const client = new Controller({ initialState: JSON.parse(JSON.stringify(controller.getState())) });
    expect(get(createQuery(TodoResource.getList, { userId: 1 }, client)).data?.map((t) => t.title)).toEqual([
      'todo 1',
      'todo 3',
    ]);
    expect(fake.requests).toEqual([]);
  });

  it('renders the loading state for data it does not have, without fetching or starting a timer', () => {
    vi.useFakeTimers();
    const controller = new Controller();
    const { body } = render(App, { props: { controller, userId: 2 } });
    expect(body).toContain('Loading…');
    const store = useLive(PollingTodoResource.getList, undefined, controller);
    const stop = store.subscribe(() => {});
    expect(vi.getTimerCount()).toBe(0);
    stop();
    expect(fake.requests).toEqual([]);
  });

  it('createInfiniteQuery reads the snapshot and createMutation stays idle, without a request', async () => {
    const controller = new Controller();
    const fetch = vi.spyOn(globalThis, 'fetch');
    const posts = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: 3 });
    expect(get(posts)).toMatchObject({ data: undefined, hasNext: false, fetchingNext: false });
    expect(get(createMutation(TodoResource.partialUpdate, controller))).toEqual({
      pending: false,
      error: undefined,
      data: undefined,
    });
    const stop = posts.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 0));
    stop();
    expect(fetch).not.toHaveBeenCalled();
    fetch.mockRestore();
  });
});
