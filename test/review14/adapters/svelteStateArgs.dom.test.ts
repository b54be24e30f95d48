/**
 * rx-rest/svelte: args from a getter that returns a `$state` object edited in place (`filters.userId = 2`),
 * as a runes page keeps its filters: the query switches to the new request, as it does for `() => ({ userId })`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { Controller } from '../../../core/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import StateArgs from './StateArgs.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe('a getter of a $state object edited in place', () => {
  it('switches the query to the new args', async () => {
    render(StateArgs, { controller: new Controller() });
    await screen.findByText('todo 1');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    await fireEvent.click(screen.getByRole('button', { name: 'user 2' }));
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });
});
