/**
 * An outside review of rx-rest/svelte's createInfiniteQuery: pages by number and by cursor, hasNext, a later
 * page's error keeping the pages loaded (and Retry with loadNext), null args, and args changed while a page is
 * out (that page never joins the new list).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, writable } from 'svelte/store';
import { delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createInfiniteQuery } from '../../../adapters/svelte/index.js';
import { FEED_PAGE, PostFeed, PostResource, feedHandlers } from '../../fixtures/feedServer.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ids = (posts: readonly { id: number }[] | undefined) => posts?.map((post) => post.id);

describe('createInfiniteQuery', () => {
  it('by page: loadNext appends until a short page; a failed page keeps the pages and Retry loads it', async () => {
    const feed = feedHandlers(8); // user 1: posts 1 3 5 7 (pages of 3: [1 3 5] [7])
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const posts = createInfiniteQuery(PostResource.getList, { userId: 1 }, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(ids(get(posts).data)).toEqual([1, 3, 5]));
    expect(get(posts).hasNext).toBe(true);
    feed.failNext();
    await expect(posts.loadNext()).resolves.toBeUndefined(); // never rejects
    expect(get(posts)).toMatchObject({ hasNext: true, fetchingNext: false });
    expect(get(posts).error).toMatchObject({ name: 'NetworkError', status: 500 });
    expect(ids(get(posts).data)).toEqual([1, 3, 5]);
    await posts.loadNext(); // Retry
    expect(ids(get(posts).data)).toEqual([1, 3, 5, 7]);
    expect(get(posts)).toMatchObject({ error: undefined, hasNext: false });
    stop();
  });

  it('by cursor: { results, next } pages join one list until next is null', async () => {
    const feed = feedHandlers(8);
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const posts = createInfiniteQuery(PostFeed, { userId: 2 }, { controller });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(ids(get(posts).data?.results)).toEqual([2, 4, 6]));
    await posts.loadNext();
    expect(ids(get(posts).data?.results)).toEqual([2, 4, 6, 8]);
    expect(get(posts).hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /feed?userId=2', 'GET /feed?cursor=c3&userId=2']);
    stop();
  });

  it('null args: idle, and loadNext asks for nothing', async () => {
    const feed = feedHandlers();
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const posts = createInfiniteQuery(PostResource.getList, null, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await posts.loadNext();
    expect(get(posts)).toMatchObject({ data: undefined, loading: false, hasNext: false, fetchingNext: false });
    expect(feed.requests).toEqual([]);
    stop();
  });

  it("args changed while a page is out: that page never joins the new args' list", async () => {
    const feed = feedHandlers(14);
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const args = writable({ userId: 1 });
    const posts = createInfiniteQuery(PostResource.getList, args, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(ids(get(posts).data)).toEqual([1, 3, 5]));
    feed.setLatency(40);
    const page = posts.loadNext();
    args.set({ userId: 2 });
    await page;
    await vi.waitFor(() => expect(ids(get(posts).data)).toEqual([2, 4, 6]));
    await delay(60);
    expect(ids(get(posts).data)).toEqual([2, 4, 6]);
    expect(get(posts)).toMatchObject({ hasNext: true, fetchingNext: false, error: undefined });
    stop();
  });
});
