import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { get } from 'svelte/store';
import { Controller } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import RowsList from './RowsList.svelte';

let controller: Controller;
const row = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });
beforeEach(() => {
  controller = new Controller();
  controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
});

const titles = () => screen.queryAllByRole('listitem').map((li) => li.querySelector('span')?.textContent);

function mount(reconcile: boolean, runes = false) {
  const seen = new Map<number, number>();
  render(RowsList, { controller, reconcile, runes, seen: (id: number) => seen.set(id, (seen.get(id) ?? 0) + 1) });
  flushSync();
  return seen;
}

describe('Svelte: reconcile', () => {
  for (const runes of [false, true])
    it(`updates a changed row in place: its DOM, focus and typed text stay, the row is not created again (${runes ? 'createQueryState' : '$todos.data'})`, () => {
      const seen = mount(true, runes);
      const second = screen.getAllByRole('listitem')[1];
      const input = screen.getByLabelText('note 2') as HTMLInputElement;
      input.focus();
      input.value = 'typed';
      controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
      flushSync();
      expect(titles()).toEqual(['todo 1', 'renamed', 'todo 3']);
      expect(screen.getAllByRole('listitem')[1]).toBe(second);
      expect(document.activeElement).toBe(input);
      expect(input.value).toBe('typed');
      if (runes) expect([...seen.values()]).toEqual([1, 2, 1]); // only the changed row rendered again
    });

  it('without it, an each over $todos.data renders every row again on each change', () => {
    const seen = mount(false);
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    flushSync();
    expect(titles()).toEqual(['todo 1', 'renamed', 'todo 3']);
    expect([...seen.values()]).toEqual([2, 2, 2]);
  });

  it("keeps each entity's row while it stays, the array while its rows are the same, and follows additions and removals", () => {
    const todos = createQuery(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
    const states: unknown[] = [];
    const stop = todos.subscribe((state) => states.push(state));
    const before = get(todos).data!;
    expect(before[0]).toBeInstanceOf(Todo);
    expect(before[0]!.pk()).toBe('1');
    expect({ ...before[1] }).toMatchObject(row(2));
    expect(JSON.parse(JSON.stringify(before[1]))).toMatchObject(row(2));

    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    expect(states).toHaveLength(1); // the same rows: the store did not update
    expect(get(todos).data).toBe(before);
    expect(before[1]!.title).toBe('renamed');
    expect(controller.get(Todo, { id: 2 })).not.toBe(before[1]); // the cache's own objects are untouched

    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3), row(4), row(2, 'renamed')]);
    const next = get(todos).data!;
    expect(next.map((todo) => todo.title)).toEqual(['todo 3', 'todo 4', 'renamed']);
    expect(next[0]).toBe(before[2]);
    expect(next[2]).toBe(before[1]);
    stop();
  });
});
