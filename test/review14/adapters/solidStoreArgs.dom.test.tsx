/**
 * rx-rest/solid, checked as rx-rest/svelte is: args from an accessor that returns a store edited in place
 * (`setFilters('userId', 2)`) switch the query, as `() => ({ userId: userId() })` does.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { For } from 'solid-js';
import { createStore } from 'solid-js/store';
import { Controller } from '../../../core/index.js';
import { createQueryState } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(cleanup);

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe('an accessor of a store edited in place', () => {
  it('switches the query to the new args', async () => {
    const [filters, setFilters] = createStore({ userId: 1 });
    const controller = new Controller();
    render(() => {
      const todos = createQueryState(TodoResource.getList, () => filters, controller);
      return (
        <ul>
          <For each={todos().data ?? []}>{(todo) => <li>{todo.title}</li>}</For>
        </ul>
      );
    });
    await screen.findByText('todo 1');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    setFilters('userId', 2);
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });
});
