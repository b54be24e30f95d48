/**
 * rx-rest/solid, checked as rx-rest/svelte is: args that switch to another request and back in one task while
 * the first request is in flight keep that request (one request, none aborted), and a request left for another
 * shows nothing of its own afterwards.
 */
import { describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { delay } from 'msw';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQueryState } from '../../../adapters/solid/index.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { useSlowTodoServer } from '../../fixtures/slowTodos.js';

const { slowTodos: answeredAfter } = useSlowTodoServer(cleanup);
/** `GET /todos/:id` answered after 30 ms; counts the requests aborted. */
const slowTodos = () => answeredAfter(30);

/** A title from createQueryState of `id`, each title it rendered pushed to `titles`. */
function renderTitle(controller: Controller, titles: (string | undefined)[]) {
  const [id, setId] = createSignal(1);
  function Title() {
    const todo = createQueryState(TodoResource.get, () => ({ id: id() }));
    return <h1>{(titles.push(todo().data?.title), todo().data?.title ?? 'Loading…')}</h1>;
  }
  render(() => (
    <ControllerProvider controller={controller}>
      <Title />
    </ControllerProvider>
  ));
  return setId;
}

describe('args switched away and back in one task while the request is out', () => {
  it('one request, none aborted, and its data shown', async () => {
    const { seen, requests } = slowTodos();
    const titles: (string | undefined)[] = [];
    const setId = renderTitle(new Controller({ retry: 0 }), titles);
    await delay(10);
    setId(2);
    setId(1);
    expect((await screen.findByText('todo 1', {}, { timeout: 1000 })).tagName).toBe('H1');
    expect(requests).toEqual(['GET /todos/1']);
    expect(seen.aborted).toBe(0);
  });

  it('a request left in flight for another one: its state never shows for the new args', async () => {
    const { requests } = slowTodos();
    const controller = new Controller({ retry: 0 });
    const titles: (string | undefined)[] = [];
    const setId = renderTitle(controller, titles);
    await delay(10);
    controller.setResponse(TodoResource.get, { id: 1 }, todoRow(1, 'written'));
    setId(2);
    expect((await screen.findByText('todo 2', {}, { timeout: 1000 })).tagName).toBe('H1');
    expect(titles).not.toContain('written');
    expect(requests).toEqual(['GET /todos/1', 'GET /todos/2']);
  });
});
