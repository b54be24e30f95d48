// Server rendering of the queries that do not suspend: node environment, Solid's server build (no JSX:
// components return strings). createQueryState and createInfiniteQuery inside <Suspense> resolve under
// renderToStringAsync and renderToStream like createQuery: the HTML holds their data and their
// resource's value (the request's snapshot) is serialized into the page; a failure shows as their error.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createComponent, Suspense, type JSX } from 'solid-js';
import { renderToStringAsync } from 'solid-js/web';
import { Controller, peekQuery } from '../../../core/index.js';
import { ControllerProvider, createInfiniteQuery, createQueryState } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { feedHandlers, PostFeed, PostResource } from '../../fixtures/feedServer.js';
import { TodoResource } from '../resources.js';
import { streamed } from './streamed.js';

const fake = createTodoServer();
const feed = feedHandlers();
beforeAll(() => {
  fake.server.use(...feed.handlers);
  fake.server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => fake.server.close());
afterEach(() => {
  fake.requests.length = 0;
  feed.requests.length = 0;
  fake.clearFailures();
  fake.setLatency(0);
  feed.setLatency(0);
});

/** `<ControllerProvider><Suspense>{children}</Suspense></ControllerProvider>`. */
function page(controller: Controller, children: () => JSX.Element): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(Suspense, {
          fallback: 'Loading…',
          get children() {
            return children();
          },
        });
      },
    });
}

/** The user's todo titles from createQueryState, and its flags. */
const StateOf = (userId: number) => () => {
  const todos = createQueryState(TodoResource.getList, () => ({ userId }));
  const { data, loading, error } = todos();
  return `titles: ${data?.map((todo) => todo.title).join(', ')}; loading: ${loading}; error: ${error?.message ?? 'none'}`;
};

describe('createQueryState on the server', () => {
  it('renderToStringAsync waits for its data: the HTML holds it and its snapshot, one request', async () => {
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), StateOf(1)));
    expect(html).toContain('titles: todo 1, todo 3; loading: false; error: none');
    expect(html).not.toContain('Loading…');
    expect(html).toContain('rx-rest'); // the resource's value: the request key and its snapshot
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('renderToStream streams the shell, then its data; prefetched data makes no request', async () => {
    fake.setLatency(20);
    const { html, first } = await streamed(page(new Controller({ retry: 0 }), StateOf(2)));
    expect(first).toContain('Loading…');
    expect(html).toContain('titles: todo 2, todo 4; loading: false');
    const prefetched = new Controller({ retry: 0 });
    await prefetched.fetch(TodoResource.getList, { userId: 2 });
    fake.requests.length = 0;
    expect(await renderToStringAsync(page(prefetched, StateOf(2)))).toContain('titles: todo 2, todo 4');
    expect(fake.requests).toEqual([]);
  });

  it('a failed request does not throw: it renders the state the browser hydrates (a subscriber retries: loading)', async () => {
    fake.fail('GET', 500);
    const controller = new Controller({ retry: 0 });
    const html = await renderToStringAsync(page(controller, StateOf(1)));
    const { loading, error } = peekQuery(controller, TodoResource.getList, { userId: 1 });
    expect(html).toContain(`titles: undefined; loading: ${loading}; error: ${error?.message ?? 'none'}`);
    expect(html).not.toContain('Loading…'); // the boundary resolved
    expect(html).toContain('answered 500'); // the failure travels in the snapshot (the request's meta)
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    expect(html).not.toMatch(/at .*RestEndpoint|node_modules|\.ts:\d+/);
  });

  it('an idle state (null args) makes no request', async () => {
    const Idle = () => {
      const todo = createQueryState(TodoResource.get, () => null);
      return `todo: ${todo().data?.title ?? 'none'}`;
    };
    expect(await renderToStringAsync(page(new Controller({ retry: 0 }), Idle))).toContain('todo: none');
    expect(fake.requests).toEqual([]);
  });
});

describe('createInfiniteQuery on the server', () => {
  it('renders its first page and whether a next one follows (pages by number), one request', async () => {
    const Feed = () => {
      const posts = createInfiniteQuery(PostResource.getList, () => undefined, { pageSize: 3 });
      return `posts: ${posts()
        .data?.map((post) => post.title)
        .join(', ')}; hasNext: ${posts().hasNext}; loading: ${posts().loading}`;
    };
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), Feed));
    expect(html).toContain('posts: post 1, post 2, post 3; hasNext: true; loading: false');
    expect(feed.requests).toEqual(['GET /posts']);
  });

  it('renders the last page of a cursor list without a next one', async () => {
    const Feed = () => {
      const posts = createInfiniteQuery(PostFeed, () => ({ userId: 2 }));
      const data = posts().data as { results: { title: string }[] } | undefined;
      return `posts: ${data?.results.map((post) => post.title).join(', ')}; hasNext: ${posts().hasNext}`;
    };
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), Feed));
    expect(html).toContain('posts: post 2, post 4, post 6; hasNext: false');
    expect(feed.requests).toEqual(['GET /feed?userId=2']);
  });
});
