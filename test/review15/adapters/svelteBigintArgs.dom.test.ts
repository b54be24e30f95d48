/**
 * rx-rest/svelte: a getter's args holding a bigint (a search parameter, which the core sends as its decimal
 * digits, as it does for the same args given as a value). The getter reads its value whole to track a `$state`
 * object edited in place; that read must neither throw (JSON.stringify throws on a bigint) nor stop tracking at
 * the bigint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { get } from 'svelte/store';
import { Controller } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import BigArgs from './BigArgs.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe('a getter of args holding a bigint', () => {
  it('requests as the same args given as a value do', async () => {
    const controller = new Controller();
    const args = { userId: 1, since: 20n } as unknown as { userId: number };
    const fromValue = createQuery(TodoResource.getList, args, controller);
    const fromGetter = createQuery(TodoResource.getList, () => args, controller);
    expect(() => get(fromGetter)).not.toThrow();
    expect(get(fromGetter)).toEqual(get(fromValue));
  });

  it('a $state object with a bigint before the field edited in place: the query switches', async () => {
    fake.requests.length = 0;
    render(BigArgs, { controller: new Controller() });
    await screen.findByText('todo 1');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    await fireEvent.click(screen.getByRole('button', { name: 'user 2' }));
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    expect(fake.requests).toEqual(['GET /todos?since=20&userId=1', 'GET /todos?since=20&userId=2']);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
