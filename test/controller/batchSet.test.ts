/**
 * controller.set([Entity], rows): many records written in one store write. One `state$` emission, one
 * `'set'` action, one emission per stream that reads any of the rows; rows merge as a single `set`
 * does; a bad row writes nothing; a response to a request started before the batch does not overwrite
 * its rows. HTTP through msw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Controller,
  NormalizeError,
  SchemaDefinitionError,
  ValidationError,
  schema,
  type ControllerAction,
  type QueryState,
  type State,
} from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource } from '../fixtures/todoResource.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { record } from '../fixtures/streams.js';
import { FeedItem as Item, Link, Post } from '../fixtures/feedItems.js';
import { Checked, Validated } from '../fixtures/checkedEntities.js';

const fake = createTodoServer(6);
const seed = structuredClone([...fake.todos.values()]);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(async () => {
  fake.todos.clear();
  for (const todo of structuredClone(seed)) fake.todos.set(todo.id, todo);
  fake.clearFailures();
  fake.setLatency(0);
  fake.requests.length = 0;
  controller = new Controller({ retry: 0 });
  await controller.fetch(TodoResource.getList); // todos 1 to 6
});

/** What the store and its streams emit from now on. */
function watchStore(c: Controller) {
  const states = record<State>(c.state$);
  const actions: ControllerAction[] = [];
  const subscription = c.actions$.subscribe((action) => actions.push(action));
  return {
    states: () => states.values.length - 1, // the first is the current state
    actions,
    stop: () => {
      states.unsubscribe();
      subscription.unsubscribe();
    },
  };
}

describe('controller.set([Todo], rows): one write', () => {
  it('state$ and actions$ emit once; each stream that reads rows emits once; the others not at all', () => {
    const list = record<QueryState<Todo[]>>(controller.observe(TodoResource.getList));
    const one = record<QueryState<Todo>>(controller.observe(TodoResource.get, { id: 1 }));
    const six = record<QueryState<Todo>>(controller.observe(Todo, { id: 6 }));
    const before = { list: list.values.length, one: one.values.length, six: six.values.length };
    const previous = list.last().data!;
    const store = watchStore(controller);

    controller.set(
      [Todo],
      [
        { id: 1, title: 'first, batched' },
        { id: 2, completed: true },
        { id: 3, title: 'third, batched', completed: true },
      ],
    );

    expect(store.states()).toBe(1);
    expect(store.actions).toHaveLength(1);
    expect(store.actions[0]).toMatchObject({ type: 'set', args: [] });
    expect(store.actions[0]?.changes?.entities).toEqual([
      ['Todo', '1'],
      ['Todo', '2'],
      ['Todo', '3'],
    ]);
    expect(list.values.length - before.list).toBe(1); // the list reads three of the rows: one emission
    expect(one.values.length - before.one).toBe(1);
    expect(six.values.length - before.six).toBe(0); // reads none of them
    const todos = list.last().data!;
    expect(todos.map((todo) => todo.title)).toEqual([
      'first, batched',
      'todo 2',
      'third, batched',
      'todo 4',
      'todo 5',
      'todo 6',
    ]);
    expect(todos[1]?.completed).toBe(true);
    expect(todos[3]).toBe(previous[3]); // unchanged rows keep their objects
    expect(one.last().data).toBe(todos[0]);
    store.stop();
    expect(fake.requests).toEqual(['GET /todos']);
  });

  it('partial rows merge into the stored records; a new pk is a new record; a repeated pk merges in order', () => {
    controller.set(
      [Todo],
      [
        { id: 2, title: 'renamed' },
        { id: 7, userId: 2, title: 'seven' },
        { id: 2, completed: true },
      ],
    );
    const two = controller.get(Todo, { id: 2 })!;
    expect(two).toMatchObject({ id: 2, userId: 2, title: 'renamed', completed: true });
    expect(two.createdAt.toString()).toBe('2024-01-02T00:00:00Z'); // a field no row held stays as stored
    expect(controller.get(Todo, { id: 7 })).toMatchObject({ id: 7, userId: 2, title: 'seven', completed: false });
  });

  it('every record gets the batch’s own ordering stamp, later than the writes before it', () => {
    const fetched = controller.getState().entitiesMeta.Todo?.['1']?.fetchedAt ?? Infinity;
    controller.set(
      [Todo],
      [
        { id: 1, title: 'a' },
        { id: 4, title: 'b' },
      ],
    );
    const meta = controller.getState().entitiesMeta.Todo!;
    expect(meta['1']?.fetchedAt).toBeGreaterThan(fetched);
    expect(meta['4']?.fetchedAt).toBe(meta['1']?.fetchedAt);
    expect(meta['5']?.fetchedAt).toBe(fetched); // not in the batch: untouched
  });

  it('new schema.Array(Todo) is the same batch', () => {
    const store = watchStore(controller);
    controller.set(new schema.Array(Todo), [
      { id: 1, completed: true },
      { id: 5, completed: true },
    ]);
    expect(store.states()).toBe(1);
    expect(controller.get(Todo, { id: 1 })?.completed).toBe(true);
    expect(controller.get(Todo, { id: 5 })?.completed).toBe(true);
    store.stop();
  });

  it('a list of a schema.Union writes each row in its member’s table, in one write', () => {
    const store = watchStore(controller);
    controller.set(
      [Item],
      [
        { id: 1, type: 'link', url: 'https://example.test' },
        { id: 1, type: 'post', title: 'hello' },
      ],
    );
    controller.set(new schema.Array({ link: Link, post: Post }, 'type'), [{ id: 2, type: 'post', title: 'again' }]);
    expect(store.states()).toBe(2);
    expect(controller.get(Link, { id: 1 })?.url).toBe('https://example.test');
    expect(controller.get(Post, { id: 1 })?.title).toBe('hello');
    expect(controller.get(Post, { id: 2 })?.title).toBe('again');
    store.stop();
  });

  it('an empty batch writes nothing and emits nothing', () => {
    const state = controller.getState();
    const store = watchStore(controller);
    controller.set([Todo], []);
    expect(controller.getState()).toBe(state);
    expect(store.states()).toBe(0);
    expect(store.actions).toHaveLength(0);
    store.stop();
  });
});

describe('controller.set([Todo], rows): all or nothing', () => {
  /** Expects `write` to throw `kind` (its message matching `message`) and to leave store and streams as they were. */
  function rejects(write: () => void, kind: new (...args: never[]) => Error, message: RegExp) {
    const state = controller.getState();
    const json = JSON.stringify(state);
    const list = record<QueryState<Todo[]>>(controller.observe(TodoResource.getList));
    const store = watchStore(controller);
    expect(write).toThrow(kind);
    expect(write).toThrow(message);
    expect(controller.getState()).toBe(state);
    expect(JSON.stringify(controller.getState())).toBe(json);
    expect(store.states()).toBe(0);
    expect(store.actions).toHaveLength(0);
    expect(list.values).toHaveLength(1);
    store.stop();
    list.unsubscribe();
  }

  it('a row without its pk: a NormalizeError naming the entity, and none of the rows before it is written', () => {
    rejects(
      () => controller.set([Todo], [{ id: 1, title: 'would change' }, { title: 'no id' }]),
      NormalizeError,
      /^Todo: /,
    );
    expect(controller.get(Todo, { id: 1 })?.title).toBe('todo 1');
  });

  it('a value that is not an array, and rows that are not objects, are NormalizeErrors naming the row', () => {
    const set = controller.set.bind(controller) as (list: unknown, rows: unknown) => void;
    rejects(() => set([Todo], { id: 1, title: 'an object, not a list' }), NormalizeError, /rows must be an array/);
    rejects(() => set([Todo], 'todos'), NormalizeError, /rows must be an array of records, but got string/);
    rejects(() => set([Todo], [{ id: 1, title: 'x' }, null]), NormalizeError, /row 1 is null/);
    rejects(() => set([Todo], [{ id: 1, title: 'x' }, 2]), NormalizeError, /row 1 is number 2/);
    rejects(() => set([Todo], [[{ id: 1 }]]), NormalizeError, /row 0 is an array/);
    rejects(() => set([Todo], [{ id: 1 }, undefined]), NormalizeError, /row 1 is undefined/);
    expect(() => set([Todo], [undefined])).toThrow(
      expect.objectContaining({ name: 'NormalizeError', schemaKey: 'Todo' }),
    );
  });

  it('a row that fails static validate or the validator: nothing of the batch is written', () => {
    controller.set([Checked], [{ id: 1, title: 'kept' }]);
    rejects(
      () =>
        controller.set(
          [Checked],
          [
            { id: 1, title: 'changed' },
            { id: 2, title: '' },
          ],
        ),
      NormalizeError,
      /Checked: validate\(\) rejected .*a title is required/,
    );
    expect(controller.get(Checked, { id: 1 })?.title).toBe('kept');
    rejects(
      () =>
        controller.set(
          [Validated],
          [{ id: 1, title: 'fine' }, { id: 2, title: 3 } as unknown as { id: number; title: string }],
        ),
      ValidationError,
      /title must be text/,
    );
    expect(controller.get(Validated, { id: 1 })).toBeUndefined();
  });

  it('a list of anything but entities is a SchemaDefinitionError', () => {
    const set = controller.set.bind(controller) as (list: unknown, rows: unknown) => void;
    rejects(
      () => set([{ todo: Todo }], [{ todo: { id: 1 } }]),
      SchemaDefinitionError,
      /controller\.set\(\[\{todo\}\], rows\): a list given to set must hold an Entity class or a schema\.Union/,
    );
    rejects(() => set(new schema.Array(new schema.Values(Todo)), [{}]), SchemaDefinitionError, /must hold an Entity/);
    rejects(() => set([Todo, Todo], [{ id: 1 }]), SchemaDefinitionError, /exactly one item schema/);
  });
});

describe('controller.set([Todo], rows) and requests', () => {
  it('a response to a request started before the batch does not overwrite the batch’s rows', async () => {
    fake.setLatency(30);
    const list = record<QueryState<Todo[]>>(controller.observe(TodoResource.getList));
    const refetch = controller.fetch(TodoResource.getList); // started before the batch: answers the old titles
    controller.set(
      [Todo],
      [
        { id: 1, title: 'batched while the request ran' },
        { id: 2, completed: true },
      ],
    );
    await refetch; // resolves its own answer (the old titles); the store keeps the newer batch
    const todos = list.last().data!;
    expect(todos[0]?.title).toBe('batched while the request ran');
    expect(todos[1]?.completed).toBe(true);
    expect(todos[2]?.title).toBe('todo 3');
    expect(fake.requests).toEqual(['GET /todos', 'GET /todos']);
    list.unsubscribe();
  });

  it('a batch made while an optimistic update is pending is the newer write: it shows, before and after the rollback', async () => {
    fake.fail('PATCH', 500, 1, 30);
    const one = record<QueryState<Todo>>(controller.observe(TodoResource.get, { id: 1 }));
    const failed = expect(
      controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'optimistic' }),
    ).rejects.toThrow(/500/);
    expect(one.last().data?.title).toBe('optimistic');
    controller.set(
      [Todo],
      [
        { id: 1, title: 'batched', completed: true },
        { id: 2, title: 'also batched' },
      ],
    );
    expect(one.last().data).toMatchObject({ title: 'batched', completed: true }); // newer than the layer
    await failed;
    expect(one.last().data).toMatchObject({ title: 'batched', completed: true });
    expect(controller.get(Todo, { id: 2 })?.title).toBe('also batched');
    one.unsubscribe();
  });
});

describe('controller.set([Todo], rows) on a stream of a long list', () => {
  it('emits the list once, each written row new (a row written twice holds its last value), the others the same objects', () => {
    const c = new Controller();
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: i + 1,
      userId: 1,
      title: `todo ${i + 1}`,
      completed: false,
    }));
    c.setResponse(TodoResource.getList, {}, rows);
    const list = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    // the first writes after the first read make the list known by position (later ones patch it)
    for (const id of [1, 2, 3]) c.set(Todo, { id }, { id, title: `first ${id}` });
    const before = list.last().data!;
    const emissions = list.values.length;
    c.set(
      [Todo],
      [
        { id: 5, title: 'five' },
        { id: 9, title: 'nine' },
        { id: 5, title: 'five again' },
      ],
    );
    expect(list.values.length).toBe(emissions + 1);
    const after = list.last().data!;
    expect(after[4]!.title).toBe('five again');
    expect(after[8]!.title).toBe('nine');
    after.forEach((todo, i) => {
      if (i === 4 || i === 8) expect(todo).not.toBe(before[i]);
      else expect(todo).toBe(before[i]);
    });
    list.unsubscribe();
    c.dispose();
  });
});
