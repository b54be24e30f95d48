/**
 * rx-rest/solid, checked as rx-rest/svelte is: a query whose component is disposed and made again in the same
 * task (a `<Show>` toggled off and on, a `<Dynamic>` or keyed branch rebuilt) keeps its request in flight: one
 * request, none aborted. A query disposed for good still aborts its request once the task ended.
 */
import { describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createSignal, Show } from 'solid-js';
import { http, HttpResponse, delay } from 'msw';
import { Controller, inspectController } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { useSlowTodoServer } from '../../fixtures/slowTodos.js';

const { server, slowTodos: answeredAfter } = useSlowTodoServer(cleanup);
/** `GET /todos/:id` answered after 50 ms; counts the requests aborted. */
const slowTodos = () => answeredAfter(50);

function StateTitle() {
  const todo = createQueryState(TodoResource.get, { id: 1 });
  return <h1>{todo().data?.title ?? 'Loading…'}</h1>;
}

function ResourceTitle() {
  const todo = createQuery(TodoResource.get, { id: 1 });
  return <h1>{todo()?.title}</h1>;
}

describe('a query disposed and made again in the same task', () => {
  it.each([
    ['createQueryState', StateTitle],
    ['createQuery', ResourceTitle],
  ])('%s: one request, none aborted', async (_, Title) => {
    const { seen, requests } = slowTodos();
    const controller = new Controller({ retry: 0 });
    const [shown, setShown] = createSignal(true);
    render(() => (
      <ControllerProvider controller={controller}>
        <Show when={shown()}>
          <Title />
        </Show>
      </ControllerProvider>
    ));
    await delay(10); // the request is out
    setShown(false); // the query's component is disposed
    setShown(true); // and made again
    expect((await screen.findByText('todo 1', {}, { timeout: 1000 })).tagName).toBe('H1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
  });

  it('a query whose load failed, disposed and made again: a first subscriber, which asks again', async () => {
    const requests = recordRequests(server);
    let fail = true;
    server.use(
      http.get(`${API}/todos/:id`, ({ params }) =>
        fail ? new HttpResponse('gone', { status: 404 }) : HttpResponse.json(todoRow(Number(params.id))),
      ),
    );
    const controller = new Controller({ retry: 0 });
    const [shown, setShown] = createSignal(true);
    function Shown() {
      const todo = createQueryState(TodoResource.get, { id: 1 });
      return <h1>{todo().error ? 'failed' : (todo().data?.title ?? 'Loading…')}</h1>;
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Show when={shown()}>
          <Shown />
        </Show>
      </ControllerProvider>
    ));
    await screen.findByText('failed');
    fail = false;
    setShown(false);
    setShown(true);
    await screen.findByText('todo 1');
    expect(requests).toEqual(['GET /todos/1', 'GET /todos/1']);
  });

  it('disposed for good: the request is aborted once the task ended, and nothing stays subscribed', async () => {
    const { seen } = slowTodos();
    const controller = new Controller({ retry: 0 });
    const [shown, setShown] = createSignal(true);
    render(() => (
      <ControllerProvider controller={controller}>
        <Show when={shown()}>
          <StateTitle />
        </Show>
      </ControllerProvider>
    ));
    await delay(10);
    setShown(false);
    await delay(0);
    expect(seen.aborted).toBe(1);
    expect(inspectController(controller).query('GET http://api.test/todos/1')).toMatchObject({ observers: 0 });
  });
});
