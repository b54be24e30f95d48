/**
 * An outside review of rx-rest/svelte: a store emits again only when a field of its state changes (API.md),
 * also across a change of args. A `$todos.data` read in an `{#each}` re-renders every row on each emission.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, writable } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Each user's list (one todo titled `u<id>`); user 1 at once, the others after 40 ms. */
const lists = () =>
  http.get(`${API}/todos`, async ({ request }) => {
    const userId = Number(new URL(request.url).searchParams.get('userId'));
    if (userId !== 1) await delay(40);
    return HttpResponse.json([{ ...todoRow(userId * 10, `u${userId}`), userId }]);
  });

describe('emissions across a change of args', () => {
  it('keepPreviousData: a second switch while the same data stands in emits nothing', async () => {
    server.use(lists());
    const controller = new Controller({ retry: 0 });
    const args = writable({ userId: 1 });
    const todos = createQuery(TodoResource.getList, args, { controller, keepPreviousData: true });
    const states: unknown[] = [];
    const stop = todos.subscribe((state) => states.push(state));
    await vi.waitFor(() => expect(get(todos).data?.[0]?.title).toBe('u1'));
    args.set({ userId: 2 });
    expect(get(todos)).toMatchObject({ placeholder: true, loading: false, fetching: true });
    const emitted = states.length;
    args.set({ userId: 3 }); // user 1's list still stands in: the same state
    await Promise.resolve();
    expect(states).toHaveLength(emitted);
    await vi.waitFor(() => expect(get(todos).data?.[0]?.title).toBe('u3'));
    expect(get(todos).placeholder).toBe(false);
    stop();
  });

  it('a switch from one loading request to another emits nothing until an answer', async () => {
    server.use(lists());
    const controller = new Controller({ retry: 0 });
    const args = writable({ userId: 2 });
    const todos = createQuery(TodoResource.getList, args, controller);
    const states: unknown[] = [];
    const stop = todos.subscribe((state) => states.push(state));
    expect(get(todos)).toMatchObject({ data: undefined, loading: true, fetching: true });
    const emitted = states.length;
    args.set({ userId: 3 });
    await Promise.resolve();
    expect(states).toHaveLength(emitted);
    await vi.waitFor(() => expect(get(todos).data?.[0]?.title).toBe('u3'));
    stop();
  });
});
