/**
 * rx-rest/svelte: args that switch to another request and back in one task (a store set twice, a form reset
 * then filled) while the first request is in flight keep that request, as a query left and taken up again in
 * one task does: one request, none aborted. The request left meanwhile shows nothing of its own afterwards,
 * and a request left for another one for good still ends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { get, writable } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createInfiniteQuery, createQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { FEED_PAGE, PostResource } from '../../fixtures/feedServer.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** `GET /todos/:id` and `GET /posts` answered after 30 ms; counts the requests aborted. */
function slowServer() {
  const seen = { aborted: 0 };
  const slow = async (request: Request, body: unknown) => {
    request.signal.addEventListener('abort', () => seen.aborted++);
    await delay(30);
    return HttpResponse.json(body as never);
  };
  server.use(
    http.get(`${API}/todos/:id`, ({ request, params }) => slow(request, todoRow(Number(params.id)))),
    http.get(`${API}/posts`, ({ request }) => slow(request, [{ id: 1, userId: 1, title: 'post 1' }])),
  );
  return { seen, requests: recordRequests(server) };
}

describe('args switched away and back in one task while the request is out', () => {
  it('createQuery: one request, none aborted, and its data shown', async () => {
    const { seen, requests } = slowServer();
    const args = writable({ id: 1 });
    const todo = createQuery(TodoResource.get, args, new Controller({ retry: 0 }));
    const titles: (string | undefined)[] = [];
    const stop = todo.subscribe((state) => titles.push(state.data?.title));
    await delay(10); // todo 1 is out
    args.set({ id: 2 });
    args.set({ id: 1 });
    await delay(60);
    expect(get(todo).data?.title).toBe('todo 1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
    expect(titles).toEqual([undefined, 'todo 1']);
    stop();
  });

  it('createInfiniteQuery: one request for the first page, none aborted', async () => {
    const { seen, requests } = slowServer();
    const args = writable({ userId: 1 });
    const posts = createInfiniteQuery(PostResource.getList, args, {
      controller: new Controller({ retry: 0 }),
      pageSize: FEED_PAGE,
    });
    const stop = posts.subscribe(() => {});
    await delay(10);
    args.set({ userId: 2 });
    args.set({ userId: 1 });
    await delay(60);
    expect(get(posts).data?.map((post) => post.title)).toEqual(['post 1']);
    expect(requests).toEqual(['GET /posts?userId=1']);
    expect(seen.aborted).toBe(0);
    stop();
  });

  it('a request left in flight for another one: its state never shows for the new args, and it ends', async () => {
    const { seen, requests } = slowServer();
    const controller = new Controller({ retry: 0 });
    const args = writable({ id: 1 });
    const todo = createQuery(TodoResource.get, args, controller);
    const titles: (string | undefined)[] = [];
    const stop = todo.subscribe((state) => titles.push(state.data?.title));
    await delay(10);
    // a write to todo 1, then the switch, in one task: todo 1's stream re-reads at the end of the task, while the
    // subscription left is still there
    controller.setResponse(TodoResource.get, { id: 1 }, todoRow(1, 'written'));
    args.set({ id: 2 });
    await delay(60);
    expect(get(todo).data?.title).toBe('todo 2');
    expect(titles).not.toContain('written');
    expect(requests).toEqual(['GET /todos/1', 'GET /todos/2']);
    stop();
    await delay(10);
    expect(seen.aborted).toBeLessThanOrEqual(1); // todo 1's, if it was still out when it was left
  });
});
