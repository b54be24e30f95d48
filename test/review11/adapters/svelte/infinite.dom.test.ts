/**
 * An outside review of rx-rest/svelte's createInfiniteQuery against docs/adapters.md ("Infinite lists"): loadNext
 * while a page is on its way, two readers of one list, the `next` option. HTTP through the msw feed server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import { setupServer } from 'msw/node';
import { Controller } from '../../../../core/index.js';
import { createInfiniteQuery } from '../../../../adapters/svelte/index.js';
import { FEED_PAGE, feedHandlers, PostResource } from '../../../fixtures/feedServer.js';

const feed = feedHandlers();
const server = setupServer(...feed.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let controller: Controller;
beforeEach(() => {
  feed.requests.length = 0;
  feed.setLatency(0);
  controller = new Controller({ retry: false });
});

describe('createInfiniteQuery', () => {
  it('loadNext() while a page is on its way returns the same promise, and asks once', async () => {
    const posts = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data).toHaveLength(3));
    feed.setLatency(20);
    const first = posts.loadNext();
    expect(posts.loadNext()).toBe(first);
    expect(get(posts).fetchingNext).toBe(true);
    await first;
    expect(get(posts).data).toHaveLength(6);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2']);
    stop();
  });

  it('two readers of one list share where paging stands', async () => {
    const a = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const b = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const stopA = a.subscribe(() => {});
    const stopB = b.subscribe(() => {});
    await vi.waitFor(() => expect(get(b).data).toHaveLength(3));
    await a.loadNext();
    await vi.waitFor(() => expect(get(b).data).toHaveLength(6));
    await b.loadNext();
    expect(get(a).data).toHaveLength(7);
    expect(get(a).hasNext).toBe(false);
    expect(get(b).hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2', 'GET /posts?page=3']);
    stopA();
    stopB();
  });

  it('two readers of one list share the page on its way: fetchingNext in both, one promise, one request', async () => {
    const a = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const b = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const stopA = a.subscribe(() => {});
    const stopB = b.subscribe(() => {});
    await vi.waitFor(() => expect(get(b).data).toHaveLength(3));
    feed.setLatency(20);
    const loading = a.loadNext();
    expect(b.loadNext()).toBe(loading);
    expect(get(a).fetchingNext).toBe(true);
    expect(get(b).fetchingNext).toBe(true);
    await loading;
    expect(get(b)).toMatchObject({ fetchingNext: false, hasNext: true });
    expect(get(b).data).toHaveLength(6);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2']);
    stopA();
    stopB();
  });

  it('next(lastPage, lastParam) sees the list data and undefined for the first page', async () => {
    const calls: [unknown, unknown][] = [];
    const posts = createInfiniteQuery(PostResource.getList, undefined, {
      controller,
      next: (lastPage, lastParam) => {
        calls.push([lastPage, lastParam]);
        return lastParam === undefined ? 2 : null;
      },
    });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data).toHaveLength(3));
    expect(get(posts).hasNext).toBe(true);
    expect(Array.isArray(calls[0]?.[0])).toBe(true);
    expect(calls[0]?.[1]).toBeUndefined();
    await posts.loadNext();
    expect(get(posts).hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2']);
    stop();
  });
});

describe('createInfiniteQuery on a disposed controller', () => {
  it('loadNext() neither throws nor rejects, and requests nothing', async () => {
    const posts = createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE });
    const stop = posts.subscribe(() => {});
    await vi.waitFor(() => expect(get(posts).data).toHaveLength(3));
    controller.dispose();
    let result: Promise<void> | undefined;
    expect(() => (result = posts.loadNext())).not.toThrow();
    await expect(result).resolves.toBeUndefined();
    expect(feed.requests).toEqual(['GET /posts']);
    stop();
  });
});
