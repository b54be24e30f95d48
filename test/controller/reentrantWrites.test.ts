/**
 * Writes made by subscribers while the store emits (a `state$` subscriber, an observer of an endpoint or of a
 * queryable, a batching subscriber that writes in reaction to what it got): every subscriber, of every kind,
 * ends each task on the store's current state, what a fresh controller restored from it reads. Seeded.
 */
import { describe, expect, it } from 'vitest';
import { Controller, peekQuery, schema, watchQuery, type QueryState, type State } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { record } from '../fixtures/streams.js';
import { seeded } from '../fixtures/random.js';

const done = new schema.Query(new schema.All(Todo), (todos) => todos.filter((todo) => todo.completed).length);
const json = (value: unknown) => JSON.stringify(value);

describe('state$ and a subscriber that writes', () => {
  it('the subscribers after it end on the state its write made, not on the one it reacted to', () => {
    const controller = new Controller();
    const before = record<State>(controller.state$);
    const writer = controller.state$.subscribe((state) => {
      if (state.entities.Todo?.['1'] && !state.entities.Todo['2']) controller.set(Todo, { id: 2 }, row(2, 'reaction'));
    });
    const after = record<State>(controller.state$);
    controller.set(Todo, { id: 1 }, row(1));
    expect(before.last()).toBe(controller.getState());
    expect(after.last()).toBe(controller.getState());
    expect(after.last().entities.Todo?.['2']).toMatchObject({ title: 'reaction' });
    writer.unsubscribe();
    controller.dispose();
  });
});

describe('seeded writes in reaction to emissions', () => {
  it('every stream and state$ subscriber ends each task on what a fresh controller reads', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const random = seeded(seed);
      const c = new Controller({ now: () => 1_000_000 });
      c.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
      for (const id of [1, 2, 3]) c.setResponse(TodoResource.get, { id }, row(id));
      let depth = 0;
      const react = () => {
        if (depth > 2 || random.next() < 0.5) return;
        depth++;
        const id = 1 + random.int(3);
        if (random.next() < 0.5) c.set(Todo, { id }, { id, title: random.pick(['x', 'y', 'z']) });
        else
          c.set(
            [Todo],
            [
              { id, completed: random.next() < 0.5 },
              { id: 1 + random.int(3), title: random.pick(['p', 'q']) },
            ],
          );
        depth--;
      };
      const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
      c.observe(TodoResource.getList, {}).subscribe(react);
      const one = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 1 }));
      c.observe(Todo, { id: 2 }).subscribe(react);
      const two = record<QueryState<Todo>>(c.observe(Todo, { id: 2 }));
      const count = record<QueryState<number>>(c.observe(done));
      c.observe(done).subscribe(react);
      const batched = record<QueryState<Todo[]>>(
        watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }),
      );
      watchQuery(c, TodoResource.get, [{ id: 3 }], { poll: false, batch: true }).subscribe(react);
      const first = record<State>(c.state$);
      c.state$.subscribe(react);
      const last = record<State>(c.state$);
      for (let step = 0; step < 30; step++) {
        const id = 1 + random.int(3);
        c.set(Todo, { id }, { id, title: random.pick(['a', 'b', 'c']), completed: random.next() < 0.5 });
        await Promise.resolve();
        await Promise.resolve();
        const fresh = new Controller({ initialState: c.getState(), now: () => 1_000_000 });
        const where = `seed ${seed} step ${step}`;
        const freshList = json(peekQuery(fresh, TodoResource.getList, {}).data);
        expect(json(list.last().data), where).toBe(freshList);
        expect(json(batched.last().data), where).toBe(freshList);
        expect(json(one.last().data), where).toBe(json(peekQuery(fresh, TodoResource.get, { id: 1 }).data));
        expect(json(two.last().data), where).toBe(json(fresh.get(Todo, { id: 2 })));
        expect(count.last().data, where).toBe(fresh.get(done));
        expect(first.last(), where).toBe(c.getState());
        expect(last.last(), where).toBe(c.getState());
        fresh.dispose();
      }
      c.dispose();
    }
  });
});
