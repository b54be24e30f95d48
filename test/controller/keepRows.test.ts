import { describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, keepRows, schema, type Entity } from '../../core/index.js';
import { patches } from '../../core/schema/memo/patchList.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, todoRow as row } from '../fixtures/todoResource.js';
import { Link, Note, members } from '../fixtures/noteFeed.js';

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

/** The record a row of `copies` shows. */
const entityOf = (kept: object) => (kept as { entity: Todo }).entity;

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

  it('tells entities of two classes with one pk apart by their class, whatever a field named constructor holds', () => {
    const feed = new RestEndpoint({
      path: 'http://api.test/feed',
      schema: [new schema.Union(members, 'type')],
    });
    const controller = new Controller();
    const withField = (record: object) => ({ ...record, constructor: 'data' }) as never;
    controller.setResponse(feed, {}, [
      withField({ id: '1', type: 'link', url: 'u' }),
      withField({ id: '1', type: 'note', text: 't' }),
    ]);
    const rows = keepRows<{ entity: Entity }>({ create: (entity) => ({ entity }), update: () => {}, drop: () => {} });
    const read = () => controller.getResponse(feed, {}).data as unknown as { entity: Entity }[];
    const first = rows(read());
    expect(first[0]!.entity).toBeInstanceOf(Link);
    expect(first[1]!.entity).toBeInstanceOf(Note);
    expect(first[0]).not.toBe(first[1]);
    controller.set(Note, { id: '1' }, withField({ id: '1', type: 'note', text: 'changed' }));
    const second = rows(read());
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
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
  describe('a list the core patched after a write: only the positions the write changed', () => {
    const N = 100;
    /** A list of N todos read through `rows`, past the first write (from the second on, the core patches it). */
    function patched() {
      const controller = new Controller();
      const args = { userId: 1 };
      controller.setResponse(
        TodoResource.getList,
        args,
        Array.from({ length: N }, (_, i) => row(i + 1)),
      );
      const read = () => controller.getResponse(TodoResource.getList, args).data!;
      const { rows, calls } = copies();
      rows(read());
      controller.set(Todo, { id: 1 }, { id: 1, title: 'warm' });
      const first = rows(read());
      return { controller, read, rows, calls, first };
    }

    /**
     * Counts the reads of `list`'s positions other than `changed` (an accessor per position returning the same item,
     * so the list holds what it held).
     */
    function probe(list: readonly unknown[], changed: readonly number[]) {
      const reads = { count: 0 };
      for (let i = 0; i < list.length; i++) {
        if (changed.includes(i)) continue;
        const item = list[i];
        Object.defineProperty(list, i, { get: () => (reads.count++, item), enumerable: true, configurable: true });
      }
      return reads;
    }

    it('updates the rows at the changed positions, reading no other position, and keeps the array and the other rows', () => {
      const { controller, read, rows, calls, first } = patched();
      const rowsBefore = [...first];
      controller.set(Todo, { id: 40 }, { id: 40, title: 'forty' });
      const data = read();
      const reads = probe(data, [39]);
      expect(rows(data)).toBe(first);
      expect(reads.count).toBe(0);
      expect(first[39]!.title).toBe('forty');
      expect(entityOf(first[39]!)).toBe(data[39]);
      first.forEach((kept, i) => expect(kept).toBe(rowsBefore[i]));
      expect(calls).toEqual({ create: N, update: 2, drop: 0 });
    });

    it('follows two or three writes read by the core between two calls (the lists it never saw), no further than a few', () => {
      const { controller, read, rows, calls, first } = patched();
      controller.set(Todo, { id: 10 }, { id: 10, title: 'ten' });
      read();
      controller.set(Todo, { id: 20 }, { id: 20, title: 'twenty' });
      read();
      controller.set(Todo, { id: 10 }, { id: 10, title: 'ten again' });
      const three = read();
      const reads = probe(three, [9, 19]);
      expect(rows(three)).toBe(first);
      expect(reads.count).toBe(0);
      expect([first[9]!.title, first[19]!.title]).toEqual(['ten again', 'twenty']);
      expect(calls.update).toBe(3); // todo 10's row once, with its latest record

      // five writes read one by one: past the chain's reach, every position is compared
      const ids = [30, 31, 32, 33, 34];
      for (const id of ids) {
        controller.set(Todo, { id }, { id, title: `title ${id}` });
        read();
      }
      const five = read();
      const fiveReads = probe(
        five,
        ids.map((id) => id - 1),
      );
      expect(rows(five)).toBe(first);
      expect(fiveReads.count).toBe(N - ids.length);
      expect(ids.map((id) => first[id - 1]!.title)).toEqual(ids.map((id) => `title ${id}`));
      expect(calls).toEqual({ create: N, update: 8, drop: 0 });
    });

    it('falls back to the whole list when the membership changed, and patches again from there', () => {
      const { controller, read, rows, calls, first } = patched();
      controller.set(Todo, { id: 5 }, { id: 5, title: 'five' });
      read(); // a list the function never saw, patched from the one it saw
      const list = Array.from({ length: N }, (_, i) => row(i + 1, i === 4 ? 'five' : `todo ${i + 1}`));
      list[60] = row(N + 1); // todo 61 replaced
      controller.setResponse(TodoResource.getList, { userId: 1 }, list);
      const next = rows(read());
      expect(next).not.toBe(first);
      expect(next[60]!.title).toBe(`todo ${N + 1}`);
      expect(next[4]).toBe(first[4]);
      expect(next[4]!.title).toBe('five');
      expect(calls).toEqual({ create: N + 1, update: 3, drop: 1 });
      controller.set(Todo, { id: 7 }, { id: 7, title: 'seven' });
      rows(read());
      controller.set(Todo, { id: 8 }, { id: 8, title: 'eight' });
      const data = read();
      expect(rows(data)).toBe(next);
      expect(next[7]!.title).toBe('eight');
      expect(next[6]!.title).toBe('seven');
    });

    it('compares a copy of the data whole (the user sorted or changed it), and keeps the order of a rows array the user sorted', () => {
      const { controller, read, rows, calls, first } = patched();
      controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
      const reversed = rows([...read()].reverse());
      expect(reversed).not.toBe(first);
      expect(reversed[N - 3]).toBe(first[2]);
      expect(reversed[N - 3]!.title).toBe('three');
      expect(reversed[0]).toBe(first[N - 1]);
      controller.set(Todo, { id: 4 }, { id: 4, title: 'four' });
      const data = read();
      const copy = [...data];
      copy[10] = data[11]!;
      copy[11] = data[10]!;
      const swapped = rows(copy);
      expect([swapped[10], swapped[11]]).toEqual([first[11], first[10]]);
      expect(swapped[3]!.title).toBe('four');
      expect(calls).toEqual({ create: N, update: 3, drop: 0 });

      // the rows array is the user's to sort: a write updates the row wherever it moved; a change of membership
      // gives a new array in the data's order
      const mine = rows(read());
      mine.sort((a, b) => entityOf(b).id - entityOf(a).id);
      controller.set(Todo, { id: 50 }, { id: 50, title: 'fifty' });
      expect(rows(read())).toBe(mine);
      expect(mine[N - 50]!.title).toBe('fifty');
      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(50, 'fifty'), row(1, 'warm')]);
      const after = rows(read());
      expect(after).not.toBe(mine);
      expect(after.map((kept) => kept.title)).toEqual(['fifty', 'warm']);
    });

    it("compares a { results, next } page's list at the changed positions when the core patched it, else whole", () => {
      const getPage = new RestEndpoint({ path: '/page', schema: { results: [Todo], next: null as string | null } });
      const controller = new Controller();
      controller.setResponse(getPage, {}, { results: Array.from({ length: N }, (_, i) => row(i + 1)), next: 'b' });
      const read = () => controller.getResponse(getPage, {}).data!;
      const { rows, calls } = copies();
      rows(read());
      controller.set(Todo, { id: 1 }, { id: 1, title: 'warm' });
      const first = rows(read());
      controller.set(Todo, { id: 70 }, { id: 70, title: 'seventy' });
      const data = read();
      const reads = probe(data.results, [69]);
      expect(rows(data)).toBe(first);
      // (the core reads a list nested in a page whole today: its positions are all compared)
      expect(reads.count).toBe(patches.get(data.results) === undefined ? N - 1 : 0);
      expect(first.results[69]!.title).toBe('seventy');
      expect(calls).toEqual({ create: N, update: 2, drop: 0 });
    });
  });
});
