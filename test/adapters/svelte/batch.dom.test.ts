/**
 * A query without `reconcile` re-reads once per task (`watchQuery`'s `batch`): a burst of writes costs one
 * re-read and one store emission, at the end of the task; every read before then (`get(store)`, a new
 * subscriber, the runes getters in a script, a `$derived`, the markup after `flushSync`) sees the writes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync, tick } from 'svelte';
import { get } from 'svelte/store';
import { Controller, type QueryResult } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import BatchedList from './BatchedList.svelte';
import { todoRow as row } from '../../fixtures/todoResource.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i + 1));
const titlesOf = (data: readonly Todo[] | undefined) => data?.map((todo) => todo.title);
const shown = (testId: string) =>
  Array.from(screen.getByTestId(testId).querySelectorAll('li')).map((li) => li.textContent);
const rename = (id: number, title: string) => controller.set(Todo, { id }, { id, title });

let controller: Controller;
beforeEach(() => {
  controller = new Controller();
  controller.setResponse(TodoResource.getList, { userId: 1 }, rows(3));
});

/** Mounts BatchedList; `renders` then lists the data of each render of the list (the mount's excluded). */
function mount() {
  const renders: (Todo[] | undefined)[] = [];
  let state: QueryResult<Todo[]> | undefined;
  let titles: () => string = () => '';
  const rendered = (data: Todo[] | undefined) => renders.push(data);
  const onState = (s: QueryResult<Todo[]>, t: () => string) => ((state = s), (titles = t));
  render(BatchedList, { controller, rendered, onState });
  flushSync();
  renders.length = 0;
  return { renders, state: state!, titles: () => titles() };
}

describe('a store without reconcile: one re-read and one emission per task', () => {
  it('emits a burst once, at the end of the task, with the latest data; unchanged rows stay ===', async () => {
    const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const seen: Todo[][] = [];
    const stop = store.subscribe((state) => seen.push(state.data!));
    for (const title of ['a', 'b', 'c']) rename(1, title);
    rename(2, 'two');
    expect(seen).toHaveLength(1); // the first state only: the writes wait for the end of the task
    await tick();
    expect(seen.map(titlesOf)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['c', 'two', 'todo 3'],
    ]);
    expect(seen[1]![2]).toBe(seen[0]![2]);
    stop();
  });

  it('get(store) and a new subscriber see a write at once; the subscribers are told once, then not again', async () => {
    const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const seen: Todo[][] = [];
    const stop = store.subscribe((state) => seen.push(state.data!));
    rename(1, 'at once');
    expect(titlesOf(get(store).data)).toEqual(['at once', 'todo 2', 'todo 3']);
    expect(seen.map(titlesOf)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['at once', 'todo 2', 'todo 3'],
    ]);
    rename(2, 'new subscriber');
    let first: Todo[] | undefined;
    store.subscribe((state) => (first ??= state.data))();
    expect(titlesOf(first)).toEqual(['at once', 'new subscriber', 'todo 3']);
    await tick();
    expect(seen).toHaveLength(3); // the end of the task has nothing left to emit
    stop();
  });
});

describe('createQueryState without reconcile', () => {
  it('reads a write at once in a script: its getters and a $derived of them', () => {
    const { state, titles } = mount();
    rename(1, 'script');
    expect(titlesOf(state.data)).toEqual(['script', 'todo 2', 'todo 3']);
    rename(2, 'derived');
    expect(titles()).toBe('script,derived,todo 3');
  });

  it('shows a write in the markup at flushSync, in a $derived too (no state_unsafe_mutation)', () => {
    const { renders } = mount();
    rename(3, 'flushed');
    flushSync();
    expect(shown('state')).toEqual(['todo 1', 'todo 2', 'flushed']);
    expect(screen.getByTestId('derived').textContent).toBe('todo 1,todo 2,flushed');
    expect(renders.map(titlesOf)).toEqual([['todo 1', 'todo 2', 'flushed']]);
  });

  it('renders a burst of 100 writes once, with the final data; unchanged rows stay ===', async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, rows(150));
    const { renders, state } = mount();
    const before = state.data!;
    for (let id = 1; id <= 100; id++) rename(id, `burst ${id}`);
    await tick();
    const final = Array.from({ length: 150 }, (_, i) => (i < 100 ? `burst ${i + 1}` : `todo ${i + 1}`));
    expect(renders.map(titlesOf)).toEqual([final]);
    expect(shown('state')).toEqual(final);
    expect(shown('store')).toEqual(final);
    expect(screen.getByTestId('derived').textContent).toBe(final.join(','));
    expect(state.data!.slice(100)).toEqual(before.slice(100));
    state.data!.slice(100).forEach((todo, i) => expect(todo).toBe(before[100 + i]));
  });
});
