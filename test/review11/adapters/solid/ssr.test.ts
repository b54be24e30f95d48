/**
 * An outside review of rx-rest/solid's server rendering against docs/ssr-solidstart.md and docs/reference.md:
 * every read form under renderToStringAsync inside <Suspense> (useSuspense, useLive, createQueryState,
 * createInfiniteQuery, createMutation), timers, and renderToString's synchronous render. Node environment,
 * Solid's server build (no JSX: components return strings), msw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import { renderToString, renderToStringAsync } from 'solid-js/web';
import { Controller } from '../../../../core/index.js';
import {
  ControllerProvider,
  createInfiniteQuery,
  createMutation,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../../adapters/solid/index.js';
import { feedHandlers, PostResource } from '../../../fixtures/feedServer.js';
import { createTodoServer } from '../../../fixtures/todoServer.js';
import { TodoResource } from '../../../fixtures/todoResource.js';
import { PollingTodoResource } from '../../../adapters/resources.js';

const fake = createTodoServer();
const feed = feedHandlers();
beforeAll(() => {
  fake.server.use(...feed.handlers);
  fake.server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => fake.server.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
  feed.requests.length = 0;
});

/** `<ControllerProvider><ErrorBoundary><Suspense>{children}</Suspense></ErrorBoundary></ControllerProvider>`. */
function page(controller: Controller, children: () => unknown): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(ErrorBoundary, {
          fallback: (error: Error) => `failed: ${error.message}`,
          get children() {
            return createComponent(Suspense, { fallback: 'Loading…', children: children() as JSX.Element });
          },
        });
      },
    });
}

/** Every read form of the adapter for user `userId`, as text. */
const everyForm = (userId: number) => () => {
  const one = useSuspense(TodoResource.get, () => ({ id: userId }));
  const live = useLive(PollingTodoResource.get, () => ({ id: userId + 2 }));
  const state = createQueryState(TodoResource.getList, () => ({ userId }));
  const posts = createInfiniteQuery(PostResource.getList, undefined, { pageSize: 3 });
  const save = createMutation(TodoResource.partialUpdate);
  return () =>
    `one: ${one()?.title}; live: ${live()?.title}; list: ${state()
      .data?.map((t) => t.title)
      .join(', ')}; posts: ${posts().data?.length}, next ${posts().hasNext}; save: ${save.pending()}`;
};

describe('rx-rest/solid on the server, under renderToStringAsync', () => {
  it('every read form resolves: the HTML holds the data, one request each, and no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'setTimeout'], shouldAdvanceTime: true });
    try {
      const controller = new Controller({ retry: 0 });
      const html = await renderToStringAsync(page(controller, everyForm(1)));
      expect(html).toContain('one: todo 1; live: todo 3; list: todo 1, todo 3; posts: 3, next true; save: false');
      expect(html).not.toContain('Loading…');
      expect([...fake.requests].sort()).toEqual(['GET /todos/1', 'GET /todos/3', 'GET /todos?userId=1']);
      expect(feed.requests).toEqual(['GET /posts']);
      vi.clearAllTimers();
      await vi.advanceTimersByTimeAsync(100); // a poll would have asked again by now
      expect(fake.requests).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('useSuspense of a 404 renders the ErrorBoundary', async () => {
    const Missing = () => {
      const todo = useSuspense(TodoResource.get, () => ({ id: 99 }));
      return () => `todo: ${todo()?.title}`;
    };
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), Missing));
    expect(html).toContain('failed:');
    expect(html).toContain('404');
  });
});

describe('rx-rest/solid on the server, under renderToString (synchronous: no query waits)', () => {
  it('inside <Suspense>, renders the data the controller holds, as the browser does with the same state', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetch(TodoResource.get, { id: 1 });
    await controller.fetch(TodoResource.getList, { userId: 1 });
    fake.requests.length = 0;
    const Held = () => {
      const held = useSuspense(TodoResource.get, () => ({ id: 1 }));
      const list = useLive(TodoResource.getList, () => ({ userId: 1 }));
      const state = createQueryState(TodoResource.get, () => ({ id: 1 }));
      return () => `held: ${held()?.title}; list: ${list()?.length}; loading: ${state().loading}`;
    };
    const html = renderToString(page(controller, Held));
    expect(html).toContain('held: todo 1; list: 2; loading: false');
    expect(html).not.toContain('Loading…');
    controller.expireAll(TodoResource.get); // stale data: the browser shows it too (and refetches there)
    expect(renderToString(page(controller, Held))).toContain('held: todo 1;');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toEqual([]);
  });

  it('a suspending query whose data it does not hold renders the fallback (the browser suspends too), and nothing is fetched', async () => {
    const controller = new Controller({ retry: 0 });
    const Missing = () => {
      const other = useSuspense(TodoResource.get, () => ({ id: 2 }));
      return () => `other: ${other()?.title}`;
    };
    const html = renderToString(page(controller, Missing));
    expect(html).toContain('Loading…');
    expect(html).not.toContain('other:');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toEqual([]);
  });

  it('createQueryState and createInfiniteQuery, which never suspend, render their loading state, not the fallback', async () => {
    const controller = new Controller({ retry: 0 });
    const States = () => {
      const state = createQueryState(TodoResource.get, () => ({ id: 2 }));
      const posts = createInfiniteQuery(PostResource.getList, undefined, { pageSize: 3 });
      return () => `loading: ${state().loading}; posts: ${posts().data?.length ?? 'none'}`;
    };
    const html = renderToString(page(controller, States));
    expect(html).toContain('loading: true; posts: none');
    expect(html).not.toContain('Loading…');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toEqual([]);
    expect(feed.requests).toEqual([]);
  });
});
