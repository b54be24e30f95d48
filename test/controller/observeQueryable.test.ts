/**
 * `controller.observe` of a queryable (an Entity by pk, `schema.All`, `schema.Query`) against writes: a
 * subscriber that writes during its first emission sees its write, a batch write emits once per stream
 * that reads its rows and not at all elsewhere, and each stream ends on what a fresh controller reads.
 */
import { describe, expect, it } from 'vitest';
import { Controller, schema, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { record } from '../fixtures/streams.js';
import { todoRow as row } from '../fixtures/todoResource.js';

const done = new schema.Query(new schema.All(Todo), (todos) => todos.filter((todo) => todo.completed).length);

describe('controller.observe(queryable) and writes', () => {
  it('a subscriber that writes during its first emission gets the written record next', () => {
    const controller = new Controller();
    const seen: (string | undefined)[] = [];
    const subscription = controller.observe(Todo, { id: 1 }).subscribe((state) => {
      seen.push(state.data?.title);
      if (!state.data) controller.set(Todo, { id: 1 }, row(1, 'written on the first emission'));
    });
    expect(seen).toEqual([undefined, 'written on the first emission']);
    const count: (number | undefined)[] = [];
    const counting = controller.observe(done).subscribe((state) => {
      count.push(state.data);
      if (state.data === 0) controller.set([Todo], [{ ...row(2), completed: true }]);
    });
    expect(count).toEqual([0, 1]);
    subscription.unsubscribe();
    counting.unsubscribe();
  });

  it('a batch emits once in each stream that reads its rows, not in the others, each ending on a fresh read', () => {
    const controller = new Controller();
    controller.set([Todo], [row(1), row(2), row(3)]);
    const one = record<QueryState<Todo>>(controller.observe(Todo, { id: 1 }));
    const three = record<QueryState<Todo>>(controller.observe(Todo, { id: 3 }));
    const all = record<QueryState<Todo[]>>(controller.observe(new schema.All(Todo)));
    const count = record<QueryState<number>>(controller.observe(done));
    controller.set(
      [Todo],
      [
        { id: 1, completed: true },
        { id: 2, completed: true },
        { id: 4, title: 'new' },
        { id: 1, title: 'renamed' },
      ],
    );
    expect(one.values.map((state) => state.data?.title)).toEqual(['todo 1', 'renamed']);
    expect(three.values).toHaveLength(1);
    expect(all.values).toHaveLength(2);
    expect(all.last().data![2]).toBe(all.values[0]!.data![2]); // todo 3 keeps its object
    expect(count.values.map((state) => state.data)).toEqual([0, 2]);
    const fresh = new Controller({ initialState: controller.getState() });
    expect(JSON.stringify(all.last().data)).toBe(JSON.stringify(fresh.get(new schema.All(Todo))));
    expect(count.last().data).toBe(fresh.get(done));
    for (const stream of [one, three, all, count]) stream.unsubscribe();
  });
});
