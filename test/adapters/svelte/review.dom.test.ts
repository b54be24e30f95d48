/**
 * An outside review of the Svelte adapter against API.md: races between argument changes and responses,
 * one query in several components, remounts, polling with mounts, mutation state, missing or disposed
 * controllers. HTTP through msw.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { get, writable } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createMutation, createQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests, userLists } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { Todo } from '../../fixtures/entities.js';
import App from './App.svelte';
import NoControllerForms from './NoControllerForms.svelte';
import Polling from './Polling.svelte';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let controller: Controller;
let requests: string[];
beforeEach(() => {
  controller = new Controller();
  requests = recordRequests(server);
});

const lists = userLists;

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe('races', () => {
  it("an older request's response, for args left since, never replaces the newer args' data", async () => {
    server.use(lists((userId) => (userId === 1 ? 60 : 5)));
    const args = writable({ userId: 1 });
    const store = createQuery(TodoResource.getList, args, controller);
    const stop = store.subscribe(() => {});
    expect(get(store).loading).toBe(true);
    args.set({ userId: 2 });
    await vi.waitFor(() => expect(get(store).data?.map((t) => t.title)).toEqual(['u2']));
    await delay(100); // user 1's answer has arrived meanwhile
    expect(get(store)).toMatchObject({ loading: false, fetching: false });
    expect(get(store).data?.map((t) => t.title)).toEqual(['u2']);
    stop();
  });

  it('an equal args value keeps the request and its data: no loading state, no request', async () => {
    server.use(lists());
    const args = writable({ userId: 1 });
    const store = createQuery(TodoResource.getList, args, controller);
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(get(store).data).toBeDefined());
    args.set({ userId: 1 }); // an equal value: the same request
    expect(get(store).loading).toBe(false);
    expect(requests).toEqual(['GET /todos?userId=1']);
    stop();
  });
});

describe('an older response for the same request', () => {
  it('a refresh that started before a mutation and answers after it does not bring the old title back', async () => {
    let title = 'A';
    let slow = false;
    server.use(
      http.get(`${API}/todos`, async () => {
        const answer = [todoRow(1, title)]; // what the server held when the request arrived
        if (slow) await delay(60);
        return HttpResponse.json(answer);
      }),
      http.patch(`${API}/todos/:id`, async ({ request }) => {
        title = ((await request.json()) as { title: string }).title;
        return HttpResponse.json(todoRow(1, title));
      }),
    );
    controller = new Controller({ retry: 0 });
    const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(get(store).data?.[0]?.title).toBe('A'));
    slow = true;
    controller.expireAll(TodoResource.getList); // a refresh starts, and answers 'A' late
    await delay(5);
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'B' });
    expect(get(store).data?.[0]?.title).toBe('B');
    await vi.waitFor(() => expect(get(store).fetching).toBe(false));
    await delay(10);
    expect(get(store).data?.[0]?.title).toBe('B');
    stop();
  });
});

describe('one query in several components', () => {
  it('two components share one request; when one unmounts the other still follows writes', async () => {
    server.use(lists(() => 10));
    const first = render(App, { controller, userId: 1 });
    render(App, { controller, userId: 1 });
    await vi.waitFor(() => expect(titles()).toEqual(['u1', 'u1']));
    expect(requests).toEqual(['GET /todos?userId=1']);
    first.unmount();
    controller.set(Todo, { id: 10 }, { id: 10, title: 'renamed' });
    await vi.waitFor(() => expect(titles()).toEqual(['renamed']));
    expect(requests).toHaveLength(1);
  });

  it('a remount shows the cached data in its first render: no loading state, no request', async () => {
    server.use(lists());
    const first = render(App, { controller, userId: 1 });
    await screen.findByText('u1');
    first.unmount();
    render(App, { controller, userId: 1 });
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(titles()).toEqual(['u1']);
    expect(requests).toHaveLength(1);
  });

  it('unmounted during its fetch and mounted again, it joins the request in flight', async () => {
    server.use(lists(() => 30));
    render(App, { controller, userId: 1 }).unmount();
    render(App, { controller, userId: 1 });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('u1');
    expect(requests).toEqual(['GET /todos?userId=1']);
  });
});

describe('polling with mounts', () => {
  it('one timer while two components poll; it goes on while one stays and stops with the last', async () => {
    server.use(http.get(`${API}/todos`, () => HttpResponse.json([todoRow(1)])));
    const first = render(Polling, { controller, live: true });
    const second = render(Polling, { controller, live: true });
    await vi.waitFor(() => expect(requests.length).toBeGreaterThanOrEqual(3));
    const start = requests.length;
    await delay(100);
    // one timer of 20 ms: about 5 requests in 100 ms (two timers would make about 10)
    expect(requests.length - start).toBeLessThanOrEqual(7);
    first.unmount();
    const before = requests.length;
    await delay(100);
    expect(requests.length).toBeGreaterThan(before); // the other still polls
    second.unmount();
    await delay(30);
    const after = requests.length;
    await delay(100);
    expect(requests.length).toBe(after);
  });
});

describe('createMutation', () => {
  it('reset() while a call is in flight stays idle when the call settles', async () => {
    server.use(http.patch(`${API}/todos/:id`, async () => (await delay(20), HttpResponse.json(todoRow(1, 'x')))));
    const rename = createMutation(TodoResource.partialUpdate, controller);
    const stop = rename.subscribe(() => {});
    const call = rename.mutate({ id: 1 }, { title: 'x' });
    expect(rename.pending).toBe(true);
    rename.reset();
    expect(await call).toMatchObject({ title: 'x' }); // the call still resolves its own result
    expect(get(rename)).toEqual({ pending: false, error: undefined, data: undefined });
    stop();
  });

  it('a failed call nobody awaits raises no unhandled rejection and shows its error', async () => {
    server.use(http.patch(`${API}/todos/:id`, () => HttpResponse.json({ message: 'no' }, { status: 422 })));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const rename = createMutation(TodoResource.partialUpdate, controller);
    void rename.mutate({ id: 1 }, { title: 'x' }); // as onclick={() => rename.mutate(...)}
    await vi.waitFor(() => expect(rename.error).toMatchObject({ name: 'NetworkError', status: 422 }));
    await delay(10);
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });
});

describe('a missing or disposed controller', () => {
  it.each(['state', 'mutation', 'infinite'] as const)(
    '%s without a controller in context throws a clear error',
    (form) => {
      expect(() => render(NoControllerForms, { form })).toThrow(
        /rx-rest\/svelte: no Controller in context.*setController/,
      );
    },
  );

  it('createQuery on a disposed controller throws an error that says so; the mounted store keeps its last state', async () => {
    server.use(lists());
    const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(get(store).data).toBeDefined());
    controller.dispose();
    expect(get(store).data?.map((t) => t.title)).toEqual(['u1']);
    stop();
    expect(() => createQuery(TodoResource.getList, { userId: 2 }, controller)).toThrow(/disposed/);
  });
});
