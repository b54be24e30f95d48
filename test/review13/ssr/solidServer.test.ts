/**
 * An outside review of rx-rest/solid's server rendering (docs/ssr-solidstart.md, docs/reference.md "Server
 * rendering"), as a solid-query user would render: renderToString (synchronous) against renderToStringAsync and
 * renderToStream with a boundary whose queries are partly held, and what a failed request renders. Node
 * environment, Solid's server build (no JSX: components return strings).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createComponent, Suspense } from 'solid-js';
import { renderToString, renderToStringAsync } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { createQuery } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { streamed } from '../../adapters/solid/streamed.js';
import { layout, paragraph } from './layout.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
  fake.setLatency(0);
});

/** The guide's layout around `children`, its error boundary showing the error's name, status and message. */
const page = (controller: Controller, children: () => unknown) =>
  layout(controller, children, (error) => `failed: ${error.name} ${error.status ?? ''}: ${error.message}`);

const p = paragraph;

/** A todo (held by the controller) and a list (not held) read by one boundary. */
const HeldAndMissing = () => {
  const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
  const list = createQuery(TodoResource.getList, () => ({ userId: 2 }));
  return p(
    () =>
      `todo: ${todo()?.title}; list: ${list()
        ?.map((t) => t.title)
        .join(', ')}`,
  );
};

async function holdingTodo1(options: ConstructorParameters<typeof Controller>[0] = {}) {
  const controller = new Controller({ retry: 0, ...options });
  await controller.fetch(TodoResource.get, { id: 1 });
  fake.requests.length = 0;
  return controller;
}

describe('a boundary whose queries the controller partly holds', () => {
  it('renderToString renders the boundary fallback (Solid waits for every query of a boundary) and fetches nothing', async () => {
    const controller = await holdingTodo1();
    const html = renderToString(page(controller, HeldAndMissing));
    expect(html).toContain('Loading…');
    expect(html).not.toContain('todo: ');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toEqual([]);
  });

  it('renderToString renders each held query in a boundary of its own', async () => {
    const controller = await holdingTodo1();
    const Own = () => {
      const todo = () => {
        const held = createQuery(TodoResource.get, () => ({ id: 1 }));
        return p(() => `todo: ${held()?.title}`);
      };
      const list = () => {
        const missing = createQuery(TodoResource.getList, () => ({ userId: 2 }));
        return p(() => `list: ${missing()?.length}`);
      };
      return [
        createComponent(Suspense, {
          fallback: 'todo loading',
          get children() {
            return createComponent(todo, {});
          },
        }),
        createComponent(Suspense, {
          fallback: 'list loading',
          get children() {
            return createComponent(list, {});
          },
        }),
      ];
    };
    const html = renderToString(page(controller, Own));
    expect(html).toContain('todo: todo 1');
    expect(html).toContain('list loading');
  });

  it('renderToStringAsync renders both, fetching only what the controller did not hold', async () => {
    const controller = await holdingTodo1();
    const html = await renderToStringAsync(page(controller, HeldAndMissing));
    expect(html).toContain('todo: todo 1; list: todo 2, todo 4');
    expect(html).not.toContain('Loading…');
    expect(fake.requests).toEqual(['GET /todos?userId=2']);
  });

  it('renderToStream streams the fallback, then both, fetching only what was not held', async () => {
    const controller = await holdingTodo1();
    fake.setLatency(20);
    const { first, html } = await streamed(page(controller, HeldAndMissing));
    expect(first).toContain('Loading…');
    expect(html).toContain('todo: todo 1; list: todo 2, todo 4');
    expect(fake.requests).toEqual(['GET /todos?userId=2']);
  });
});

describe('a failed request during a server render', () => {
  const One = () => {
    const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
    return p(() => `todo: ${todo()?.title}`);
  };

  it('a 500 renders the ErrorBoundary with a NetworkError naming the request and status', async () => {
    fake.fail('GET', 500);
    const html = await renderToStringAsync(page(new Controller({ retry: 0 }), One));
    expect(html).toContain('failed: NetworkError 500: ');
    expect(html).toContain('GET http://api.test/todos/1');
  });

  it('an HTML error page (a proxy 502) is a NetworkError with its status, not a JSON parse failure', async () => {
    const fetch = () =>
      Promise.resolve(
        new Response('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
      );
    const html = await renderToStringAsync(page(new Controller({ fetch }), One));
    expect(html).toContain('failed: NetworkError 502: ');
  });

  it('a 200 HTML page instead of JSON is a named ParseError', async () => {
    const fetch = () =>
      Promise.resolve(
        new Response('<!doctype html><html><body>login</body></html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        }),
      );
    const html = await renderToStringAsync(page(new Controller({ fetch }), One));
    expect(html).toContain('failed: ParseError');
  });

  it('a network failure is a NetworkError with status 0, at once (no retry on a server)', async () => {
    let calls = 0;
    const fetch = () => {
      calls++;
      return Promise.reject(new TypeError('fetch failed'));
    };
    const started = Date.now();
    const html = await renderToStringAsync(page(new Controller({ fetch }), One));
    expect(html).toContain('failed: NetworkError 0: ');
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a failed refetch of stale data keeps the data in the controller', async () => {
    const controller = await holdingTodo1();
    controller.expireAll(TodoResource.get);
    fake.fail('GET', 503);
    await renderToStringAsync(page(controller, One)).catch(() => '');
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
  });
});

describe('held data whose refetch fails during a server render', () => {
  const One = () => {
    const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
    return p(() => `todo: ${todo()?.title}`);
  };

  it('a 5xx refetch of stale data renders the data it had (as the browser keeps it), not the ErrorBoundary', async () => {
    const controller = await holdingTodo1();
    controller.expireAll(TodoResource.get);
    fake.fail('GET', 503);
    const html = await renderToStringAsync(page(controller, One));
    expect(fake.requests).toEqual(['GET /todos/1']);
    const shown = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    expect(shown).toContain('todo: todo 1');
    expect(shown).not.toContain('failed:');
    expect(html).toContain('NetworkError'); // the page's snapshot carries the error: the browser shows it beside the data
  });

  it('a 404 refetch of stale data surfaces the error (as in the browser)', async () => {
    const controller = await holdingTodo1();
    controller.expireAll(TodoResource.get);
    fake.fail('GET', 404);
    const html = await renderToStringAsync(page(controller, One));
    expect(html).toContain('failed: NetworkError 404');
  });
});
