/**
 * An outside review of `keepPreviousData` in the Solid adapter: what the placeholder shows while the
 * new arguments load, when the previous arguments' data changes meanwhile ("no stale rows").
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createSignal, For, Suspense } from 'solid-js';
import { delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { heldSecondUser } from '../../fixtures/userLists.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => (server.resetHandlers(), cleanup()));
afterAll(() => server.close());

let controller: Controller;
let release: () => void;
beforeEach(() => {
  controller = new Controller();
  // user 2's list answers when the test releases it
  const held = heldSecondUser();
  release = held.release;
  server.use(...held.handlers);
});

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe('keepPreviousData while the previous data changes', () => {
  it('the placeholder rows show a write to the previous data and drop a deleted one', async () => {
    const [userId, setUserId] = createSignal(1);
    let todos!: ReturnType<typeof createQuery<typeof TodoResource.getList>>;
    function List() {
      todos = createQuery(TodoResource.getList, () => ({ userId: userId() }), { keepPreviousData: true });
      return (
        <ul>
          <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
        </ul>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Suspense fallback={<p>Loading…</p>}>
          <List />
        </Suspense>
      </ControllerProvider>
    ));
    await vi.waitFor(() => expect(titles()).toEqual(['todo 1', 'todo 3']));
    setUserId(2);
    expect(todos.placeholder).toBe(true);
    controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed' });
    await delay(0);
    expect(titles()).toEqual(['renamed', 'todo 3']);
    await controller.fetch(TodoResource.delete, { id: 3 });
    await delay(0);
    expect(titles()).toEqual(['renamed']);
    expect(screen.queryByText('Loading…')).toBeNull();
    release();
    await vi.waitFor(() => expect(titles()).toEqual(['todo 2']));
    expect(todos.placeholder).toBe(false);
  });

  it('createQueryState shows the write as well', async () => {
    const [userId, setUserId] = createSignal(1);
    let state!: ReturnType<typeof createQueryState<typeof TodoResource.getList>>;
    function List() {
      state = createQueryState(TodoResource.getList, () => ({ userId: userId() }), { keepPreviousData: true });
      return (
        <p>
          {state()
            .data?.map((todo) => todo.title)
            .join(',')}
        </p>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <List />
      </ControllerProvider>
    ));
    await screen.findByText('todo 1,todo 3');
    setUserId(2);
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    await screen.findByText('todo 1,three');
    expect(state().placeholder).toBe(true);
    release();
    await screen.findByText('todo 2');
  });
});
