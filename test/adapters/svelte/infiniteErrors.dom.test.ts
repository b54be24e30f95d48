/**
 * An outside review of createInfiniteQuery's error: a failed page's error belongs to the paging it
 * failed in, and a new first page (the list refetched) starts paging over without it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createInfiniteQuery } from '../../../adapters/svelte/index.js';
import { FEED_PAGE, PostResource, feedHandlers } from '../../fixtures/feedServer.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('createInfiniteQuery errors', () => {
  it("a list refetched after a page failed shows the new first page without the page's old error", async () => {
    const feed = feedHandlers();
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const posts = createInfiniteQuery(PostResource.getList, { userId: 1 }, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data).toHaveLength(3));
    feed.failNext();
    await posts.loadNext();
    expect(get(posts).error?.message).toMatch(/page=2.*500/);
    expect(get(posts).data).toHaveLength(3); // the pages loaded stay
    controller.expireAll(PostResource.getList);
    await vi.waitFor(() => expect(get(posts).fetching).toBe(true));
    await vi.waitFor(() => expect(get(posts).fetching).toBe(false));
    expect(get(posts)).toMatchObject({ error: undefined, hasNext: true, stale: false });
    await posts.loadNext();
    expect(get(posts).data?.map((post) => post.id)).toEqual([1, 3, 5, 7]);
    expect(get(posts).error).toBeUndefined();
    stop();
  });

  it('a page that fails again after the list was refetched shows its new error', async () => {
    const feed = feedHandlers();
    server.use(...feed.handlers);
    const controller = new Controller({ retry: 0 });
    const posts = createInfiniteQuery(PostResource.getList, { userId: 1 }, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data).toHaveLength(3));
    controller.expireAll(PostResource.getList);
    await vi.waitFor(() => expect(get(posts).fetching).toBe(false));
    feed.failNext();
    await posts.loadNext();
    expect(get(posts).error?.message).toMatch(/page=2.*500/);
    stop();
  });
});
