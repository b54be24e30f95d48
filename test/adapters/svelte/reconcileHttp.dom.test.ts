/**
 * Svelte `reconcile: true` rows against a server (msw): argument switches with `keepPreviousData`, an optimistic
 * update and its rollback, a delete and the row added again, `resetEntireStore` and the refetch. After each step
 * the DOM shows what a fresh controller reads from the same state, and two queries showing one entity agree.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import { flushSync, tick } from 'svelte';
import { writable } from 'svelte/store';
import { Controller, type Entity, type QueryResult } from '../../../core/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import ReconcileProbe from './ReconcileProbe.svelte';

const fake = createTodoServer(6);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  fake.server.resetHandlers();
  fake.clearFailures();
  fake.setLatency(0);
  for (const id of ['a', 'b']) document.querySelector(`[data-testid="${id}"]`)?.remove();
});

const show = (todo: Todo) => `${todo.id}:${todo.title}`;
const lines = (list = screen.getByTestId('a')) => [...list.querySelectorAll('li')].map((li) => li.textContent);

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
const fresh = (args: { userId: number }) => {
  const other = new Controller({ initialState: controller.getState() });
  const data = other.getResponse(TodoResource.getList, args).data;
  other.dispose();
  return (data ?? []).map(show);
};

function mount(args: { userId: number }, more: { keepPreviousData?: boolean; form?: 'state' | 'store' } = {}) {
  const argStore = writable(args);
  let state: QueryResult<unknown> | undefined;
  const list = document.createElement('div');
  list.dataset.testid = 'a';
  document.body.append(list);
  const view = render(ReconcileProbe, {
    target: list,
    props: {
      controller,
      endpoint: TodoResource.getList,
      args: argStore,
      form: more.form ?? 'state',
      keepPreviousData: more.keepPreviousData ?? false,
      items: (data: unknown) => (data ?? []) as readonly unknown[],
      line: (todo: unknown) => show(todo as Todo),
      key: (todo: unknown) => (todo as Entity).pk(),
      onState: (s: QueryResult<unknown>) => (state = s),
    },
  });
  flushSync();
  return { view, args: argStore, state: () => state!, list };
}

describe.each(['state', 'store'] as const)('reconcile rows against a server (%s form)', (form) => {
  it('keepPreviousData: the old rows while the new args load, then only the new ones; back again, current rows', async () => {
    const { args } = mount({ userId: 1 }, { keepPreviousData: true, form });
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    fake.setLatency(20);
    args.set({ userId: 2 });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']); // placeholder
    await waitFor(() => expect(lines()).toEqual(['2:todo 2', '4:todo 4', '6:todo 6']));
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    await tick();
    expect(lines()).toEqual(fresh({ userId: 2 }));
    args.set({ userId: 1 });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:three', '5:todo 5']);
    expect(lines()).toEqual(fresh({ userId: 1 }));
  });

  it('shows an optimistic update at once and its rollback exactly, in both queries that show the entity', async () => {
    mount({ userId: 1 }, { form });
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    const other = document.createElement('div');
    other.dataset.testid = 'b';
    document.body.append(other);
    render(ReconcileProbe, {
      target: other,
      props: {
        controller,
        endpoint: TodoResource.getList,
        args: writable(undefined),
        form,
        items: (data: unknown) => (data ?? []) as readonly unknown[],
        line: (todo: unknown) => show(todo as Todo),
        key: (todo: unknown) => (todo as Entity).pk(),
      },
    });
    const all = () => lines(screen.getByTestId('b'));
    await waitFor(() => expect(all()).toHaveLength(6));
    fake.setLatency(20);
    fake.fail('PATCH', 500);
    const update = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'optimistic' });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:optimistic', '5:todo 5']);
    expect(all()[2]).toBe('3:optimistic');
    await expect(update).rejects.toThrow();
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']);
    expect(all()).toEqual(['1:todo 1', '2:todo 2', '3:todo 3', '4:todo 4', '5:todo 5', '6:todo 6']);
    await controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'saved' });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:saved', '5:todo 5']);
    expect(all()[2]).toBe('3:saved');
  });

  it('drops a deleted row and makes a new one when the entity is added again; resetEntireStore and the refetch', async () => {
    const { state } = mount({ userId: 1 }, { form });
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    const rowOf = (id: number) =>
      form === 'state' ? (state().data as Todo[]).find((todo) => todo.id === id) : undefined;
    const before = rowOf(3);
    await controller.fetch(TodoResource.delete, { id: 3 });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '5:todo 5']);
    expect(lines()).toEqual(fresh({ userId: 1 }));
    fake.todos.set(3, { id: 3, userId: 1, title: 'again', completed: false, createdAt: '2024-01-01T00:00:00Z' });
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await tick();
    expect(lines()).toEqual(['1:todo 1', '5:todo 5', '3:again']);
    if (form === 'state') expect(rowOf(3)).not.toBe(before);
    fake.todos.get(1)!.title = 'from the server';
    controller.resetEntireStore();
    await tick();
    await waitFor(() => expect(lines()).toEqual(['1:from the server', '5:todo 5', '3:again']));
    expect(lines()).toEqual(fresh({ userId: 1 }));
  });
});

describe('reconcile rows and a push in flight', () => {
  it('show the state under the push while it is in flight, then the saved row: as a fresh read', async () => {
    mount({ userId: 1 });
    await waitFor(() => expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5']));
    fake.setLatency(20);
    const push = controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await tick();
    expect(lines()).toEqual(fresh({ userId: 1 })); // its layer holds no pk for the new todo: nothing to show yet
    await push;
    await tick();
    expect(lines()).toEqual(['1:todo 1', '3:todo 3', '5:todo 5', '7:new']);
    expect(lines()).toEqual(fresh({ userId: 1 }));
  });
});
