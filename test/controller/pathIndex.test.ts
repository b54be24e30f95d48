/**
 * The query cache's index from records to the streams that read them: a record one stream reads is listed
 * under that stream alone, a record several read under the set of them; a write reaches exactly the streams
 * that read what it changed, and the index empties as the streams go.
 */
import { describe, expect, it } from 'vitest';
import { controllerInternals } from '../../core/controller/Controller.js';
import { Controller, type QueryState } from '../../core/index.js';
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
});
