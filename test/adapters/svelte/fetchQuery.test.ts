// fetchQuery on the server (node, Svelte's server build): with experimental.async, `render` waits for
// an `await` in the markup, so the HTML holds the data; prefetched data (a load) makes no request; a
// {#await} block renders its pending branch (Svelte's server render does not wait for blocks).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import { Controller } from '../../../core/index.js';
import { fetchQuery } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../resources.js';
import AsyncTodo from './AsyncTodo.svelte';
import AwaitTodo from './AwaitTodo.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  fake.requests.length = 0;
});

describe('fetchQuery on the server', () => {
  it('an await in the markup: the render waits, the HTML holds the data, one request', async () => {
    const controller = new Controller({ retry: 0 });
    const { body } = await render(AsyncTodo, { props: { controller, id: 2 } });
    expect(body).toContain('<h1>todo 2</h1>');
    expect(fake.requests).toEqual(['GET /todos/2']);
  });

  it('data a load prefetched is read from the store: no request', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetchIfStale(TodoResource.get, { id: 3 });
    fake.requests.length = 0;
    const { body } = await render(AsyncTodo, { props: { controller, id: 3 } });
    expect(body).toContain('<h1>todo 3</h1>');
    expect(fake.requests).toEqual([]);
  });

  it('a {#await} block renders its pending branch', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetchIfStale(TodoResource.get, { id: 1 });
    const { body } = await render(AwaitTodo, { props: { controller, id: 1 } });
    expect(body).toContain('Loading…');
  });

  it('outside a component with a controller, it throws a clear error', () => {
    expect(() => fetchQuery(TodoResource.get, { id: 1 })).toThrow(/lifecycle_outside_component|no Controller/);
  });
});
