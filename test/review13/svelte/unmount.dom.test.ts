/**
 * An outside review of rx-rest/svelte: a query whose component unmounts while its request is out. The
 * request is aborted when no one else wants it, and nothing reaches the unmounted component; a component
 * that mounts in the same update (a `{#key}` block, a branch switched) takes the request over.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { get } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller, inspectController } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import KeyedTodo from './KeyedTodo.svelte';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** `GET /todos/:id` answered after `latency` ms; counts the requests aborted. */
function slowTodos(latency = 50) {
  const seen = { aborted: 0 };
  server.use(
    http.get(`${API}/todos/:id`, async ({ request, params }) => {
      request.signal.addEventListener('abort', () => seen.aborted++);
      await delay(latency);
      return HttpResponse.json(todoRow(Number(params.id)));
    }),
  );
  return seen;
}

describe('a query unmounted while its request is out', () => {
  it('a {#key} block that renders its query again keeps the request: one request, none aborted', async () => {
    const requests = recordRequests(server);
    const seen = slowTodos();
    const controller = new Controller({ retry: 0 });
    const view = render(KeyedTodo, { controller, version: 1 });
    expect(screen.getAllByText('Loading…')).toHaveLength(2);
    await delay(10); // the request is out
    await view.rerender({ controller, version: 2 }); // the old TodoTitle unmounts, a new one mounts
    expect(await screen.findAllByRole('heading')).toBeTruthy();
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['todo 1', 'todo 1']);
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
  });

  it('`get(store)` in a script, then `$store` in the markup: one request, not one sent and aborted', async () => {
    const requests = recordRequests(server);
    const seen = slowTodos();
    const controller = new Controller({ retry: 0 });
    const todo = createQuery(TodoResource.get, { id: 1 }, controller);
    expect(get(todo).loading).toBe(true); // subscribes (the request starts) and unsubscribes
    const stop = todo.subscribe(() => {}); // the markup's $todo, in the same task
    await delay(80);
    expect(get(todo).data?.title).toBe('todo 1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
    stop();
  });

  it('unmounted for good: the request is aborted, no state reaches the component, and no stream is left', async () => {
    const seen = slowTodos();
    const controller = new Controller({ retry: 0 });
    const view = render(KeyedTodo, { controller, version: 1 });
    const todo = createQuery(TodoResource.get, { id: 1 }, controller);
    const states: unknown[] = [];
    const stop = todo.subscribe((state) => states.push(state));
    await delay(10);
    view.unmount();
    stop();
    flushSync();
    const emitted = states.length;
    await delay(80);
    expect(seen.aborted).toBe(1);
    expect(states).toHaveLength(emitted);
    const inspector = inspectController(controller);
    expect(inspector.query('GET http://api.test/todos/1')).toMatchObject({ observers: 0, fetching: false });
  });
});
