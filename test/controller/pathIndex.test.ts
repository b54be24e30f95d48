/**
 * The query cache's index from records to the streams that read them: a record one stream reads is listed
 * under that stream alone, a record several read under the set of them; a write reaches exactly the streams
 * that read what it changed, and the index empties as the streams go. A long list's rows are indexed by their
 * table instead (no path per row): a write to any record of it re-reads the list, which emits only when its data
 * changed.
 */
import { describe, expect, it, vi } from 'vitest';
import { controllerInternals } from '../../core/controller/Controller.js';
import { Controller, inspectController, takeSnapshot, type QueryState } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { Todo, TodoResource, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();

const todo = (id: number) => ({ id, userId: 1, title: `t${id}`, completed: false, createdAt: '2026-01-01T00:00:00Z' });

describe('the record index of the query streams', () => {
  it('updates a stream reading a record alone, and each of several reading it, until they leave', () => {
    const controller = new Controller({ retry: 0, environment: {} });
    controller.setResponse(TodoResource.getList, {}, [todo(1), todo(2)]);
    controller.setResponse(TodoResource.get, { id: 1 }, todo(1));
    const { cache } = controllerInternals(controller);
    const seen = { list: [] as QueryState<unknown>[], one: [] as QueryState<unknown>[] };
    const list = controller.observe(TodoResource.getList, {}).subscribe((state) => seen.list.push(state));
    const one = controller.observe(TodoResource.get, { id: 1 }).subscribe((state) => seen.one.push(state));
    const title = (state: QueryState<unknown> | undefined, at: number) =>
      (state?.data as { title: string }[] | undefined)?.[at]?.title;

    // todo 2: the list alone; todo 1: both
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    expect(title(seen.list.at(-1), 1)).toBe('two');
    expect(seen.one).toHaveLength(1);
    controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
    expect(title(seen.list.at(-1), 0)).toBe('one');
    expect((seen.one.at(-1)?.data as { title: string }).title).toBe('one');
    expect(seen.one).toHaveLength(2);

    // the list leaves: todo 1 reaches the single stream still
    list.unsubscribe();
    const listed = seen.list.length;
    controller.set(Todo, { id: 1 }, { id: 1, title: 'uno' });
    expect((seen.one.at(-1)?.data as { title: string }).title).toBe('uno');
    expect(seen.list).toHaveLength(listed);

    // a stream that comes back is listed beside the one there
    const again = controller.observe(TodoResource.getList, {}).subscribe((state) => seen.list.push(state));
    controller.set(Todo, { id: 1 }, { id: 1, title: 'eins' });
    expect(title(seen.list.at(-1), 0)).toBe('eins');
    expect((seen.one.at(-1)?.data as { title: string }).title).toBe('eins');
    one.unsubscribe();
    again.unsubscribe();
    expect(cache.byPath.size).toBe(0);
    controller.dispose();
  });

  const long = LONG_READ + 6;
  const longList = () => Array.from({ length: long }, (_, i) => todo(i + 1));
  const path = (pk: number) => `Todo\u0000${pk}`;

  it('indexes a long list by its table: a write to a record it does not hold re-reads it and emits nothing', () => {
    const controller = new Controller({ retry: 0, environment: {} });
    controller.setResponse(TodoResource.getList, {}, longList());
    const { cache } = controllerInternals(controller);
    const states: QueryState<unknown>[] = [];
    const list = controller.observe(TodoResource.getList, {}).subscribe((state) => states.push(state));
    const stream = cache.streams.get(TodoResource.getList.key({}))!;
    expect(stream.deps.index.has('Todo')).toBe(true);
    expect(cache.byPath.get('Todo')).toBe(stream);
    expect(cache.byPath.has(path(long))).toBe(false); // no path per row past the first LONG_READ - 1
    const reads = vi.spyOn(cache.reader, 'read');

    // a todo the list does not hold: the list re-reads, its data is the same, nothing is emitted
    const emitted = states.length;
    const data = states.at(-1)!.data;
    controller.set(Todo, { id: 1000 }, { ...todo(1000), title: 'elsewhere' });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(states).toHaveLength(emitted);
    expect(stream.deps.paths.has(path(1000))).toBe(false);

    // a todo it holds: one emission, the other rows the same instances
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    expect(states).toHaveLength(emitted + 1);
    const after = states.at(-1)!.data as { title: string }[];
    expect(after[2]!.title).toBe('three');
    expect(after[1]).toBe((data as unknown[])[1]);
    reads.mockRestore();

    list.unsubscribe();
    expect(cache.byPath.size).toBe(0);
    controller.dispose();
  });

  it('keeps indexing a short list record by record: a write to a record it does not hold does not re-read it', () => {
    const controller = new Controller({ retry: 0, environment: {} });
    controller.setResponse(TodoResource.getList, {}, longList().slice(0, LONG_READ - 1));
    const { cache } = controllerInternals(controller);
    const list = controller.observe(TodoResource.getList, {}).subscribe();
    const stream = cache.streams.get(TodoResource.getList.key({}))!;
    expect(stream.deps.index.has('Todo')).toBe(false);
    expect(stream.deps.index).toBe(stream.paths);
    expect(cache.byPath.has('Todo')).toBe(false);
    expect(cache.byPath.get(path(1))).toBe(stream);
    const reads = vi.spyOn(cache.reader, 'read');
    controller.set(Todo, { id: 1000 }, { ...todo(1000), title: 'elsewhere' });
    expect(reads).not.toHaveBeenCalled();
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
    list.unsubscribe();
    controller.dispose();
  });

  it("a long list's records are seen by the collector, a snapshot of its key and the inspector", () => {
    const controller = new Controller({ retry: 0, environment: {} });
    controller.setResponse(TodoResource.getList, {}, longList());
    controller.setResponse(TodoResource.get, { id: 1000 }, todo(1000));
    const { cache } = controllerInternals(controller);
    const key = TodoResource.getList.key({});
    const list = controller.observe(TodoResource.getList, {}).subscribe();
    const records = Array.from({ length: long }, (_, i) => path(i + 1));

    const live = new Set(cache.liveRecords());
    for (const record of records) expect(live.has(record)).toBe(true);
    expect(live.has(path(1000))).toBe(false);

    const snapshot = takeSnapshot(controller, { keys: [key] });
    expect(Object.keys(snapshot.entities['Todo'] ?? {}).length).toBe(long);

    const inspector = inspectController(controller);
    expect(inspector.reads(key)?.filter(([entityKey]) => entityKey === 'Todo')).toHaveLength(long);
    expect(inspector.readers('Todo', '5')).toEqual([key]);
    expect(inspector.readers('Todo', '1000')).toEqual([TodoResource.get.key({ id: 1000 })]);
    list.unsubscribe();
    controller.dispose();
  });

  it('tells nothing of a write to its table that is not one of its records, even once its data is stale', () => {
    let now = 1_000;
    const controller = new Controller({ retry: 0, environment: {}, now: () => now });
    controller.setResponse(TodoResource.getList, {}, longList());
    const states: QueryState<unknown>[] = [];
    const list = controller.observe(TodoResource.getList, {}).subscribe((state) => states.push(state));
    expect(states.at(-1)).toMatchObject({ stale: false, fetching: false });
    const emitted = states.length;
    now += 24 * 3_600_000; // past its expiry: its next state is stale, and it refetches
    controller.set(Todo, { id: 1000 }, { ...todo(1000), title: 'elsewhere' });
    expect(states).toHaveLength(emitted);
    // a write to one of its records: the list re-reads, shows it, and is stale now
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    expect(states.at(-1)).toMatchObject({ stale: true });
    expect((states.at(-1)!.data as { title: string }[])[1]!.title).toBe('two');
    list.unsubscribe();
    controller.dispose();
  });
});
