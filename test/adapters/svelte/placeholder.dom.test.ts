/**
 * An outside review of `keepPreviousData` in the Svelte adapter: what the placeholder shows while the
 * new arguments load, when the previous arguments' data changes meanwhile.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { get, writable } from 'svelte/store';
import { delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createInfiniteQuery, createQuery, createQueryState } from '../../../adapters/svelte/index.js';
import { heldSecondUser } from '../../fixtures/userLists.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { FEED_PAGE, Post, PostResource, feedHandlers } from '../../fixtures/feedServer.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let controller: Controller;
let release: () => void;
beforeEach(() => {
  controller = new Controller();
  // user 2's list answers when the test releases it
  const held = heldSecondUser();
  release = held.release;
  server.use(...held.handlers);
});

const titles = (state: { data?: readonly Todo[] | undefined }) => state.data?.map((todo) => todo.title);

describe('keepPreviousData while the previous data changes', () => {
  it('the placeholder shows a write to the previous rows and drops a deleted one', async () => {
    const args = writable({ userId: 1 });
    const store = createQuery(TodoResource.getList, args, { controller, keepPreviousData: true });
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(titles(get(store))).toEqual(['todo 1', 'todo 3']));
    const before = get(store).data;
    args.set({ userId: 2 });
    expect(get(store)).toMatchObject({ placeholder: true, loading: false, fetching: true });
    expect(get(store).data).toBe(before); // nothing changed: the same list
    controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed' });
    await delay(0);
    expect(titles(get(store))).toEqual(['renamed', 'todo 3']);
    expect(get(store).placeholder).toBe(true);
    await controller.fetch(TodoResource.delete, { id: 3 });
    await delay(0);
    expect(titles(get(store))).toEqual(['renamed']);
    release();
    await vi.waitFor(() => expect(titles(get(store))).toEqual(['todo 2']));
    expect(get(store).placeholder).toBe(false);
    stop();
  });

  it('createQueryState shows the same placeholder as the store', async () => {
    const args = writable({ userId: 1 });
    const todos = createQueryState(TodoResource.getList, args, { controller, keepPreviousData: true });
    const stop = (todos as unknown as ReturnType<typeof createQuery>).subscribe(() => {});
    await vi.waitFor(() => expect(todos.data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']));
    args.set({ userId: 2 });
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    await delay(0);
    expect(todos.placeholder).toBe(true);
    expect(todos.data?.map((t) => t.title)).toEqual(['todo 1', 'three']);
    release();
    await vi.waitFor(() => expect(todos.data?.map((t) => t.title)).toEqual(['todo 2']));
    stop();
  });
});

describe('createInfiniteQuery with keepPreviousData while the previous list changes', () => {
  it('the old list (placeholder) shows a write to its rows', async () => {
    const feed = feedHandlers();
    server.use(...feed.handlers);
    const args = writable({ userId: 1 });
    const posts = createInfiniteQuery(PostResource.getList, args, {
      controller,
      pageSize: FEED_PAGE,
      keepPreviousData: true,
    });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data?.map((p) => p.title)).toEqual(['post 1', 'post 3', 'post 5']));
    feed.setLatency(30);
    args.set({ userId: 2 });
    expect(get(posts).placeholder).toBe(true);
    controller.set(Post, { id: 3 }, { id: 3, title: 'third' });
    await delay(0);
    expect(get(posts).data?.map((p) => p.title)).toEqual(['post 1', 'third', 'post 5']);
    expect(get(posts).placeholder).toBe(true);
    await vi.waitFor(() => expect(get(posts).data?.map((p) => p.title)).toEqual(['post 2', 'post 4', 'post 6']));
    expect(get(posts).placeholder).toBe(false);
    stop();
  });
});
