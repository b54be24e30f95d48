import { describe, expect, it, vi } from 'vitest';
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

  it("makes a first list's rows in one pass: an entity listed twice is one row, showing its latest record; other values stay", () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2)]);
    const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
    const [old, two] = read();
    controller.set(Todo, { id: 1 }, { id: 1, title: 'new' });
    const [fresh] = read();
    const { rows, calls } = copies();
    const first = rows([old, 'between', fresh, two] as unknown[]) as unknown as { title: string }[];
    expect(first[0]).toBe(first[2]);
    expect(first[0]!.title).toBe('new');
    expect(first[1]).toBe('between');
    expect(first[3]!.title).toBe('todo 2');
    expect(calls).toEqual({ create: 2, update: 1, drop: 0 });
    // the next read compares positions against the first pass's rows
    expect(rows([fresh, 'between', fresh, two] as unknown[])).toBe(first);
    expect(rows([two, 'between'] as unknown[])).toEqual([first[3], 'between']);
    expect(calls).toEqual({ create: 2, update: 1, drop: 1 });
    // a page's second list finds the rows its first list made
    const { rows: pages } = copies();
    const page = pages({ done: [two], all: [fresh, two] });
    expect(page.all[1]).toBe(page.done[0]);
  });

  describe('a write that changes records but no membership', () => {
    /** A list of n todos read through `rows`, and a way to read it again after a write. */
    function list(n: number) {
      const controller = new Controller();
      const args = { userId: 1 };
      controller.setResponse(
        TodoResource.getList,
        args,
        Array.from({ length: n }, (_, i) => row(i + 1)),
      );
      const read = () => controller.getResponse(TodoResource.getList, args).data!;
      return { controller, read, ...copies() };
    }

    it('updates the changed rows in place, comparing positions: no row is looked up by its pk, made or dropped', () => {
      const { controller, read, rows, calls } = list(100);
      const first = rows(read());
      const pk = vi.spyOn(Todo.prototype, 'pk');
      try {
        expect(rows(read())).toBe(first); // nothing changed: no pk read
        expect(pk).not.toHaveBeenCalled();
        controller.set(Todo, { id: 40 }, { id: 40, title: 'forty' });
        controller.set(Todo, { id: 77 }, { id: 77, title: 'seventy-seven' });
        pk.mockClear();
        expect(rows(read())).toBe(first);
        // the changed records' only: the other 98 positions are compared, not read
        expect(pk).toHaveBeenCalledTimes(2);
      } finally {
        pk.mockRestore();
      }
      expect(first[39]!.title).toBe('forty');
      expect(first[76]!.title).toBe('seventy-seven');
      expect(calls).toEqual({ create: 100, update: 2, drop: 0 });
    });

    it('lets go of the right rows when the membership changes after such writes', () => {
      const { controller, read, rows, calls } = list(3);
      const first = rows(read());
      controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
      expect(rows(read())).toBe(first);
      controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
      expect(rows(read())).toBe(first);
      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(3, 'three')]);
      const next = rows(read());
      expect(next).toEqual([first[0], first[2]]);
      expect(next[1]!.title).toBe('three');
      expect(calls).toEqual({ create: 3, update: 2, drop: 1 }); // todo 2 left
      expect(rows(read())).toBe(next);
    });

    it('makes a new array when a position holds another entity or another value, with the rows kept by pk', () => {
      const controller = new Controller();
      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3), row(4)]);
      const [one, two, three, four] = controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
      const { rows, calls } = copies();
      const first = rows([one, two, three]);
      const swapped = rows([one, four, three]); // same length, another pk at position 1
      expect(swapped).not.toBe(first);
      expect(swapped[0]).toBe(first[0]);
      expect(swapped[2]).toBe(first[2]);
      expect(swapped[1]!.title).toBe('todo 4');
      expect(calls).toEqual({ create: 4, update: 0, drop: 1 });
      const mixed = rows([one, null, three] as unknown[]);
      expect(mixed).toEqual([first[0], null, first[2]]);
      expect(calls).toEqual({ create: 4, update: 0, drop: 2 });
    });

    it('updates a row listed twice once, and keeps the array', () => {
      const controller = new Controller();
      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2)]);
      const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
      const { rows, calls } = copies();
      const [one, two] = read();
      const first = rows([one, two, one]);
      expect(first[2]).toBe(first[0]);
      controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
      const [newOne] = read();
      expect(rows([newOne, two, newOne])).toBe(first);
      expect(first[0]!.title).toBe('one');
      expect(calls).toEqual({ create: 2, update: 1, drop: 0 });
    });

    it('keeps a page object and its entity members while only records change; lets go of a member that left', () => {
      const controller = new Controller();
      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
      const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data!;
      const { rows, calls } = copies();
      const [one, two, three] = read();
      const first = rows({ results: [one, two], featured: three, next: 'b' });
      controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
      controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
      const [, newTwo, newThree] = read();
      expect(rows({ results: [one, newTwo], featured: newThree, next: 'b' })).toBe(first);
      expect([first.results[1]!.title, first.featured!.title]).toEqual(['two', 'three']);
      expect(calls).toEqual({ create: 3, update: 2, drop: 0 });

      const nextPage = rows({ results: [one, newTwo], featured: newThree, next: 'c' });
      expect(nextPage).not.toBe(first);
      expect(nextPage.results).toBe(first.results);
      expect(nextPage.featured).toBe(first.featured);
      const withoutFeatured = rows({ results: [one, newTwo], next: 'c' } as typeof nextPage);
      expect(withoutFeatured.results).toBe(first.results);
      expect(calls).toEqual({ create: 3, update: 2, drop: 1 }); // todo 3 left with its member
      const otherFeatured = rows({ results: [one, newTwo], featured: one, next: 'c' });
      expect(otherFeatured.featured).toBe(first.results[0]);
      expect(rows({ results: [one, newTwo], featured: newTwo, next: 'c' }).featured).toBe(first.results[1]);
      expect(calls).toEqual({ create: 3, update: 2, drop: 1 });
    });
  });
});
