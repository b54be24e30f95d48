/**
 * An outside review of failed background refreshes through the Solid adapter: the Resource keeps its
 * rows (no ErrorBoundary) when the server answered with something unreadable (a 5xx page, a 200 HTML page
 * from a proxy, malformed JSON) or could not be reached; createQueryState names the error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { ErrorBoundary, For, Suspense } from 'solid-js';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { API } from '../../fixtures/todoServer.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => (server.resetHandlers(), cleanup()));
afterAll(() => server.close());

const html = (status: number) =>
  new HttpResponse('<!doctype html><p>Please sign in</p>', { status, headers: { 'Content-Type': 'text/html' } });

const failures = [
  { what: 'a 502 HTML page', answer: () => html(502), name: 'NetworkError' },
  { what: 'a 200 HTML page', answer: () => html(200), name: 'ParseError' },
  {
    what: 'malformed JSON',
    answer: () => new HttpResponse('[{"id": 1,', { headers: { 'Content-Type': 'application/json' } }),
    name: 'ParseError',
  },
  { what: 'a network failure', answer: () => HttpResponse.error(), name: 'NetworkError' },
];

describe('a background refresh that fails, in Solid', () => {
  for (const failure of failures) {
    it(`keeps the rows on screen and names the error: ${failure.what}`, async () => {
      let fail = false;
      server.use(http.get(`${API}/todos`, () => (fail ? failure.answer() : HttpResponse.json([todoRow(1)]))));
      const controller = new Controller({ retry: 0 });
      let state!: ReturnType<typeof createQueryState<typeof TodoResource.getList>>;
      function List() {
        const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }));
        state = createQueryState(TodoResource.getList, () => ({ userId: 1 }));
        return (
          <ul>
            <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
          </ul>
        );
      }
      render(() => (
        <ControllerProvider controller={controller}>
          <ErrorBoundary fallback={(error: Error) => <p role="alert">{error.message}</p>}>
            <Suspense fallback={<p>Loading…</p>}>
              <List />
            </Suspense>
          </ErrorBoundary>
        </ControllerProvider>
      ));
      await screen.findByText('todo 1');
      fail = true;
      controller.expireAll(TodoResource.getList);
      await vi.waitFor(() => expect(state().error?.name).toBe(failure.name));
      await Promise.resolve();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['todo 1']);
      expect(state().data?.map((todo) => todo.title)).toEqual(['todo 1']);
    });
  }
});
