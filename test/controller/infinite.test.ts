import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { firstValueFrom, filter, type Subscription } from 'rxjs';
import { controllerInternals } from '../../core/controller/Controller.js';
import { Controller, observeInfinite, type InfiniteState } from '../../core/index.js';
import { infiniteInternals } from '../../core/controller/infinite.js';
import { FEED_PAGE, PostFeed, PostResource, feedHandlers } from '../fixtures/feedServer.js';

const feed = feedHandlers();
const server = setupServer(...feed.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let controller: Controller;
let subscriptions: Subscription[];
beforeEach(() => {
  feed.requests.length = 0;
  feed.posts.length = 7;
  feed.setLatency(0);
  controller = new Controller({ retry: false });
  subscriptions = [];
});
afterEach(() => subscriptions.forEach((s) => s.unsubscribe()));

/** Subscribes and keeps the last state. */
function follow<T>(query: { state$: import('rxjs').Observable<InfiniteState<T>> }) {
  const states: InfiniteState<T>[] = [];
  subscriptions.push(query.state$.subscribe((state) => states.push(state)));
  return {
    states,
    get last() {
      return states[states.length - 1]!;
    },
    until: (predicate: (state: InfiniteState<T>) => boolean) => firstValueFrom(query.state$.pipe(filter(predicate))),
  };
}

const ids = (list: readonly { id: number }[] | undefined) => list?.map((post) => post.id);

/** The feed's first page loaded, page 2 on its way (answered 20 ms later), on a clock the test moves. */
async function pageTwoOut() {
  const clock = { now: 1_000 };
  controller = new Controller({ retry: false, now: () => clock.now });
  const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
  const view = follow(posts);
  await view.until((s) => s.data !== undefined);
  feed.setLatency(20);
  clock.now += 1;
  const loading = posts.loadNext();
  return { clock, posts, view, loading };
}

describe('observeInfinite by page number', () => {
  it('appends pages into one normalized list until a short page', async () => {
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    expect(view.last).toMatchObject({ loading: true, hasNext: false, fetchingNext: false });
    await view.until((s) => s.data !== undefined);
    expect(ids(view.last.data)).toEqual([1, 2, 3]);
    expect(view.last.hasNext).toBe(true);
    const loading = posts.loadNext();
    expect(view.last.fetchingNext).toBe(true);
    expect(posts.loadNext()).toBe(loading); // one page at a time
    await loading;
    expect(view.last).toMatchObject({ fetchingNext: false, hasNext: true });
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6]);
    await posts.loadNext();
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(view.last.hasNext).toBe(false); // 1 < pageSize
    await posts.loadNext(); // nothing left: no request
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2', 'GET /posts?page=3']);
    // the pages are one list in the store, under the list's own arguments
    expect(ids(controller.getResponse(PostResource.getList).data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('following a list does not hand the store state out: single-record writes stay in place', async () => {
    const view = follow(observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE }));
    await view.until((s) => s.data !== undefined);
    const { store } = controllerInternals(controller);
    const table = store.current.entities.Post;
    for (const title of ['first', 'second']) {
      controller.setResponse(PostResource.get, { id: 1 }, { id: 1, userId: 1, title });
      expect(view.last.data?.[0]?.title).toBe(title);
      // each emission looks up where paging stands; the table is still written in place, not copied
      expect(store.current.entities.Post).toBe(table);
    }
  });

  it('without pageSize, the list ends at an empty page', async () => {
    const posts = observeInfinite(controller, PostResource.getList, { userId: 2 });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    expect(ids(view.last.data)).toEqual([2, 4, 6]);
    await posts.loadNext();
    expect(view.last.hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /posts?userId=2', 'GET /posts?page=2&userId=2']);
  });

  it('a created item joins the paged list; other lists keep their pages', async () => {
    const mine = observeInfinite(controller, PostResource.getList, { userId: 1 }, { pageSize: FEED_PAGE });
    const view = follow(mine);
    await view.until((s) => s.data !== undefined);
    await mine.loadNext();
    expect(ids(view.last.data)).toEqual([1, 3, 5, 7]);
    await controller.fetch(PostResource.getList.push, { userId: 1 }, { title: 'new', userId: 1 });
    expect(ids(view.last.data)).toEqual([1, 3, 5, 7, 8]);
    expect(view.last.data?.at(-1)?.title).toBe('new');
  });

  it('a page answered after a push joined the list still joins it whole (no missing middle rows)', async () => {
    const { clock, posts, view, loading } = await pageTwoOut(); // page 2 starts
    clock.now += 1;
    // a live stream pushes a post created by someone else while page 2 is out
    const created = { id: 100, userId: 1, title: 'pushed' };
    controller.set(PostResource.getList.schema.push, {}, created, created);
    expect(ids(view.last.data)).toEqual([1, 2, 3, 100]);
    await loading;
    expect(ids(view.last.data)).toEqual([1, 2, 3, 100, 4, 5, 6]);
    await posts.loadNext();
    expect(ids(view.last.data)).toEqual([1, 2, 3, 100, 4, 5, 6, 7]);
    expect(view.last.hasNext).toBe(false);
  });

  it('a page answered after a push removed one of its rows leaves that row out and joins the rest', async () => {
    const { clock, view, loading } = await pageTwoOut(); // page 2 (posts 4, 5, 6) starts
    clock.now += 1;
    // post 5 moves to another list after page 2 started: the page's older answer must not bring it back
    controller.set(PostResource.getList.schema.remove, {}, { id: 5 });
    await loading;
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 6]);
  });

  it('a page whose rows could not join the list (more changes meanwhile than the list logs) is loaded again, not skipped', async () => {
    const { clock, posts, view, loading } = await pageTwoOut(); // page 2 starts
    // a burst of pushes while it is out: more than the 64 changes a list logs
    for (let id = 100; id < 170; id++) {
      clock.now += 1;
      const created = { id, userId: 1, title: `pushed ${id}` };
      controller.set(PostResource.getList.schema.push, {}, created, created);
    }
    await loading;
    feed.setLatency(0);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=2']);
    expect(ids(view.last.data)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6]));
    await posts.loadNext();
    expect(ids(view.last.data)).toContain(7);
  });

  /** Post 5 deleted while page 2 (posts 4, 5, 6) is out: the page shows without it, and paging moves on to page 3. */
  async function deletedWhileOut() {
    const { clock, posts, view, loading } = await pageTwoOut();
    clock.now += 1;
    controller.set(PostResource.delete.schema, { id: 5 });
    await loading;
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 6]);
    feed.setLatency(0);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=3']);
  }

  it('a page one of whose rows was deleted while it was out still moves paging on', deletedWhileOut);

  it('the same when its rows hold a field named constructor (data, not their class)', async () => {
    const constructors = feed.posts.map((post) => Object.getOwnPropertyDescriptor(post, 'constructor'));
    feed.posts.forEach((post) =>
      Object.defineProperty(post, 'constructor', {
        value: 'data',
        enumerable: true,
        configurable: true,
        writable: true,
      }),
    );
    try {
      await deletedWhileOut();
    } finally {
      feed.posts.forEach((post, i) => {
        delete (post as { constructor?: unknown }).constructor;
        if (constructors[i]) Object.defineProperty(post, 'constructor', constructors[i]);
      });
    }
  });

  it('a page answered for a list that set replaced meanwhile does not move paging past rows the list does not hold', async () => {
    const { clock, posts, view, loading } = await pageTwoOut(); // page 2 (posts 4, 5, 6) starts
    clock.now += 1;
    // the app replaces the list while page 2 is out: a new whole list that holds one row of page 2
    const replaced = [1, 2, 3, 4].map((id) => ({ id, userId: 1, title: `post ${id}` }));
    controller.set(PostResource.getList.schema, {}, replaced);
    await loading;
    // the older page does not join the newer list, and paging starts over from that list as its first page
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4]);
    expect(view.last).toMatchObject({ hasNext: true, fetchingNext: false });
    feed.setLatency(0);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=2']);
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6]);
    await posts.loadNext();
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(view.last.hasNext).toBe(false);
  });

  it('a page answered for a list that setResponse replaced meanwhile (no reader following it) does not move paging on', async () => {
    const clock = { now: 1_000 };
    controller = new Controller({ retry: false, now: () => clock.now });
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    subscriptions.forEach((s) => s.unsubscribe()); // paging goes on without a live reader (the list is kept)
    feed.setLatency(20);
    clock.now += 1;
    const loading = posts.loadNext();
    clock.now += 1;
    const replaced = [1, 2, 3, 4, 5].map((id) => ({ id, userId: 1, title: `post ${id}` }));
    controller.setResponse(PostResource.getList, undefined, replaced);
    await loading;
    expect(ids(controller.getResponse(PostResource.getList).data)).toEqual([1, 2, 3, 4, 5]);
    feed.setLatency(0);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=2']);
  });

  it('a page answered for a list that set replaced with a list holding all its rows moves paging on', async () => {
    const { clock, posts, view, loading } = await pageTwoOut();
    clock.now += 1;
    const replaced = [1, 2, 3, 4, 5, 6].map((id) => ({ id, userId: 1, title: `post ${id}` }));
    controller.set(PostResource.getList.schema, {}, replaced);
    await loading;
    feed.setLatency(0);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=3']);
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a failed page shows as error and keeps the list; the next try loads it', async () => {
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    feed.failNext();
    await expect(posts.loadNext()).resolves.toBeUndefined();
    expect(view.last.error?.message).toMatch(/GET .*\/posts\?page=2.*500/);
    expect(view.last).toMatchObject({ hasNext: true, fetchingNext: false });
    expect(ids(view.last.data)).toEqual([1, 2, 3]);
    await posts.loadNext();
    expect(view.last.error).toBeUndefined();
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a refetched list starts paging over from its new first page (also within one clock tick)', async () => {
    controller = new Controller({ retry: false, now: () => 1_000 });
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    await posts.loadNext();
    await posts.loadNext();
    expect(view.last.hasNext).toBe(false);
    controller.invalidate(PostResource.getList);
    await view.until((s) => !s.fetching && s.data !== undefined);
    expect(ids(view.last.data)).toEqual([1, 2, 3]);
    expect(view.last.hasNext).toBe(true);
    await posts.loadNext();
    expect(feed.requests.at(-1)).toBe('GET /posts?page=2');
  });

  it('a failed refetch keeps the pages and where paging stands', async () => {
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    await posts.loadNext();
    feed.failNext();
    controller.expireAll(PostResource.getList);
    await view.until((s) => !s.fetching && s.error !== undefined);
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6]);
    feed.requests.length = 0;
    await posts.loadNext();
    expect(feed.requests).toEqual(['GET /posts?page=3']);
  });

  it('a second reader of the same list resumes where paging stands', async () => {
    const first = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(first);
    await view.until((s) => s.data !== undefined);
    await first.loadNext();
    const second = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const again = follow(second);
    expect(ids(again.last.data)).toEqual([1, 2, 3, 4, 5, 6]);
    await second.loadNext();
    expect(feed.requests).toEqual(['GET /posts', 'GET /posts?page=2', 'GET /posts?page=3']);
  });

  it('null args: idle, loadNext does nothing', async () => {
    const posts = observeInfinite(controller, PostResource.getList, null);
    const view = follow(posts);
    await posts.loadNext();
    expect(view.states).toEqual([
      {
        data: undefined,
        error: undefined,
        loading: false,
        fetching: false,
        stale: false,
        paused: false,
        hasNext: false,
        fetchingNext: false,
      },
    ]);
    expect(feed.requests).toEqual([]);
  });
});

describe('observeInfinite by cursor ({ results: Collection, next })', () => {
  it('follows the cursor of each page until it is null', async () => {
    const feedQuery = observeInfinite(controller, PostFeed, { userId: 1 });
    const view = follow(feedQuery);
    await view.until((s) => s.data !== undefined);
    expect(ids(view.last.data?.results)).toEqual([1, 3, 5]);
    expect(view.last.hasNext).toBe(true);
    await feedQuery.loadNext();
    expect(ids(view.last.data?.results)).toEqual([1, 3, 5, 7]);
    expect(view.last.hasNext).toBe(false);
    expect(feed.requests).toEqual(['GET /feed?userId=1', 'GET /feed?cursor=c3&userId=1']);
  });

  it('a page of another filter does not join this list', async () => {
    const all = observeInfinite(controller, PostFeed, undefined);
    const mine = observeInfinite(controller, PostFeed, { userId: 2 });
    const allView = follow(all);
    const myView = follow(mine);
    await allView.until((s) => s.data !== undefined);
    await myView.until((s) => s.data !== undefined);
    await mine.loadNext(); // user 2 has 3 posts: no next page
    expect(myView.last.hasNext).toBe(false);
    await all.loadNext();
    expect(ids(allView.last.data?.results)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(myView.last.data?.results)).toEqual([2, 4, 6]);
  });
});

describe('observeInfinite errors', () => {
  it('names the endpoint when its schema cannot page', () => {
    expect(() => observeInfinite(controller, PostResource.get, { id: 1 })).toThrow(
      /observeInfinite\(Post\.get\): its schema must be a Collection/,
    );
  });
  it('names the endpoint when it has no paginationField', () => {
    const list = PostResource.getList.extend({ paginationField: undefined, name: 'Post.plainList' });
    expect(() => observeInfinite(controller, list, undefined)).toThrow(
      /observeInfinite\(Post\.plainList\): no paginationField/,
    );
  });
});

describe('the paging of lists the store let go', () => {
  it('is forgotten with them: a controller that pages through many argument lists keeps no paging for collected ones', async () => {
    const clock = { now: 1_000 };
    controller = new Controller({ retry: false, now: () => clock.now, gcTime: 1_000 });
    const opened = 80;
    for (let userId = 1; userId <= opened; userId++) {
      const posts = observeInfinite(controller, PostResource.getList, { userId }, { pageSize: FEED_PAGE });
      const subscription = posts.state$.subscribe();
      await firstValueFrom(posts.state$.pipe(filter((s) => s.data !== undefined)));
      subscription.unsubscribe();
      clock.now += 2_000; // its list is collected
      controller.gc();
    }
    const kept = infiniteInternals(controller);
    expect(kept.cursors).toBeLessThan(opened / 2);
    expect(kept.pagers).toBeLessThan(opened / 2);
    // a list still observed keeps its paging across the sweeps: its next page follows its first
    const posts = observeInfinite(controller, PostResource.getList, undefined, { pageSize: FEED_PAGE });
    const view = follow(posts);
    await view.until((s) => s.data !== undefined);
    await posts.loadNext();
    for (let userId = 1; userId <= 40; userId++) {
      const other = observeInfinite(
        controller,
        PostResource.getList,
        { userId: 1000 + userId },
        { pageSize: FEED_PAGE },
      );
      const subscription = other.state$.subscribe();
      await firstValueFrom(other.state$.pipe(filter((s) => s.data !== undefined)));
      subscription.unsubscribe();
      clock.now += 2_000;
      controller.gc();
    }
    await posts.loadNext();
    expect(ids(view.last.data)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(view.last.hasNext).toBe(false);
  });
});
