/**
 * `controller.set([Todo], rows)` against live streams, probed with seeded batches: each stream emits once when
 * what it reads changed and not at all otherwise, unchanged rows keep their objects, and every stream ends on
 * what a fresh controller restored from the same state reads. Then the batch beside other writes: an optimistic
 * mutation in flight (its rollback exact), a response for the same rows, `resetEntireStore`, `dispose`.
 * HTTP through msw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Controller, peekQuery, schema, watchQuery, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { record } from '../fixtures/streams.js';
import { seeded } from '../fixtures/random.js';

const fake = createTodoServer(6);
const seed = structuredClone([...fake.todos.values()]);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
beforeEach(() => {
  fake.todos.clear();
  for (const todo of structuredClone(seed)) fake.todos.set(todo.id, todo);
  fake.clearFailures();
  fake.setLatency(0);
  fake.requests.length = 0;
});

const json = (value: unknown) => JSON.stringify(value);
const done = new schema.Query(new schema.All(Todo), (todos) => todos.filter((todo) => todo.completed).length);
const IDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** A controller (its clock stopped: nothing goes stale) holding a list of todos 1 to 6 and each one's own result. */
function loaded(): Controller {
  const controller = new Controller({ now: () => 1_000_000 });
  controller.setResponse(
    TodoResource.getList,
    {},
    IDS.slice(0, 6).map((id) => row(id)),
  );
  for (const id of IDS) controller.setResponse(TodoResource.get, { id }, row(id));
  return controller;
}

/** Every kind of stream a batch reaches, each with what a fresh controller reads for it. */
function streams(c: Controller) {
  const fresh = (read: (f: Controller) => unknown) => () => {
    const f = new Controller({ initialState: c.getState(), now: () => 1_000_000 });
    const value = read(f);
    f.dispose();
    return json(value);
  };
  return [
    {
      name: 'list',
      states: record<QueryState<unknown>>(c.observe(TodoResource.getList, {})),
      fresh: fresh((f) => peekQuery(f, TodoResource.getList, {}).data),
    },
    ...[1, 4, 7].map((id) => ({
      name: `get ${id}`,
      states: record<QueryState<unknown>>(c.observe(TodoResource.get, { id })),
      fresh: fresh((f) => peekQuery(f, TodoResource.get, { id }).data),
    })),
    {
      name: 'Todo 2',
      states: record<QueryState<unknown>>(c.observe(Todo, { id: 2 })),
      fresh: fresh((f) => f.get(Todo, { id: 2 })),
    },
    { name: 'done', states: record<QueryState<unknown>>(c.observe(done)), fresh: fresh((f) => f.get(done)) },
    {
      name: 'batched list',
      states: record<QueryState<unknown>>(watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true })),
      fresh: fresh((f) => peekQuery(f, TodoResource.getList, {}).data),
    },
  ];
}

/** A seeded batch: rows of known and new pks, some as stored, some partial, a pk twice now and then. */
function batchOf(random: ReturnType<typeof seeded>, c: Controller) {
  const rows: Record<string, unknown>[] = [];
  for (let n = random.int(5); n >= 0; n--) {
    const id = random.pick(IDS);
    const stored = c.get(Todo, { id });
    const kind = random.int(4);
    if (kind === 0 && stored)
      rows.push({ id, title: stored.title, completed: stored.completed }); // as stored
    else if (kind === 1) rows.push({ id, completed: random.next() < 0.5 });
    else if (kind === 2) rows.push({ id, title: random.pick(['a', 'b', `todo ${id}`]) });
    else rows.push({ ...row(id, random.pick(['c', `todo ${id}`])), completed: random.next() < 0.3 });
  }
  return rows;
}

describe('seeded batches against live streams', () => {
  it('a pk written twice in one batch that ends as stored: the same object, and its stream does not emit', () => {
    for (const own of [false, true]) {
      const c = loaded();
      const two = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 2 }));
      const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
      if (own)
        c.set(Todo, { id: 5 }, { id: 5, title: 'a write after the last hand-out: the tables are the store’s own' });
      const stored = c.getState().entities.Todo!['2'];
      const emitted = list.values.length;
      c.set(
        [Todo],
        [
          { id: 2, title: 'changed', completed: true },
          { id: 3, title: 'renamed' },
          { id: 2, title: 'todo 2', completed: false },
        ],
      );
      expect(c.getState().entities.Todo!['2']).toBe(stored);
      expect(two.values).toHaveLength(1);
      expect(list.values).toHaveLength(emitted + 1); // todo 3 changed
      expect(list.last().data![1]).toBe(list.values[emitted - 1]!.data![1]);
      c.dispose();
    }
  });

  it('one emission where the data changed, none elsewhere, unchanged rows the same objects, a fresh read at the end', async () => {
    for (const s of [11, 12, 13, 14]) {
      const random = seeded(s);
      const c = loaded();
      const watched = streams(c);
      for (let step = 0; step < 40; step++) {
        const before = watched.map((w) => ({ count: w.states.values.length, data: w.states.last().data }));
        const rows = batchOf(random, c);
        c.set([Todo], rows as never);
        await Promise.resolve(); // the batched stream's end of the task
        watched.forEach((w, i) => {
          const { count, data } = before[i]!;
          const now = w.states.last().data;
          const changed = json(now) !== json(data);
          expect(w.states.values.length - count, `seed ${s} step ${step} ${w.name}`).toBe(changed ? 1 : 0);
          expect(json(now), `seed ${s} step ${step} ${w.name}`).toBe(w.fresh());
          if (Array.isArray(data) && Array.isArray(now) && data.length === now.length)
            now.forEach((item, k) => {
              if (json(item) === json(data[k])) expect(item).toBe(data[k]);
            });
        });
      }
      c.dispose();
    }
  });
});

describe('a batch beside other writes', () => {
  it('while an optimistic update is in flight: shown over it, and the rollback restores exactly the batch', async () => {
    fake.fail('PATCH', 500, 1, 30);
    const c = new Controller({ retry: 0 });
    await c.fetch(TodoResource.getList);
    const control = new Controller({ retry: 0 });
    await control.fetch(TodoResource.getList);
    const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList));
    const failed = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'optimistic', completed: true });
    const rows = [
      { id: 1, title: 'batched' },
      { id: 2, completed: true },
    ];
    c.set([Todo], rows);
    control.set([Todo], rows);
    // the batch is the newer write for the field it wrote; the layer's guess still shows for the one it left
    expect(list.last().data![0]).toMatchObject({ title: 'batched', completed: true });
    await expect(failed).rejects.toThrow(/500/);
    expect(c.getState().optimistic).toEqual([]);
    expect(json(c.getState().entities)).toBe(json(control.getState().entities));
    expect(json(list.last().data)).toBe(json(control.getResponse(TodoResource.getList).data));
    c.dispose();
    control.dispose();
  });

  it('a mutation that started before the batch and succeeds after it: its answer does not overwrite the batch', async () => {
    fake.setLatency(30);
    const c = new Controller({ retry: 0 });
    await c.fetch(TodoResource.getList);
    const one = record<QueryState<Todo>>(c.observe(TodoResource.get, { id: 1 }));
    const saved = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'saved' });
    c.set([Todo], [{ id: 1, title: 'batched' }]);
    await saved;
    expect(one.last().data?.title).toBe('batched');
    expect(c.get(Todo, { id: 1 })?.title).toBe('batched');
    c.dispose();
  });

  it('a response for the same rows in the same task: a batched stream emits once, the later write winning', async () => {
    const c = loaded();
    const list = record<QueryState<Todo[]>>(watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }));
    c.set(
      [Todo],
      [
        { id: 1, title: 'batched' },
        { id: 2, title: 'batched' },
      ],
    );
    c.setResponse(TodoResource.getList, {}, [row(1, 'answered'), row(3)]);
    await Promise.resolve();
    expect(list.values.map((state) => state.data?.map((todo) => todo.title))).toEqual([
      ['todo 1', 'todo 2', 'todo 3', 'todo 4', 'todo 5', 'todo 6'],
      ['answered', 'todo 3'],
    ]);
    expect(c.get(Todo, { id: 2 })?.title).toBe('batched');
    c.dispose();
  });

  it('a fetch started after the batch answers over it', async () => {
    const c = new Controller({ retry: 0 });
    await c.fetch(TodoResource.getList);
    c.set([Todo], [{ id: 3, title: 'batched' }]);
    await c.fetch(TodoResource.getList);
    expect(c.get(Todo, { id: 3 })?.title).toBe('todo 3');
    c.dispose();
  });

  it('after resetEntireStore a batch writes into the empty store; a request from before the reset writes nothing', async () => {
    fake.setLatency(30);
    const c = new Controller({ retry: 0 });
    await c.fetch(TodoResource.getList);
    const before = c.fetch(TodoResource.get, { id: 5 });
    c.resetEntireStore();
    c.set([Todo], [{ id: 5, title: 'after the reset' }]);
    await before;
    expect(Object.keys(c.getState().entities.Todo ?? {})).toEqual(['5']);
    expect(c.get(Todo, { id: 5 })?.title).toBe('after the reset');
    c.dispose();
  });

  it('after dispose a batch throws and the state stays as it was', () => {
    const c = loaded();
    const state = c.getState();
    c.dispose();
    expect(() => c.set([Todo], [{ id: 1, title: 'too late' }])).toThrow(
      /controller\.set\(\) was called after controller\.dispose\(\)/,
    );
    expect(c.getState()).toBe(state);
  });
});
