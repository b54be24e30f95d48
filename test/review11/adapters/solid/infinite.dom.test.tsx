/**
 * An outside review of rx-rest/solid's createInfiniteQuery against docs/adapters.md ("Infinite lists"): two
 * readers of one list share where paging stands (hasNext, the page on its way), as in the Svelte adapter.
 * HTTP through the msw feed server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRoot } from 'solid-js';
import { setupServer } from 'msw/node';
import { Controller } from '../../../../core/index.js';
import { createInfiniteQuery } from '../../../../adapters/solid/index.js';
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

/** Two readers of the posts list, in a root disposed by `stop`. */
const twoReaders = () =>
  createRoot((stop) => ({
    a: createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE }),
    b: createInfiniteQuery(PostResource.getList, undefined, { controller, pageSize: FEED_PAGE }),
    stop,
  }));

describe('createInfiniteQuery, two readers of one list', () => {
  it('share where paging stands: the last page loaded by one ends hasNext in both', async () => {
    const { a, b, stop } = twoReaders();
    await vi.waitFor(() => expect(b().data).toHaveLength(3));
    await a.loadNext();
    await vi.waitFor(() => expect(b().data).toHaveLength(6));
    await b.loadNext();
    expect(a().data).toHaveLength(7);
    expect(a().hasNext).toBe(false);
    expect(b().hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2', 'GET /posts?page=3']);
    stop();
  });

  it('share the page on its way: fetchingNext in both, one promise, one request', async () => {
    const { a, b, stop } = twoReaders();
    await vi.waitFor(() => expect(b().data).toHaveLength(3));
    feed.setLatency(20);
    const loading = a.loadNext();
    expect(b.loadNext()).toBe(loading);
    expect(a().fetchingNext).toBe(true);
    expect(b().fetchingNext).toBe(true);
    await loading;
    expect(b()).toMatchObject({ fetchingNext: false, hasNext: true });
    expect(b().data).toHaveLength(6);
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2']);
    stop();
  });
});

describe('createInfiniteQuery on a disposed controller', () => {
  it('loadNext() neither throws nor rejects, and requests nothing', async () => {
    const { a, stop } = twoReaders();
    await vi.waitFor(() => expect(a().data).toHaveLength(3));
    controller.dispose();
    let result: Promise<void> | undefined;
    expect(() => (result = a.loadNext())).not.toThrow();
    await expect(result).resolves.toBeUndefined();
    expect(feed.requests).toEqual(['GET /posts']);
    stop();
  });
});
