import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { get, writable } from 'svelte/store';
import { Controller } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { FEED_PAGE, feedHandlers, PostResource } from '../../fixtures/feedServer.js';
import { TodoResource } from '../resources.js';
import Feed from './Feed.svelte';
import NoArgsLists from './NoArgsLists.svelte';
import PreviousData from './PreviousData.svelte';
import Rename from './Rename.svelte';
import Select from './Select.svelte';

const fake = createTodoServer();
const feed = feedHandlers();
beforeAll(() => {
  fake.server.use(...feed.handlers);
  fake.server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  fake.setLatency(0);
  fake.clearFailures();
  feed.requests.length = 0;
  feed.posts.length = 7;
  feed.setLatency(0);
  controller = new Controller({ retry: false });
});

const items = (testId?: string) =>
  Array.from(testId ? screen.getByTestId(testId).querySelectorAll('li') : screen.queryAllByRole('listitem')).map(
    (li) => li.textContent,
  );

describe('createMutation', () => {
  it('shows pending, then the data; optimistic updates show at once; reset goes idle', async () => {
    render(Rename, { controller });
    await screen.findByText('todo 1');
    fake.setLatency(30);
    await fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveProperty('disabled', true);
    expect(items()).toEqual(['renamed', 'todo 3']); // optimistic: before the server answers
    expect((await screen.findByRole('status')).textContent).toBe('saved renamed');
    expect(screen.getByRole('button', { name: 'Rename' })).toHaveProperty('disabled', false);
    await fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the error of a failed mutation and rolls the optimistic change back', async () => {
    render(Rename, { controller });
    await screen.findByText('todo 1');
    fake.fail('PATCH', 500);
    await fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/PATCH .*\/todos\/1.*500/);
    expect(items()).toEqual(['todo 1', 'todo 3']);
    await fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes a controller directly, as createQuery does', async () => {
    render(Rename, { controller });
    await screen.findByText('todo 3');
    fake.setLatency(20);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Deleting…')).toBeTruthy();
    expect(items()).toEqual(['todo 1']); // optimistic delete
    await vi.waitFor(() => expect(screen.queryByText('Deleting…')).toBeNull());
    expect(fake.todos.has(3)).toBe(false);
  });

  it('concurrent calls each resolve their own result; the state follows the latest', async () => {
    const rename = createMutation(TodoResource.partialUpdate, controller);
    fake.setLatency(20);
    const first = rename.mutate({ id: 1 }, { title: 'first' });
    const second = rename.mutate({ id: 2 }, { title: 'second' });
    expect(get(rename).pending).toBe(true);
    expect((await first).title).toBe('first');
    expect(get(rename).pending).toBe(true); // the latest call is still in flight
    expect((await second).title).toBe('second');
    expect(get(rename)).toMatchObject({ pending: false, error: undefined });
    expect(get(rename).data?.title).toBe('second');
  });

  it('concurrent calls to the same request each resolve their own result', async () => {
    const rename = createMutation(TodoResource.partialUpdate, controller);
    fake.setLatency(20);
    const first = rename.mutate({ id: 1 }, { title: 'first' });
    const second = rename.mutate({ id: 1 }, { title: 'second' });
    expect((await first).title).toBe('first');
    expect((await second).title).toBe('second');
    expect(get(rename).data?.title).toBe('second');
  });

  it('an older call that fails after a newer one started does not change the state', async () => {
    const rename = createMutation(TodoResource.partialUpdate, controller);
    fake.fail('PATCH', 500, 1, 30);
    const failing = rename.mutate({ id: 1 }, { title: 'lost' });
    const latest = rename.mutate({ id: 2 }, { title: 'kept' });
    await latest;
    await expect(failing).rejects.toThrow(/500/);
    expect(get(rename)).toMatchObject({ pending: false, error: undefined });
    expect(get(rename).data?.title).toBe('kept');
  });
});

describe('createQuery with keepPreviousData', () => {
  it('keeps the previous rows (placeholder) while the new args load, then shows the new ones', async () => {
    const { rerender } = render(PreviousData, { controller, userId: 1, keep: true });
    expect(screen.getByText('Loading…')).toBeTruthy(); // nothing to keep on the first load
    await screen.findByText('todo 1');
    expect(screen.getByTestId('list').classList.contains('dim')).toBe(false);
    fake.setLatency(30);
    await rerender({ userId: 2 });
    expect(items()).toEqual(['todo 1', 'todo 3']);
    expect(screen.getByTestId('list').classList.contains('dim')).toBe(true);
    expect(screen.queryByText('Loading…')).toBeNull();
    await screen.findByText('todo 2');
    expect(items()).toEqual(['todo 2', 'todo 4']);
    expect(screen.getByTestId('list').classList.contains('dim')).toBe(false);
  });

  it('without it, a switch shows the loading state', async () => {
    const { rerender } = render(PreviousData, { controller, userId: 1, keep: false });
    await screen.findByText('todo 1');
    fake.setLatency(30);
    await rerender({ userId: 2 });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('todo 2');
  });

  it('emits placeholder states from a store of args', async () => {
    const args = writable({ userId: 1 });
    const store = createQuery(TodoResource.getList, args, { controller, keepPreviousData: true });
    const seen: { ids?: number[]; placeholder: boolean; loading: boolean }[] = [];
    const stop = store.subscribe((s) =>
      seen.push({ ids: s.data?.map((t) => t.id), placeholder: s.placeholder, loading: s.loading }),
    );
    await vi.waitFor(() => expect(seen.at(-1)?.ids).toEqual([1, 3]));
    args.set({ userId: 2 });
    expect(seen.at(-1)).toEqual({ ids: [1, 3], placeholder: true, loading: false });
    await vi.waitFor(() => expect(seen.at(-1)).toEqual({ ids: [2, 4], placeholder: false, loading: false }));
    stop();
  });
});

describe('createInfiniteQuery', () => {
  it('loads pages by number into one list until the last page', async () => {
    render(Feed, { controller });
    await vi.waitFor(() => expect(items('pages')).toEqual(['post 1', 'post 2', 'post 3']));
    feed.setLatency(20);
    await fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(screen.getByRole('button', { name: 'Loading more…' })).toHaveProperty('disabled', true);
    await vi.waitFor(() => expect(items('pages')).toHaveLength(6));
    await fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByText("That's all");
    expect(items('pages')).toEqual(['post 1', 'post 2', 'post 3', 'post 4', 'post 5', 'post 6', 'post 7']);
    expect(feed.requests.filter((r) => r.startsWith('GET /posts'))).toEqual([
      'GET /posts',
      'GET /posts?page=2',
      'GET /posts?page=3',
    ]);
  });

  it('follows the cursor of { results, next } responses', async () => {
    render(Feed, { controller });
    await vi.waitFor(() => expect(items('cursor')).toEqual(['post 1', 'post 2', 'post 3']));
    await fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(6));
    await fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(7));
    expect(screen.queryByRole('button', { name: 'More from the feed' })).toBeNull();
  });

  it('a created post joins the paged list; a failed page shows its error', async () => {
    render(Feed, { controller, userId: 1 });
    await screen.findByText('post 5');
    await controller.fetch(PostResource.getList.push, { userId: 1 }, { title: 'fresh', userId: 1 });
    await vi.waitFor(() => expect(items('pages')).toEqual(['post 1', 'post 3', 'post 5', 'fresh']));
    feed.failNext();
    await fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/GET .*\/posts\?page=2&userId=1.*500/);
    expect(items('pages')).toEqual(['post 1', 'post 3', 'post 5', 'fresh']);
  });

  it('a new args value starts a new list', async () => {
    const { rerender } = render(Feed, { controller, userId: 1 });
    await screen.findByText('post 5');
    await rerender({ userId: 2 });
    await screen.findByText('post 6');
    expect(items('pages')).toEqual(['post 2', 'post 4', 'post 6']);
  });

  it('keepPreviousData keeps the old list (placeholder) while the new first page loads', async () => {
    const args = writable({ userId: 1 });
    const options = { controller, pageSize: FEED_PAGE, keepPreviousData: true };
    const posts = createInfiniteQuery(PostResource.getList, args, options);
    const seen: { ids?: number[]; placeholder: boolean; hasNext: boolean }[] = [];
    const stop = posts.subscribe((s) =>
      seen.push({ ids: s.data?.map((p) => p.id), placeholder: s.placeholder, hasNext: s.hasNext }),
    );
    await vi.waitFor(() => expect(seen.at(-1)?.ids).toEqual([1, 3, 5]));
    await posts.loadNext();
    expect(seen.at(-1)).toEqual({ ids: [1, 3, 5, 7], placeholder: false, hasNext: false });
    feed.setLatency(20);
    args.set({ userId: 2 });
    expect(seen.at(-1)).toEqual({ ids: [1, 3, 5, 7], placeholder: true, hasNext: false });
    await vi.waitFor(() => expect(seen.at(-1)).toEqual({ ids: [2, 4, 6], placeholder: false, hasNext: true }));
    stop();
  });

  it('is a real store: loadNext before any subscriber does nothing', async () => {
    const posts = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: 3 });
    await posts.loadNext();
    expect(get(posts)).toMatchObject({ hasNext: false, fetchingNext: false });
    expect(feed.requests.filter((r) => r.includes('page='))).toEqual([]);
  });
});

describe('createQueryState and createInfiniteQuery without args', () => {
  it("read an endpoint whose args are optional, as createQuery(endpoint) and Data Client's useSuspense(endpoint)", async () => {
    render(NoArgsLists, { controller });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await vi.waitFor(() => expect(items('todos')).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']));
    await vi.waitFor(() => expect(items('cursor')).toEqual(['post 1', 'post 2', 'post 3']));
    await fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(6));
    expect(fake.requests).toEqual(['GET /todos']); // the same requests as with undefined args
    expect(feed.requests).toEqual(['GET /feed', 'GET /feed?cursor=c3']);
  });
});

describe('a mutation endpoint given to a read', () => {
  // a compile error (see createQuery.test-d.ts); at runtime the call itself throws
  const push = PostResource.getList.push as unknown as typeof PostResource.getList;
  it.each([
    ['createInfiniteQuery', () => createInfiniteQuery(push, {}, { controller })],
    ['createQuery', () => createQuery(push, {}, controller)],
    ['useLive', () => useLive(push, {}, controller)],
    ['useSuspense', () => useSuspense(push, {}, controller)],
    ['createQueryState', () => createQueryState(push, {}, controller)],
  ])(
    '%s given a mutation endpoint throws a TypeError naming the function called, and requests nothing',
    async (name, call) => {
      // useLive is createQuery itself: its error names createQuery
      const called = name === 'useLive' ? 'createQuery' : name;
      expect(call).toThrow(TypeError);
      expect(call).toThrow(new RegExp(`^${called}\\(.*side effects \\(POST\\).*controller\\.fetch`));
      await Promise.resolve();
      expect(feed.requests).toEqual([]);
    },
  );
});

describe('derived data (select) as an RxJS pipe over observe', () => {
  it('renders the piped value with $store and follows changes', async () => {
    render(Select, { controller });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('0 done'));
    await controller.fetch(TodoResource.partialUpdate, { id: 3 }, { completed: true });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 done'));
  });
});

describe('a disposed controller', () => {
  const disposed = /^(\w+)\(\) was called after controller\.dispose\(\)/;
  const calledName = (call: () => unknown): string | undefined => {
    try {
      call();
    } catch (error) {
      return disposed.exec((error as Error).message)?.[1];
    }
    return undefined;
  };

  it('makes each query function throw an error naming that function, not the read it makes inside', () => {
    const gone = new Controller();
    gone.dispose();
    const options = { controller: gone };
    expect(calledName(() => get(createQuery(TodoResource.get, { id: 1 }, options)))).toBe('createQuery');
    expect(calledName(() => get(useSuspense(TodoResource.get, { id: 1 }, options)))).toBe('useSuspense');
    expect(calledName(() => createQueryState(TodoResource.get, { id: 1 }, options).data)).toBe('createQueryState');
    expect(calledName(() => get(createInfiniteQuery(PostResource.getList, undefined, options)))).toBe(
      'createInfiniteQuery',
    );
  });

  it('names the query function when the controller was disposed after the query was made', () => {
    const later = new Controller();
    const todo = createQuery(TodoResource.get, { id: 1 }, later);
    later.dispose();
    expect(calledName(() => get(todo))).toBe('createQuery');
  });

  it("makes a mutation's mutate reject with an error naming createMutation's mutate, shown as the state's error too", async () => {
    const later = new Controller({ retry: false });
    const rename = createMutation(TodoResource.partialUpdate, { controller: later });
    later.dispose();
    const result = rename.mutate({ id: 1 }, { title: 'renamed' });
    await expect(result).rejects.toThrow(
      /^createMutation\(\.\.\.\)\.mutate\(\) was called after controller\.dispose\(\)/,
    );
    expect(rename.pending).toBe(false);
    expect(rename.error?.message).toMatch(/^createMutation\(\.\.\.\)\.mutate\(\) was called after/);
    expect(fake.requests).toEqual([]);
  });
});
