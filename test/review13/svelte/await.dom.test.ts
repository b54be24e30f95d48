/**
 * An outside review of docs/ssr.md's `{#await fetchQuery(...)}` and `loadController`: from the store without a
 * request when the data is fresh (a load prefetched it), else one request shared by identical ones; a failure in
 * `{:catch}` with its name; one controller per tab in the browser, a new one after dispose.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { loadController } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import AwaitTitle from './AwaitTitle.svelte';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const todos = () =>
  server.use(
    http.get(`${API}/todos/:id`, async ({ params }) => {
      await delay(10);
      if (params.id === '404') return HttpResponse.json({ message: 'missing' }, { status: 404 });
      if (params.id === '500')
        return new HttpResponse('<html><h1>Oops</h1></html>', {
          status: 500,
          headers: { 'content-type': 'text/html' },
        });
      return HttpResponse.json(todoRow(Number(params.id)));
    }),
  );

describe('{#await fetchQuery(...)}', () => {
  it('prefetched by a load: the data at once, no request', async () => {
    todos();
    const requests = recordRequests(server);
    const controller = loadController({ fetch: globalThis.fetch });
    await controller.fetchIfStale(TodoResource.get, { id: 1 }); // the page's load
    requests.length = 0;
    render(AwaitTitle, { controller, id: 1 });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 1');
    expect(requests).toEqual([]);
    controller.dispose();
    expect(loadController({ fetch: globalThis.fetch })).not.toBe(controller); // the next load makes a live one
  });

  it('not in the store: two blocks share one request', async () => {
    todos();
    const requests = recordRequests(server);
    const controller = new Controller({ retry: 0 });
    render(AwaitTitle, { controller, id: 2 });
    render(AwaitTitle, { controller, id: 2 });
    expect(screen.getAllByText('Loading…')).toHaveLength(2);
    expect((await screen.findAllByRole('heading')).map((h) => h.textContent)).toEqual(['todo 2', 'todo 2']);
    expect(requests).toEqual(['GET /todos/2']);
  });

  it.each([
    ['404', /^NetworkError: .*404/],
    ['500', /^NetworkError: .*500/],
  ])('a %s shows in {:catch} with its name and status', async (id, message) => {
    todos();
    const controller = new Controller({ retry: 0 });
    render(AwaitTitle, { controller, id: Number(id) });
    expect((await screen.findByRole('alert')).textContent).toMatch(message);
  });
});
