import { describe, expect, it } from 'vitest';
import { Controller, keepRows, type Entity } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource } from '../fixtures/todoResource.js';

const row = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });

/** Rows as plain copies, counting what keepRows asks of them. */
function copies() {
  const calls = { create: 0, update: 0, drop: 0 };
  const rows = keepRows<{ title: string; entity: Entity }>({
    create: (entity) => (calls.create++, { title: (entity as Todo).title, entity }),
    update: (kept, entity) => (calls.update++, Object.assign(kept, { title: (entity as Todo).title, entity })),
    drop: () => calls.drop++,
  });
  return { rows, calls };
}

describe('keepRows', () => {
  it('keeps a row per entity: no work for an unchanged record, an update in place for a changed one, the same array for the same rows', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
    const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
    const { rows, calls } = copies();
    const first = rows(read());
    expect(first.map((kept) => kept.title)).toEqual(['todo 1', 'todo 2', 'todo 3']);
    expect(calls).toEqual({ create: 3, update: 0, drop: 0 });
    expect(rows(read())).toBe(first);

    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    const second = rows(read());
    expect(second).toBe(first); // the same rows, the same array
    expect(second[1]!.title).toBe('renamed');
    expect(calls).toEqual({ create: 3, update: 1, drop: 0 });

    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3), row(4), row(2, 'renamed')]);
    const third = rows(read());
    expect(third).not.toBe(first);
    expect(third[0]).toBe(first[2]);
    expect(third[2]).toBe(first[1]);
    expect(calls).toEqual({ create: 4, update: 1, drop: 1 }); // todo 1 left: its row is dropped
  });

  it('keeps a single entity and the entities of a page object; leaves other data as it is', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.get, { id: 1 }, row(1));
    const { rows } = copies();
    const todo = controller.getResponse(TodoResource.get, { id: 1 }).data!;
    const kept = rows(todo);
    expect(kept).not.toBe(todo);
    expect(rows(todo)).toBe(kept);
    const page = { results: [todo], next: 'b' };
    const keptPage = rows(page);
    expect(keptPage.results[0]).toBe(kept);
    expect(rows({ results: [todo], next: 'b' })).toBe(keptPage);
    expect(rows({ results: [todo], next: 'c' }).next).toBe('c');
    expect(rows([1, 'two', null])).toEqual([1, 'two', null]);
    expect(rows(undefined)).toBeUndefined();
  });

  it('finds each row again when the same data comes back reordered, shortened or with an entity twice', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
    const [one, two, three] = controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
    const { rows, calls } = copies();
    const first = rows([one, two, three]);
    const swapped = rows([two, one, three]);
    expect(swapped).toEqual([first[1], first[0], first[2]]);
    expect(rows([two, two, three])).toEqual([first[1], first[1], first[2]]);
    expect(calls).toEqual({ create: 3, update: 0, drop: 1 }); // todo 1 left
    const again = rows([one, three]);
    expect(again[1]).toBe(first[2]);
    expect(again[0]).not.toBe(first[0]); // a new row: the old one was let go
    expect(again[0]!.title).toBe('todo 1');
    expect(calls).toEqual({ create: 4, update: 0, drop: 2 });
  });
});
