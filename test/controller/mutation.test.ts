import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Controller, keepPrevious, observeMutation, type MutationState, type QueryState } from '../../core/index.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { TodoResource } from '../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.clearFailures();
  controller = new Controller();
});

describe('observeMutation', () => {
  it('emits idle, pending, then the result; mutate returns the fetch promise', async () => {
    const rename = observeMutation(controller, TodoResource.partialUpdate);
    const states: MutationState<unknown>[] = [];
    rename.state$.subscribe((state) => states.push(state));
    const todo = await rename.mutate({ id: 1 }, { title: 'renamed' });
    expect(todo.title).toBe('renamed');
    expect(states).toEqual([
      { pending: false, error: undefined, data: undefined },
      { pending: true, error: undefined, data: undefined },
      { pending: false, error: undefined, data: todo },
    ]);
    expect(rename.getState().data).toBe(todo);
  });

  it('a failure is state (and a rejection for whoever awaits); reset goes idle and ignores calls in flight', async () => {
    const rename = observeMutation(controller, TodoResource.partialUpdate);
    fake.fail('PATCH', 500);
    await expect(rename.mutate({ id: 1 }, { title: 'x' })).rejects.toThrow(/PATCH .*\/todos\/1.*500/);
    expect(rename.getState()).toMatchObject({ pending: false, data: undefined });
    expect(rename.getState().error?.message).toMatch(/500/);
    const running = rename.mutate({ id: 2 }, { title: 'y' });
    rename.reset();
    await running;
    expect(rename.getState()).toEqual({ pending: false, error: undefined, data: undefined });
  });

  it('a call nobody awaits leaves no unhandled rejection', async () => {
    const rename = observeMutation(controller, TodoResource.partialUpdate);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    fake.fail('PATCH', 500);
    void rename.mutate({ id: 1 }, { title: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.off('unhandledRejection', listener);
    expect(rename.getState().error).toBeDefined();
    expect(unhandled).toEqual([]);
  });
});

describe('keepPrevious', () => {
  const state = (data: number[] | undefined, loading = false, error?: Error): QueryState<number[]> => ({
    data,
    error,
    loading,
    fetching: loading,
    stale: false,
    paused: false,
  });

  it('stands the last data in for a loading state, until data or an error arrives', () => {
    const view = keepPrevious<QueryState<number[]>>(true);
    expect(view(state(undefined, true))).toMatchObject({ data: undefined, loading: true, placeholder: false });
    const first = [1];
    expect(view(state(first))).toMatchObject({ data: first, placeholder: false });
    expect(view(state(undefined, true))).toEqual({ ...state(first), fetching: true, placeholder: true });
    expect(view(state([2]))).toMatchObject({ data: [2], placeholder: false });
    const failed = view(state(undefined, false, new Error('404')));
    expect(failed).toMatchObject({ data: undefined, placeholder: false });
    expect(view(state(undefined, true))).toMatchObject({ data: undefined, loading: true, placeholder: false });
  });

  it('without keep, passes the state through with placeholder false', () => {
    const view = keepPrevious<QueryState<number[]>>(false);
    view(state([1]));
    expect(view(state(undefined, true))).toEqual({ ...state(undefined, true), placeholder: false });
  });
});
