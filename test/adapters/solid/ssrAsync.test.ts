// Server rendering that waits for data: node environment, Solid's server build (no JSX: components
// return strings). createQuery inside <Suspense> resolves under renderToStringAsync and renderToStream,
// the HTML holds the data, and the resource's value (the request's snapshot) is serialized into the page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import { renderToStringAsync } from 'solid-js/web';
import { provideRequestEvent } from 'solid-js/web/storage';
import { Controller, peekQuery } from '../../../core/index.js';
import {
  ControllerProvider,
  controllerPerRequest,
  createQuery,
  createQueryState,
  preloadQuery,
} from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../resources.js';
import { streamed } from './streamed.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
  fake.setLatency(0);
});

/** `<ControllerProvider><ErrorBoundary><Suspense>{children}</Suspense></ErrorBoundary></ControllerProvider>`. */
function page(controller: Controller, children: () => JSX.Element): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(ErrorBoundary, {
          fallback: (error: Error) => `failed: ${error.message}`,
          get children() {
            return createComponent(Suspense, {
              fallback: 'Loading…',
              get children() {
                return children();
              },
            });
          },
        });
      },
    });
}

/** A list of the user's todo titles, from createQuery (and createQueryState for the same key). */
function TitlesOf(userId: number) {
  return () => {
    const todos = createQuery(TodoResource.getList, () => ({ userId }));
    const state = createQueryState(TodoResource.getList, () => ({ userId }));
    return `titles: ${todos()
      ?.map((todo) => todo.title)
      .join(', ')}; loading: ${state().loading}`;
  };
}

describe('createQuery on the server', () => {
  it('renderToStringAsync waits for the data: the HTML holds it, and its snapshot is serialized', async () => {
    const controller = new Controller({ retry: 0 });
    const html = await renderToStringAsync(page(controller, TitlesOf(1)));
    expect(html).toContain('titles: todo 1, todo 3; loading: false');
    expect(html).not.toContain('todo 2');
    expect(html).not.toContain('Loading…');
    expect(html).toContain('rx-rest'); // the resource's value: the request key and its snapshot
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('two queries of one request make one request; prefetched data makes none', async () => {
    const twice = () => `${TitlesOf(2)()} ${TitlesOf(2)()}`;
    await renderToStringAsync(page(new Controller({ retry: 0 }), twice));
    expect(fake.requests).toEqual(['GET /todos?userId=2']);
    const prefetched = new Controller({ retry: 0 });
    await prefetched.fetch(TodoResource.getList, { userId: 2 });
    fake.requests.length = 0;
    expect(await renderToStringAsync(page(prefetched, TitlesOf(2)))).toContain('titles: todo 2, todo 4');
    expect(fake.requests).toEqual([]);
  });

  it('renderToStream streams the shell, then the data in the same response', async () => {
    fake.setLatency(20);
    const { html, first } = await streamed(page(new Controller({ retry: 0 }), TitlesOf(1)));
    expect(first).toContain('Loading…');
    expect(html).toContain('titles: todo 1, todo 3');
  });

  it('with deferStream the first flush already holds the data', async () => {
    fake.setLatency(20);
    const Deferred = () => {
      const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }), { deferStream: true });
      return `${todos()?.length} todos`;
    };
    const { first } = await streamed(page(new Controller({ retry: 0 }), Deferred));
    expect(first).toContain('2 todos');
  });

  it('a failed request renders the ErrorBoundary, with one request', async () => {
    fake.fail('GET', 500);
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), TitlesOf(1)));
    expect(html).toContain('failed:');
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    expect(html).not.toMatch(/at .*RestEndpoint|node_modules|\.ts:\d+/); // the error sent to the page holds no stack
  });

  it('preloadQuery starts the request that the page then joins (one request), and leaves failures to the query', async () => {
    const controller = new Controller({ retry: 0 });
    fake.setLatency(20);
    preloadQuery(controller, TodoResource.getList, { userId: 1 });
    expect(peekQuery(controller, TodoResource.getList, { userId: 1 }).fetching).toBe(true);
    expect(await renderToStringAsync(page(controller, TitlesOf(1)))).toContain('titles: todo 1, todo 3');
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    fake.fail('GET', 500);
    preloadQuery(controller, TodoResource.get, { id: 9 }); // no unhandled rejection
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('an idle query (null args) makes no request and renders no data', async () => {
    const Idle = () => {
      const todo = createQuery(TodoResource.get, () => null);
      return `todo: ${todo()?.title ?? 'none'}`;
    };
    expect(await renderToStringAsync(page(new Controller({ retry: 0 }), Idle))).toContain('todo: none');
    expect(fake.requests).toEqual([]);
  });
});

describe('controllerPerRequest', () => {
  const appController = controllerPerRequest(() => new Controller({ retry: 0 }));
  // a request event as SolidStart provides it (what the test needs of it: an object per request)
  type RequestEvent = Parameters<typeof provideRequestEvent>[0];
  const event = () => ({ request: new Request('http://app.test/'), locals: {} }) as unknown as RequestEvent;

  it('gives each request its own controller, and the same one within a request', async () => {
    const seen = await Promise.all(
      [1, 2].map((userId) =>
        provideRequestEvent(event(), async () => {
          const controller = appController();
          expect(appController()).toBe(controller);
          const html = await renderToStringAsync(page(appController(), TitlesOf(userId)));
          return { controller, html };
        }),
      ),
    );
    expect(seen[0]!.controller).not.toBe(seen[1]!.controller);
    expect(seen[0]!.html).toContain('todo 1');
    expect(seen[0]!.html).not.toContain('todo 2');
    expect(seen[1]!.html).toContain('todo 2');
    expect(seen[1]!.html).not.toContain('todo 1');
  });

  it('throws a clear error on the server outside a request', () => {
    expect(() => appController()).toThrow(/controllerPerRequest: no request on the server/);
  });
});
