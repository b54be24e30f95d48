/**
 * rx-rest/svelte: a query store whose last subscriber leaves and a new one comes in the same task (plain store
 * code: unsubscribe then subscribe; a component unmounted and mounted again in one update) keeps its request in
 * flight: one request, none aborted. The request of a store left for good is still aborted, once the task ended
 * (docs/reference.md, "Abort").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { get, writable } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller, createResource, inspectController } from '../../../core/index.js';
import { createQuery, createInfiniteQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { Todo } from '../../fixtures/entities.js';
import Remount from './Remount.svelte';

const PagedTodos = createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, paginationField: 'page' });

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** `GET /todos/:id` and `GET /todos` answered after 50 ms; counts the requests aborted. */
function slowTodos() {
  const seen = { aborted: 0 };
  const answer = async (request: Request, body: Parameters<typeof HttpResponse.json>[0]) => {
    request.signal.addEventListener('abort', () => seen.aborted++);
    await delay(50);
    return HttpResponse.json(body);
  };
  server.use(
    http.get(`${API}/todos/:id`, ({ request, params }) => answer(request, todoRow(Number(params.id)))),
    http.get(`${API}/todos`, ({ request }) => answer(request, [todoRow(1), todoRow(2)])),
  );
  return { seen, requests: recordRequests(server) };
}

describe('a query store left and subscribed again in the same task', () => {
  it('unsubscribe, then subscribe: the request in flight goes on (one request, none aborted)', async () => {
    const { seen, requests } = slowTodos();
    const todo = createQuery(TodoResource.get, { id: 1 }, new Controller({ retry: 0 }));
    const stop = todo.subscribe(() => {});
    await delay(10); // the request is out
    stop();
    const states: boolean[] = [];
    const again = todo.subscribe((state) => states.push(state.loading));
    expect(states).toEqual([true]); // still loading, from the request in flight
    await delay(80);
    expect(get(todo).data?.title).toBe('todo 1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
    again();
  });

  it('`get(store)` while the request is out, with no other subscriber: no second request', async () => {
    const { seen, requests } = slowTodos();
    const todo = createQuery(TodoResource.get, { id: 1 }, new Controller({ retry: 0 }));
    const stop = todo.subscribe(() => {});
    await delay(10);
    stop();
    expect(get(todo).loading).toBe(true); // subscribes and unsubscribes
    const again = todo.subscribe(() => {});
    await delay(80);
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
    again();
  });

  it('an infinite list left and subscribed again: one request for its first page', async () => {
    const { seen, requests } = slowTodos();
    const feed = createInfiniteQuery(PagedTodos.getList, {}, { controller: new Controller({ retry: 0 }) });
    const stop = feed.subscribe(() => {});
    await delay(10);
    stop();
    const again = feed.subscribe(() => {});
    await delay(80);
    expect(get(feed).data).toHaveLength(2);
    expect(requests).toEqual(['GET /todos']);
    expect(seen.aborted).toBe(0);
    again();
  });

  it('a component unmounted and mounted again in one task: one request, none aborted', async () => {
    const { seen, requests } = slowTodos();
    const shown = writable(true);
    render(Remount, { controller: new Controller({ retry: 0 }), shown });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await delay(10);
    shown.set(false);
    flushSync(); // the query's component is destroyed
    expect(screen.queryByText('Loading…')).toBeNull();
    shown.set(true);
    flushSync(); // and made again
    expect((await screen.findByRole('heading')).textContent?.trim()).toBe('todo 1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
  });

  it('left for good: the request is aborted once the task ended, and nothing stays subscribed', async () => {
    const { seen } = slowTodos();
    const controller = new Controller({ retry: 0 });
    const todo = createQuery(TodoResource.get, { id: 1 }, controller);
    const states: unknown[] = [];
    const stop = todo.subscribe((state) => states.push(state));
    await delay(10);
    stop();
    const emitted = states.length;
    await delay(0);
    expect(seen.aborted).toBe(1);
    expect(inspectController(controller).query('GET http://api.test/todos/1')).toMatchObject({ observers: 0 });
    await delay(80);
    expect(states).toHaveLength(emitted);
  });
});
