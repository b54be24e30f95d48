/**
 * Solid `reconcile: true` rows against a server (msw): argument switches with `keepPreviousData`, an optimistic
 * update and its rollback in two queries that show the entity, a delete and the row added again,
 * `resetEntireStore` and the refetch. After each step the DOM shows what a fresh controller reads.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@solidjs/testing-library';
import { createSignal, For, type Setter } from 'solid-js';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

const fake = createTodoServer(6);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  cleanup();
  fake.clearFailures();
  fake.setLatency(0);
});

const show = (todo: Todo) => `${todo.id}:${todo.title}`;
const lines = (id = 'a') => [...screen.getByTestId(id).querySelectorAll('li')].map((li) => li.textContent);

let controller: Controller;
beforeEach(() => {
  controller = new Controller();
  fake.todos.clear();
  for (let id = 1; id <= 6; id++)
    fake.todos.set(id, {
      id,
      userId: id % 2 ? 1 : 2,
      title: `todo ${id}`,
      completed: false,
      createdAt: '2024-01-01T00:00:00Z',
    });
});

/** What a fresh controller reads for `args` from the state now. */
const fresh = (args: { userId: number } | undefined) => {
  const other = new Controller({ initialState: controller.getState() });
  const data = other.getResponse(TodoResource.getList, args).data;
  other.dispose();
  return (data ?? []).map(show);
};

function mount(form: 'resource' | 'state', keepPreviousData = false) {
  const [userId, setUserId] = createSignal(1);
  const options = { reconcile: true, keepPreviousData };
  function Rows(props: { id: string; all?: boolean }) {
    const args = () => (props.all ? undefined : { userId: userId() });
    const read: () => Todo[] | undefined =
      form === 'state'
        ? (
            (state) => () =>
              state().data
          )(createQueryState(TodoResource.getList, args, options))
        : createQuery(TodoResource.getList, args, options);
    return (
      <ul data-testid={props.id}>
        <For each={read()}>{(todo) => <li>{show(todo)}</li>}</For>
      </ul>
    );
  }
  render(() => (
    <ControllerProvider controller={controller}>
      <Rows id="a" />
      <Rows id="b" all />
    </ControllerProvider>
  ));
  return setUserId as Setter<number>;
}

describe.each(['resource', 'state'] as const)('Solid reconcile rows against a server (%s form)', (form) => {
  it('keepPreviousData: the old rows while the new args load, then only the new ones; back again, current rows', async () => {
    const setUserId = mount(form, true);
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    fake.setLatency(20);
    setUserId(2);
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']); // placeholder
    await waitFor(() => expect(lines()).toEqual(['2:todo 2', '4:todo 4', '6:todo 6']));
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    await Promise.resolve();
    expect(lines()).toEqual(fresh({ userId: 2 }));
    setUserId(1);
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '3:three', '5:todo 5']);
    expect(lines()).toEqual(fresh({ userId: 1 }));
  });

  it('shows an optimistic update at once and its rollback exactly, in both queries that show the entity', async () => {
    mount(form);
    await waitFor(() => expect(lines('b')).toHaveLength(6));
    await waitFor(() => expect(lines()).toHaveLength(3));
    fake.setLatency(20);
    fake.fail('PATCH', 500);
    const update = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'optimistic' });
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '3:optimistic', '5:todo 5']);
    expect(lines('b')[2]).toBe('3:optimistic');
    await expect(update).rejects.toThrow();
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']);
    expect(lines('b')).toEqual(fresh(undefined));
  });

  it('drops a deleted row and makes a new one when the entity is added again; resetEntireStore and the refetch', async () => {
    mount(form);
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    await controller.fetch(TodoResource.delete, { id: 3 });
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '5:todo 5']);
    expect(lines('b')).toEqual(fresh(undefined));
    fake.todos.set(3, { id: 3, userId: 1, title: 'again', completed: false, createdAt: '2024-01-01T00:00:00Z' });
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await Promise.resolve();
    expect(lines()).toEqual(['1:todo 1', '5:todo 5', '3:again']);
    fake.todos.get(1)!.title = 'from the server';
    controller.resetEntireStore();
    await waitFor(() => expect(lines()).toEqual(['1:from the server', '5:todo 5', '3:again']));
    expect(lines()).toEqual(fresh({ userId: 1 }));
  });
});
