/**
 * An outside review of rx-rest/svelte's createQueryState (runes getters) in a component: args from a getter,
 * null to stay idle, args changing while a request is out (no stale answer shown for the new args), errors.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { todoRow } from '../../fixtures/todoResource.js';
import RunesTodo from './RunesTodo.svelte';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Todo 1 answers after 60 ms, the others after 5; todo 404 is missing, todo 500 fails. */
const todos = () =>
  server.use(
    http.get(`${API}/todos/:id`, async ({ params }) => {
      const id = Number(params.id);
      await delay(id === 1 ? 60 : 5);
      if (id === 404) return HttpResponse.json({ message: 'missing' }, { status: 404 });
      return HttpResponse.json(todoRow(id));
    }),
  );

describe('createQueryState with a getter of args', () => {
  it('null stays idle without a request; a value fetches', async () => {
    todos();
    const requests = recordRequests(server);
    const controller = new Controller({ retry: 0 });
    const view = render(RunesTodo, { controller, id: null });
    await delay(20);
    expect(screen.getByText('Idle')).toBeTruthy();
    expect(requests).toEqual([]);
    await view.rerender({ controller, id: 2 });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 2');
    expect(requests).toEqual(['GET /todos/2']);
  });

  it('args changed while a request is out: the old answer is never shown for the new args', async () => {
    todos();
    const controller = new Controller({ retry: 0 });
    const titles: (string | undefined)[] = [];
    const view = render(RunesTodo, { controller, id: 1, titles });
    await delay(10);
    await view.rerender({ controller, id: 2, titles });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 2');
    await delay(80); // todo 1's answer arrived meanwhile
    expect(screen.getByRole('heading').textContent).toBe('todo 2');
    expect(titles).not.toContain('todo 1');
  });

  it('keepPreviousData: the old todo, dimmed, while the new one loads; then the new one', async () => {
    todos();
    const controller = new Controller({ retry: 0 });
    const titles: (string | undefined)[] = [];
    const view = render(RunesTodo, { controller, id: 2, keep: true, titles });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 2');
    await view.rerender({ controller, id: 1, keep: true, titles });
    expect(screen.getByRole('heading').classList.contains('dim')).toBe(true);
    expect(screen.getByRole('heading').textContent).toBe('todo 2');
    await delay(80);
    expect(screen.getByRole('heading').textContent).toBe('todo 1');
    expect(screen.getByRole('heading').classList.contains('dim')).toBe(false);
    expect(titles.filter((title) => title === undefined)).toHaveLength(1); // the first load only
  });

  it('a 404 shows the NetworkError with its status; back to a todo that exists shows it', async () => {
    todos();
    const controller = new Controller({ retry: 0 });
    const view = render(RunesTodo, { controller, id: 404 });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^NetworkError: .*404/);
    await view.rerender({ controller, id: 3 });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 3');
  });
});
