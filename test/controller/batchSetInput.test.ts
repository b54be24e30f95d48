/**
 * Bad input to `controller.set([Entity], rows)` (and to `set(Entity, ...args, value)`), probed while the
 * store's tables are its own (written in place, see `Store`): every kind gives a named error and leaves the
 * store exactly as it was, deep; and what must be written is written as plain data (`__proto__` and
 * `constructor` as keys and pks, frozen rows, a list of 100,000 rows in one write).
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  NormalizeError,
  SchemaDefinitionError,
  ValidationError,
  schema,
  type ControllerAction,
  type QueryState,
} from '../../core/index.js';
import { controllerInternals } from '../../core/controller/Controller.js';
import { Article, Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { record } from '../fixtures/streams.js';
import { FeedItem } from '../fixtures/feedItems.js';
import { Checked, Validated } from '../fixtures/checkedEntities.js';

/** Every own key and value of `value`, deep, with each object's prototype kind: a snapshot to compare. */
function deep(value: unknown, seen = new Set<object>()): unknown {
  if (typeof value === 'symbol') return `symbol ${String(value)}`;
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return 'cycle';
  seen.add(value);
  const proto: unknown = Object.getPrototypeOf(value);
  const out: Record<string, unknown> = {
    '(prototype)': proto === null ? 'none' : proto === Object.prototype ? 'Object' : 'other',
  };
  for (const key of Reflect.ownKeys(value)) out[String(key)] = deep((value as Record<PropertyKey, unknown>)[key], seen);
  seen.delete(value);
  return out;
}

/**
 * A controller holding todos, checked and validated records and an article, whose last write came after
 * the last state handed out: its tables are its own, and a failed write must undo its in-place writes.
 */
function owned() {
  const controller = new Controller();
  controller.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
  controller.set([Checked], [{ id: 1, title: 'kept' }]);
  controller.set([Validated], [{ id: 1, title: 'kept' }]);
  controller.set([Article], [{ id: 1, title: 'a', author: { id: 'ann', name: 'Ann' } }]);
  controller.getState();
  controller.set([Todo], [{ id: 1, title: 'written in place' }]);
  const list = record<QueryState<Todo[]>>(controller.observe(TodoResource.getList, {}));
  const actions: ControllerAction[] = [];
  controller.actions$.subscribe((action) => actions.push(action));
  return { controller, list, actions };
}

const call = (controller: Controller) => controller.set.bind(controller) as (...args: unknown[]) => void;

/** Runs `write` on a controller whose tables are its own: it must throw `kind` (`message`) and change nothing. */
function refused(
  write: (set: (...args: unknown[]) => void) => void,
  kind: new (...args: never[]) => Error,
  message: RegExp,
) {
  const { controller, list, actions } = owned();
  const store = controllerInternals(controller).store;
  const before = store.current; // not handed out: the tables stay the store's own
  const snapshot = deep(before);
  let thrown: unknown;
  try {
    write(call(controller));
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(kind);
  expect((thrown as Error).message).toMatch(message);
  expect(store.current).toBe(before);
  expect(deep(store.current)).toEqual(snapshot);
  expect(list.values).toHaveLength(1);
  expect(actions).toHaveLength(0);
  expect(controller.get(Todo, { id: 1 })?.title).toBe('written in place');
  controller.dispose();
}

describe('controller.set: bad input changes nothing, deep, with the tables written in place', () => {
  it('a schema that is not one, or a list of something that is not one', () => {
    for (const bad of [undefined, null, 42, 'Todo', {}, () => Todo, class NotAnEntity {}])
      refused((set) => set(bad, [row(2, 'x')]), SchemaDefinitionError, /is not a schema/);
    // a class that failed to import (a cycle of imports) is `undefined` in the list
    refused((set) => set([undefined], [row(2, 'x')]), SchemaDefinitionError, /must hold an Entity .* holds undefined/);
    refused((set) => set([Entity], [row(2, 'x')]), SchemaDefinitionError, /must hold an Entity/);
    refused((set) => set([Todo.fromJS({ id: 1 })], [row(2, 'x')]), SchemaDefinitionError, /must hold an Entity/);
    refused((set) => set([[Todo]], [[row(2, 'x')]]), SchemaDefinitionError, /must hold an Entity/);
    refused((set) => set([], [row(2, 'x')]), SchemaDefinitionError, /exactly one item schema/);
  });

  it('set(Entity, ...args, value) with a value that is not a record', () => {
    for (const value of [undefined, null, 2, 'todo', true])
      refused((set) => set(Todo, { id: 2 }, value), NormalizeError, /^Todo: .*value must be a record holding its pk/);
    refused((set) => set(Todo), NormalizeError, /but got undefined/);
    refused((set) => set(Todo, [row(2, 'x')]), NormalizeError, /Use \[Todo\]/);
  });

  it('rows that are not an array, rows that are not records, rows without a usable pk', () => {
    refused((set) => set([Todo], { id: 2, title: 'x' }), NormalizeError, /rows must be an array/);
    refused((set) => set([Todo]), NormalizeError, /rows must be an array of records, but got undefined/);
    refused((set) => set([Todo], [row(2, 'x'), null]), NormalizeError, /row 1 is null/);
    refused((set) => set([Todo], [row(2, 'x'), 3]), NormalizeError, /row 1 is number 3/);
    // eslint-disable-next-line no-sparse-arrays
    refused((set) => set([Todo], [row(2, 'x'), , row(3, 'y')]), NormalizeError, /row 1 is undefined/);
    for (const id of [undefined, null, {}, [1, 2], true, NaN, Infinity, ''])
      refused((set) => set([Todo], [row(2, 'x'), { id, title: 'y' }]), NormalizeError, /^Todo: /);
  });

  it('rows whose fields are refused: a cycle, a getter that throws, a nested entity without its pk', () => {
    const cyclic: Record<string, unknown> = { id: 3, title: 'y' };
    cyclic.self = cyclic;
    refused((set) => set([Todo], [row(2, 'x'), cyclic]), NormalizeError, /cycle/);
    const throwing = Object.defineProperty({ id: 3 }, 'title', {
      enumerable: true,
      get() {
        throw new RangeError('the getter threw');
      },
    });
    refused((set) => set([Todo], [row(2, 'x'), throwing]), RangeError, /the getter threw/);
    refused(
      (set) =>
        set(
          [Article],
          [
            { id: 1, title: 'changed', author: { id: 'bob', name: 'Bob' } },
            { id: 2, author: { name: 'no pk' } },
          ],
        ),
      NormalizeError,
      /^User: no usable primary key/,
    );
  });

  it('rows that static validate or the Standard Schema validator refuses, after rows that pass', () => {
    refused(
      (set) =>
        set(
          [Checked],
          [
            { id: 1, title: 'changed' },
            { id: 2, title: '' },
          ],
        ),
      NormalizeError,
      /^Checked: validate\(\) rejected/,
    );
    refused(
      (set) =>
        set(
          [Validated],
          [
            { id: 1, title: 'changed' },
            { id: 2, title: 3 },
          ],
        ),
      ValidationError,
      /title must be text/,
    );
  });
});

describe('controller.set([Entity], rows): what it writes', () => {
  class Named extends Entity {
    id = '';
    title = '';
    pk() {
      return this.id;
    }
    static override key = 'Named';
  }

  it('`__proto__`, `constructor` and `toString` as pks and keys are plain data, read back by a fresh controller', () => {
    const controller = new Controller();
    const rows = JSON.parse(
      '[{"id":"__proto__","title":"p"},{"id":"constructor","title":"c"},' +
        '{"id":"toString","title":"t","__proto__":{"polluted":true},"constructor":{"name":"x"}}]',
    ) as { id: string; title: string }[];
    controller.set([Named], rows);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const fresh = new Controller({ initialState: JSON.parse(JSON.stringify(controller.getState())) as never });
    for (const c of [controller, fresh]) {
      expect(c.get(Named, '__proto__')).toBeInstanceOf(Named);
      expect(c.get(Named, '__proto__')?.title).toBe('p');
      expect(c.get(Named, 'constructor')?.title).toBe('c');
      const odd = c.get(Named, 'toString')!;
      expect(Object.getPrototypeOf(odd)).toBe(Named.prototype);
      expect(Object.getOwnPropertyDescriptor(odd, '__proto__')?.value).toEqual({ polluted: true });
      expect(Object.keys(c.getState().entities.Named!)).toEqual(['__proto__', 'constructor', 'toString']);
    }
    controller.dispose();
    fresh.dispose();
  });

  it('leaves the rows as they were given (frozen rows are written, nothing of them is changed)', () => {
    const controller = new Controller();
    const rows = Object.freeze([Object.freeze(row(1)), Object.freeze({ id: 2, title: 'two' })]);
    const copy = structuredClone(rows);
    controller.set([Todo], rows);
    expect(rows).toEqual(copy);
    expect(controller.get(Todo, { id: 2 })?.title).toBe('two');
    controller.dispose();
  });

  it('100,000 rows: one write, one action, one emission of the list that reads some of them', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, {}, [row(1), row(50_000), row(100_000)]);
    const list = record<QueryState<Todo[]>>(controller.observe(TodoResource.getList, {}));
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, title: `batched ${i + 1}` }));
    controller.set([Todo], rows);
    expect(actions).toHaveLength(1);
    expect(actions[0]?.changes?.entities).toHaveLength(100_000);
    expect(list.values).toHaveLength(2);
    expect(list.last().data?.map((todo) => todo.title)).toEqual(['batched 1', 'batched 50000', 'batched 100000']);
    expect(Object.keys(controller.getState().entities.Todo!)).toHaveLength(100_000);
    controller.dispose();
  });
});

describe('schema.Array and a list of a Union go through the same checks', () => {
  it('rows that are not an array, a Union row naming no member, a member row without its pk', () => {
    refused((set) => set(new schema.Array(Todo), 'rows'), NormalizeError, /rows must be an array/);
    refused((set) => set([FeedItem], [{ id: 1 }]), NormalizeError, /names no member; expected one of "link", "post"/);
    refused(
      (set) => set([FeedItem], [{ id: 1, type: 'link', url: 'x' }, { type: 'post' }]),
      NormalizeError,
      /^Post: no usable primary key/,
    );
  });
});
