import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync, tick } from 'svelte';
import { Controller, Entity, createResource, inspectController, type QueryResult } from '../../../core/index.js';
import { controllerInternals } from '../../../core/controller/Controller.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import ReconcileFields from './ReconcileFields.svelte';
import ReconcileList from './ReconcileList.svelte';
import { watch } from './watch.svelte.js';
import { todoRow as row } from '../../fixtures/todoResource.js';

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

let controller: Controller;
let rendered: number[];
let state: QueryResult<Todo[]>;
beforeEach(() => {
  controller = new Controller();
  controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
  rendered = [];
});

function mount(form: 'state' | 'store' = 'state') {
  const label = (todo: Todo) => (rendered.push(todo.id), todo.title);
  const result = render(ReconcileList, { controller, form, label, onState: (s: QueryResult<Todo[]>) => (state = s) });
  flushSync();
  rendered.length = 0;
  return result;
}

describe.each(['state', 'store'] as const)('reconcile: true (%s form)', (form) => {
  it('updates a changed record in place: the same row, array and <li>, and only that row re-renders', async () => {
    mount(form);
    const data = state.data!;
    const items = screen.getAllByRole('listitem');
    // the list is not read again (a keyed {#each} whose list is read again walks every row): the row's signal brings the write
    const descriptor = Object.getOwnPropertyDescriptor(state, 'data')!;
    let listReads = 0;
    Object.defineProperty(state, 'data', { get: () => (listReads++, descriptor.get!()), configurable: true });
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    await tick(); // rows and a `$todos` in the markup show a task's writes at its end
    expect(listReads).toBe(0);
    Object.defineProperty(state, 'data', descriptor);
    expect(titles()).toEqual(['todo 1', 'renamed', 'todo 3']);
    expect(rendered).toEqual([2]);
    expect(screen.getAllByRole('listitem')).toEqual(items);
    expect(state.data).toBe(data);
    expect(data[1]!.title).toBe('renamed');
  });

  it('adds, removes and reorders rows, keeping the rows whose entity stayed', async () => {
    mount(form);
    const [one, , three] = state.data!;
    const threeItem = screen.getAllByRole('listitem')[2];
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3), row(4), row(1, 'one')]);
    await tick(); // rows and a `$todos` in the markup show a task's writes at its end
    expect(titles()).toEqual(['todo 3', 'todo 4', 'one']);
    expect(state.data![0]).toBe(three);
    expect(state.data![2]).toBe(one);
    expect(one!.title).toBe('one');
    expect(screen.getAllByRole('listitem')[0]).toBe(threeItem);
    // todo 3 did not change: runes state does not re-render it; an each over `$store` re-renders every row
    // when the array changes (Svelte compiles it with mutable items)
    expect(rendered.sort()).toEqual(form === 'state' ? [1, 4] : [1, 3, 4]);
  });
});

describe.each(['state', 'store'] as const)('reconcile: true, a burst of writes (%s form)', (form) => {
  it('re-reads the list once, at the end of the task, and re-renders only the changed rows, in place', async () => {
    controller.setResponse(
      TodoResource.getList,
      { userId: 1 },
      Array.from({ length: 150 }, (_, i) => row(i + 1)),
    );
    mount(form);
    const data = state.data!;
    const items = screen.getAllByRole('listitem');
    const reader = controllerInternals(controller).cache.reader;
    const read = reader.read.bind(reader);
    let reads = 0;
    reader.read = (...args: Parameters<typeof read>) => (reads++, read(...args));
    for (let id = 1; id <= 100; id++) controller.set(Todo, { id }, { id, title: `burst ${id}` });
    expect(reads).toBe(0); // the writes wait for the end of the task
    await tick();
    expect(reads).toBe(1);
    const final = Array.from({ length: 150 }, (_, i) => (i < 100 ? `burst ${i + 1}` : `todo ${i + 1}`));
    expect(titles()).toEqual(final);
    expect(rendered.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(screen.getAllByRole('listitem')).toEqual(items);
    expect(state.data).toBe(data);
  });
});

describe.each(['state', 'store'] as const)('reconcile: true, a long list the core patches (%s form)', (form) => {
  const N = 100;
  /** A list of N todos mounted, past the first write (from the second on, the core patches the list). */
  async function mountLong() {
    controller.setResponse(
      TodoResource.getList,
      { userId: 1 },
      Array.from({ length: N }, (_, i) => row(i + 1)),
    );
    mount(form);
    controller.set(Todo, { id: 1 }, { id: 1, title: 'warm' });
    await tick();
    rendered.length = 0;
    return { data: state.data!, items: screen.getAllByRole('listitem') };
  }
  const expected = (titles: Record<number, string>) =>
    Array.from({ length: N }, (_, i) => titles[i + 1] ?? (i === 0 ? 'warm' : `todo ${i + 1}`));

  it('shows a one-record write in its row only: the same array and every <li> kept', async () => {
    const { data, items } = await mountLong();
    controller.set(Todo, { id: 70 }, { id: 70, title: 'seventy' });
    await tick();
    expect(titles()).toEqual(expected({ 70: 'seventy' }));
    expect(rendered).toEqual([70]);
    expect(screen.getAllByRole('listitem')).toEqual(items);
    expect(state.data).toBe(data);
  });

  it('shows the rows of writes another reader read in between (lists the rows never saw), and only those', async () => {
    const { data, items } = await mountLong();
    const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data;
    controller.set(Todo, { id: 40 }, { id: 40, title: 'forty' });
    read();
    controller.set(Todo, { id: 60 }, { id: 60, title: 'sixty' });
    read();
    controller.set(Todo, { id: 40 }, { id: 40, title: 'forty again' });
    read();
    await tick();
    expect(titles()).toEqual(expected({ 40: 'forty again', 60: 'sixty' }));
    expect(rendered.sort((a, b) => a - b)).toEqual([40, 60]);
    expect(screen.getAllByRole('listitem')).toEqual(items);
    expect(state.data).toBe(data);
  });
});

describe('rows of reconcile: true', () => {
  it('are current when read synchronously after a write, inside or outside an effect', () => {
    mount();
    const todo = state.data![0]!;
    controller.set(Todo, { id: 1 }, { id: 1, title: 'at once' });
    expect(todo.title).toBe('at once');
    expect(state.data![0]!.title).toBe('at once');
    controller.set(Todo, { id: 1 }, { id: 1, completed: true });
    expect(todo.completed).toBe(true);
  });

  it('keep the entity: its class, methods and fields (keys, spread, JSON), and are read-only', () => {
    mount();
    const todo = state.data![1]!;
    expect(todo).toBeInstanceOf(Todo);
    expect(todo.pk()).toBe('2');
    expect(Object.keys(todo)).toEqual(Object.keys(controller.get(Todo, { id: 2 })!));
    expect({ ...todo }).toMatchObject(row(2));
    expect(JSON.parse(JSON.stringify(todo))).toMatchObject(row(2));
    expect('title' in todo && 'pk' in todo).toBe(true);
    expect(Object.getOwnPropertyDescriptor(todo, 'title')).toEqual({
      value: 'todo 2',
      writable: false,
      enumerable: true,
      configurable: true,
    });
    expect(Object.getOwnPropertyDescriptor(todo, 'pk')).toBeUndefined();
    expect(() => ((todo as { title: string }).title = 'x')).toThrow(/read-only view of the cache.*controller\.set/);
    expect(todo.title).toBe('todo 2');
  });

  it('stop following the cache when the component unmounts', () => {
    const { unmount } = mount();
    const key = TodoResource.getList.key({ userId: 1 });
    expect(inspectController(controller).query(key).observers).toBeGreaterThan(0);
    unmount();
    expect(inspectController(controller).query(key).observers).toBe(0);
  });

  it('are the core entities without reconcile, and a store read outside components reconciles too', async () => {
    const plain = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const kept = createQuery(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
    const seen: Todo[][] = [];
    const stop = kept.subscribe((s) => s.data && seen.push(s.data));
    const stopPlain = plain.subscribe(() => {});
    controller.set(Todo, { id: 3 }, { id: 3, title: 'three' });
    expect(seen).toHaveLength(1); // the same rows: no new emission
    expect(seen[0]![2]!.title).toBe('three');
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3)]);
    expect(seen).toHaveLength(1); // the task's writes: one emission at its end
    await tick();
    expect(seen).toHaveLength(2);
    expect(seen[1]![0]).toBe(seen[0]![2]);
    stop();
    stopPlain();
  });
});

describe('the fields of reconcile: true rows', () => {
  /** Mounts ReconcileFields; `runs` then lists each field a row showed again (`2:title`). */
  function mountFields() {
    const runs: string[] = [];
    const read = (todo: Todo, field: 'title' | 'completed' | 'note') => {
      runs.push(`${todo.id}:${field}`);
      return String((todo as unknown as Record<string, unknown>)[field]);
    };
    render(ReconcileFields, { controller, read });
    flushSync();
    runs.length = 0;
    return runs;
  }
  const shown = (id: number) => document.getElementById(`t${id}`)?.textContent;

  it('re-render only the row that changed (each of its effects), in a list of 600 rows', async () => {
    const many = Array.from({ length: 600 }, (_, i) => row(i + 1));
    controller.setResponse(TodoResource.getList, { userId: 1 }, many);
    const runs = mountFields();
    controller.set(Todo, { id: 580 }, { id: 580, title: 'late' });
    await tick();
    // one signal per row: the row's every effect runs again, not only the changed field's
    expect(runs.sort()).toEqual(['580:completed', '580:title']);
    runs.length = 0;
    controller.set(Todo, { id: 3 }, { id: 3, completed: true });
    controller.set(Todo, { id: 300 }, { id: 300, title: 'middle', completed: true });
    await tick();
    expect(runs.sort()).toEqual(['300:completed', '300:title', '3:completed', '3:title']);
    expect([shown(580), shown(3), shown(300)]).toEqual(['late|false', 'todo 3|true', 'middle|true']);
  });

  it('re-render nothing for a write of fields no row read, or of the values they show', async () => {
    const runs = mountFields();
    controller.set(Todo, { id: 1 }, { id: 1, userId: 2 }); // no row shows userId
    controller.set(Todo, { id: 2 }, { id: 2, title: 'todo 2', completed: false }); // the same values
    await tick();
    expect(controller.get(Todo, { id: 1 })!.userId).toBe(2);
    expect(runs).toEqual([]);
    controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
    await tick();
    expect(runs.sort()).toEqual(['1:completed', '1:title']);
    expect(shown(1)).toBe('one|false');
  });

  it('show a field the record gains to the effects that read it after, and follow it from then on', async () => {
    const runs: string[] = [];
    const read = (todo: Todo, field: string) => (runs.push(`${todo.id}:${field}`), String(todo[field as 'title']));
    const { rerender } = render(ReconcileFields, { controller, read });
    flushSync();
    controller.set(Todo, { id: 2 }, { id: 2, title: 'noted', note: 'first' } as never);
    await tick();
    expect(shown(2)).toBe('noted|false');
    void rerender({ notes: true });
    flushSync();
    expect(shown(2)).toBe('noted|false|first');
    runs.length = 0;
    controller.set(Todo, { id: 2 }, { id: 2, note: 'second' } as never);
    await tick();
    expect(runs.sort()).toEqual(['2:completed', '2:note', '2:title']); // the row's effects
    expect(shown(2)).toBe('noted|false|second');
    expect(shown(1)).toBe('todo 1|false|undefined');
  });

  it('let go of the rows that left the data, and make a new row when the entity comes back', async () => {
    mountFields();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(3)]);
    await tick();
    expect(shown(2)).toBeUndefined();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2, 'back'), row(3)]);
    await tick();
    expect(shown(2)).toBe('back|false');
    controller.set(Todo, { id: 2 }, { id: 2, title: 'again' });
    await tick();
    expect(shown(2)).toBe('again|false');
  });
});

/** A note whose writes replace the record (a field left out of a write is gone). */
class Note extends Entity {
  id = 0;
  text = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
  static override merge(_existing: Record<string, unknown>, incoming: Record<string, unknown>) {
    return incoming;
  }
}
const NoteResource = createResource({ urlPrefix: 'http://test.invalid', path: '/notes/:id', schema: Note });

it('a field the record loses is gone from its row, and the effects that read it run again', async () => {
  controller.setResponse(NoteResource.getList, {}, [{ id: 1, text: 'a', tag: 'red' } as { id: number; text: string }]);
  const notes = createQuery(NoteResource.getList, {}, { controller, reconcile: true });
  let data: Note[] = [];
  const stop = notes.subscribe((state) => (data = state.data ?? []));
  const note = data[0] as Note & { tag?: string };
  const tags = watch(() => note.tag);
  const texts = watch(() => note.text);
  controller.setResponse(NoteResource.getList, {}, [{ id: 1, text: 'a' }]);
  await tick();
  expect(data[0]).toBe(note);
  expect(Object.keys(note)).toEqual(['id', 'text']);
  expect('tag' in note).toBe(false);
  expect(tags.values).toEqual(['red', undefined]);
  expect(texts.values).toEqual(['a', 'a']); // the row's other effects run again too (one signal per row)
  tags.stop();
  texts.stop();
  stop();
});

it('a field no one read while it changed shows its latest value when first read, and is followed from then on', async () => {
  const todos = createQuery(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
  let data: Todo[] = [];
  const stop = todos.subscribe((state) => (data = state.data ?? []));
  const todo = data[1]!;
  const titles = watch(() => todo.title); // the title is followed; `completed` is not read yet
  controller.set(Todo, { id: 2 }, { id: 2, completed: true });
  controller.set(Todo, { id: 2 }, { id: 2, completed: false });
  controller.set(Todo, { id: 2 }, { id: 2, completed: true });
  await tick();
  expect(data[1]).toBe(todo);
  const done = watch(() => todo.completed);
  expect(done.values).toEqual([true]);
  controller.set(Todo, { id: 2 }, { id: 2, completed: false });
  await tick();
  flushSync();
  expect(done.values).toEqual([true, false]);
  // the writes of `completed` while no one read it did not re-run the row's effects; once read, a change does
  expect(titles.values).toEqual(['todo 2', 'todo 2']);
  expect(todo.completed).toBe(false); // an untracked read agrees
  done.stop();
  titles.stop();
  stop();
});
